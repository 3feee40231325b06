"""The start-up rule of the gate path: the restart, title, recovery and handoff modules
import nothing heavy, a restart decision imports nothing at all, and the title gate loads
its zone database only for a zone other than UTC."""

import json
import subprocess
import sys

import pytest

from gate_cases import README

HEAVY = ("json", "re", "typing", "dataclasses", "datetime", "zoneinfo", "click", "jsonschema")


def _loaded_after(code):
    script = f"import sys\n{code}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize("gate", ["restart", "title", "recovery", "handoff"])
def test_importing_the_gate_loads_nothing_heavy(gate):
    assert _loaded_after(f"import passdown.gates.{gate}") == "[]"


def test_a_restart_decision_from_bytes_loads_nothing_heavy():
    raw = json.dumps(README).encode()
    code = f"from passdown.gates import restart\nassert restart.run({raw!r}).outcome == 'CREATE_FRESH'"
    assert _loaded_after(code) == "[]"


def test_the_title_gate_needs_no_zone_database_for_utc():
    code = ("from passdown.gates import title\n"
            "assert title.decide({'title': 't', 'started_at': '2026-09-05T23:30:00Z'}).exit_code == 0")
    assert _loaded_after(code) == "['datetime']"


@pytest.mark.parametrize("codec, mark", [("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b""), ("utf-32-be", b"\x00\x00\xfe\xff")])
def test_a_restart_decision_from_other_encodings_loads_nothing_heavy(codec, mark):
    raw = mark + json.dumps(README).encode(codec)
    code = f"from passdown.gates import restart\nassert restart.run({raw!r}).outcome == 'CREATE_FRESH'"
    assert _loaded_after(code) == "[]"
