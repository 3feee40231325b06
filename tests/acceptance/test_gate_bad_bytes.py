"""The real command on bad bytes, in fresh processes where nothing has loaded the json
package yet (the state every hook starts in): a documented answer, never a traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

PASSDOWN = Path(sys.executable).with_name("passdown")

TRUNCATED = [b'{"a', b'{"a": 1,}', b'{"a": tru}', b'{"a": "\\x"}', b'[1, 2', b'{"a" 1}', b'\x00']
ANSWERS = {
    "restart": (b'{"action": "BLOCKED", "reason": "invalid_input"}\n', 2),
    "title": (b'{"status": "TITLE_UNAVAILABLE"}\n', 2),
    "recovery": (b'{"field": "$", "outcome": "invalid_input"}\n', 2),
    "handoff": (b'{"field": "$", "outcome": "invalid_input"}\n', 2),
}


@pytest.mark.parametrize("gate", sorted(ANSWERS))
@pytest.mark.parametrize("raw", TRUNCATED)
def test_malformed_json_on_the_command_is_a_documented_answer(gate, raw):
    result = subprocess.run([str(PASSDOWN), "gate", gate], input=raw, capture_output=True,
                            timeout=60, check=False)
    assert (result.stdout, result.returncode) == ANSWERS[gate]
    assert result.stderr == b""


def test_a_record_torn_mid_string_is_malformed_in_a_fresh_process():
    raw = (b'{"op": "replay", "now": "2026-05-04T10:02:00Z", "incarnation": "boot-2", '
           b'"record_text": "{\\"kind\\": \\"handoff\\", \\"reason\\": \\"appl"}')
    result = subprocess.run([str(PASSDOWN), "gate", "handoff"], input=raw, capture_output=True,
                            timeout=60, check=False)
    assert result.stdout == b'{"op": "replay", "outcome": "record_malformed"}\n'
    assert result.returncode == 1
