"""``passdown gate`` through click: listing, outcomes, unreadable files, and the same answer as
the fast path."""

import json
import subprocess
import sys

import pytest

from click.testing import CliRunner

from passdown.cli import cli
from passdown.gates import gate_names, load

README_EXAMPLE = {
    "schema": 1, "mode": "adaptive", "policy_authorized": True, "remaining_work": True,
    "source_id": "source", "goal_id": "task", "creation_status": "not_sent", "compactions": 2,
    "current_input_tokens": 80000, "fresh_input_tokens": 15000,
    "restart_overhead_tokens": 10000, "remaining_calls": 3, "progress_since_restart": True,
    "safe_boundary": True, "active_writers": 0, "pending_operations": 0,
    "checkpoint_readback": True, "checkpoint_current": True, "fresh_create_supported": True,
    "target_read_supported": True, "transfer_supported": True,
}


def test_list_names_every_gate_of_the_table():
    result = CliRunner().invoke(cli, ["gate", "--list", "--format", "json"])
    assert result.exit_code == 0
    listed = json.loads(result.output)
    assert [g["name"] for g in listed] == list(gate_names())
    assert all(g["outcomes"] for g in listed)


def test_outcomes_of_one_gate_are_its_table_entry():
    result = CliRunner().invoke(cli, ["gate", "restart", "--outcomes"])
    assert result.exit_code == 0
    assert result.output.split() == list(load("restart").OUTCOMES)


def test_an_unreadable_file_is_a_usage_failure_with_a_code(tmp_path):
    result = CliRunner().invoke(cli, ["gate", "restart", str(tmp_path / "missing.json")])
    assert result.exit_code == 2
    assert "load.unreadable" in result.output


def test_click_and_the_fast_path_print_the_same_bytes(tmp_path):
    observations = tmp_path / "obs.json"
    observations.write_text(json.dumps(README_EXAMPLE))
    via_click = CliRunner().invoke(cli, ["gate", "restart", str(observations), "--format", "json"])
    fast = subprocess.run([sys.executable, "-m", "passdown", "gate", "restart", str(observations)],
                          capture_output=True, text=True)
    assert fast.returncode == via_click.exit_code == 0
    assert fast.stdout == via_click.output
    assert json.loads(fast.stdout)["action"] == "CREATE_FRESH"


def test_no_name_and_no_list_is_a_usage_error():
    result = CliRunner().invoke(cli, ["gate"])
    assert result.exit_code == 2


# -- the text form and the detail line of a refused input ----------------------------------

def _fast(*args, stdin: bytes):
    return subprocess.run([sys.executable, "-m", "passdown", "gate", *args], input=stdin,
                          capture_output=True)


def test_the_text_form_is_for_people_and_json_stays_the_published_bytes(tmp_path):
    observations = tmp_path / "obs.json"
    observations.write_text(json.dumps(README_EXAMPLE))
    text = CliRunner().invoke(cli, ["gate", "restart", str(observations), "--format", "text"])
    assert text.exit_code == 0
    assert text.output.splitlines()[:4] == [
        "restart: CREATE_FRESH (exit status 0)", "  action: CREATE_FRESH",
        "  assessment.basis: estimated_token_proxy_not_billing",
        "  assessment.context_occupancy: null"]
    assert text.output.splitlines()[-1] == "  reason: record_identity_and_receipt_before_retry"


@pytest.mark.parametrize("stdin, said", [
    (b'{"schema": "1"}', '`schema` is "1" (a string); this gate reads `"schema": 1`, the integer'),
    (b'{"goal_id": "g"}', 'the observation has no `schema` member; this gate reads `"schema": 1`'),
    (b'{"schema": 1,\n "source_id": "s" "goal_id"}',
     "the input is not one readable JSON value: invalid JSON: Expecting ',' delimiter at line 2, "
     "column 19"),
    (b"[1, 2]", "the input is an array, not an object of observations"),
    (json.dumps({**README_EXAMPLE, "current_input_tokens": 10 ** 400}).encode(),
     "`current_input_tokens`: an integer too large for the gate's arithmetic (a double)"),
])
def test_a_blocked_input_says_which_field_on_stderr_and_stdout_keeps_its_bytes(stdin, said):
    fast = _fast("restart", stdin=stdin)
    result = CliRunner().invoke(cli, ["gate", "restart", "--format", "json"], input=stdin)
    assert (fast.returncode, result.exit_code) == (2, 2)
    assert result.stdout.encode() == fast.stdout
    assert fast.stderr == b""  # the fast path, for hooks, stays exactly as it was
    assert result.stderr == f"passdown: detail: {said}\n"


def test_quiet_drops_the_detail_and_verbose_names_the_gate():
    result = CliRunner().invoke(cli, ["gate", "restart", "-q"], input=b'{"schema": 2}')
    assert (result.exit_code, result.stderr) == (2, "")
    result = CliRunner().invoke(cli, ["gate", "restart", "-v"], input=b'{"schema": 2}')
    assert result.stderr.splitlines() == [
        "passdown: gate restart v2.2.1: BLOCKED, exit status 2 (spec/gates/restart.md)",
        'passdown: detail: `schema` is 2 (an integer); this gate reads `"schema": 1`, the integer']


def test_another_gate_refusing_unreadable_bytes_says_where():
    result = CliRunner().invoke(cli, ["gate", "recovery", "--format", "text"], input=b'{"a": }')
    assert result.exit_code == 2
    assert result.stdout == "recovery: invalid_input (exit status 2)\n  outcome: invalid_input\n  field: $\n"
    assert result.stderr == ("passdown: detail: the input is not one readable JSON value: invalid "
                             "JSON: Expecting value at line 1, column 7\n")


def test_color_paints_the_outcome_of_the_text_form():
    result = CliRunner().invoke(cli, ["gate", "restart", "--format", "text", "--color", "always",
                                      "-q"], input=b'{"schema": 2}')
    assert result.stdout.splitlines()[0] == "restart: \x1b[1;31mBLOCKED\x1b[0m (exit status 2)"
