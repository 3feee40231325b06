"""``baton gate`` through click: listing, outcomes, unreadable files, and the same answer as
the fast path."""

import json
import subprocess
import sys

from click.testing import CliRunner

from baton.cli import cli
from baton.gates import gate_names, load

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
    via_click = CliRunner().invoke(cli, ["gate", "restart", str(observations), "--format", "text"])
    fast = subprocess.run([sys.executable, "-m", "baton", "gate", "restart", str(observations)],
                          capture_output=True, text=True)
    assert fast.returncode == via_click.exit_code == 0
    assert fast.stdout == via_click.output
    assert json.loads(fast.stdout)["action"] == "CREATE_FRESH"


def test_no_name_and_no_list_is_a_usage_error():
    result = CliRunner().invoke(cli, ["gate"])
    assert result.exit_code == 2
