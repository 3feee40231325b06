"""Properties of the relaunch, lifecycle and guard gates over many generated inputs.

Any JSON value to ``decide`` and any bytes to ``run`` give a documented outcome that matches
the output schema, never an exception. Beyond that: the relaunch gate never relaunches when a
guard fails and never calls unknown usage below budget; the lifecycle gate's role path never
keeps context and its continuity path never loses the Stack session id, over every sequence of
events; the guard never judges a data tool's arguments or a quoted mention as a command, and no wrapper
or separator hides a command that stops the host."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from passdown.engine._schemas import store
from passdown.gates import guard, lifecycle, relaunch
from passdown.gates._guard_judge import glob_match
from passdown.gates._guard_read import Unreadable, read

GATES = (relaunch, lifecycle, guard)
EXIT = {"invalid_input": 2}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=15), children, max_size=6),
    max_leaves=40,
)


def _check_decision(module, decision):
    assert decision.outcome in module.OUTCOMES
    output = decision.output
    errors = list(store().reference_validator(f"gates/{module.NAME}.output").iter_errors(output))
    assert not errors, errors[0].message
    assert json.loads(decision.text) == output
    if decision.outcome == "invalid_input":
        assert decision.exit_code == 2
    elif decision.outcome in ("allow", "accepted") or decision.outcome in getattr(module, "ACTIONS", ()):
        assert decision.exit_code == 0
    else:
        assert decision.exit_code == 1


@pytest.mark.parametrize("module", GATES, ids=lambda m: m.NAME)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values)
def test_any_json_value_gives_a_documented_outcome(module, value):
    _check_decision(module, module.decide(value))


@pytest.mark.parametrize("module", GATES, ids=lambda m: m.NAME)
@settings(max_examples=300, deadline=None)
@given(raw=st.binary(max_size=400) | json_values.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_give_a_documented_outcome(module, raw):
    _check_decision(module, module.run(raw))


# -- near-valid inputs: the schema and the gate agree ---------------------------------------

def _bases(gate):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "conformance" / "cases" / gate
    found = []
    for path in sorted(folder.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if "input" in case and case["expected"]["output"].get("code") != "invalid_input":
                found.append(case["input"])
    return found


BASES = {gate: _bases(gate) for gate in ("relaunch", "lifecycle", "guard")}


def _mutate(value, data):
    """``value`` with one member (or itself) replaced by an arbitrary JSON value; the
    containers on the way down are copied, the rest is shared."""
    if isinstance(value, (dict, list)) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(list(value) if isinstance(value, dict) else range(len(value))))
        copied = type(value)(value)
        copied[key] = _mutate(value[key], data)
        return copied
    return data.draw(json_values)


@pytest.mark.parametrize("module", GATES, ids=lambda m: m.NAME)
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_gate_never_accepts_what_its_input_schema_refuses(module, data):
    value = _mutate(data.draw(st.sampled_from(BASES[module.NAME])), data)
    decision = module.decide(value)
    _check_decision(module, decision)
    schema_errors = list(store().reference_validator(f"gates/{module.NAME}.input").iter_errors(value))
    if schema_errors:
        assert decision.outcome == "invalid_input", schema_errors[0].message


# -- relaunch ---------------------------------------------------------------------------------

RELAUNCHING = next(case for case in BASES["relaunch"] if relaunch.decide(case).outcome == "relaunch")
GUARD_BREAKERS = {
    "open_receipt": ("open_receipt", {"receipt_id": "rl-x", "outcome": "uncertain"}),
    "disabled": ("settings", {"lead_restarts": False}),
    "not_bound": ("seat.bound", False),
    "source": ("usage.source_proven", False),
    "transcript": ("usage", {"source_proven": True, "transcript": "unreadable", "context_tokens": None}),
    "budget": ("usage.context_tokens", 10),
    "trust": ("seat.launch_dir", "/home/owner/lead"),
    "shell": ("launcher.under_shell", False),
    "agent": ("launcher.session_id", "sess-other"),
    "in_turn": ("seat.in_turn", True),
    "owner": ("owner_last_write_at", "2026-10-15T11:59:00Z"),
    "draft": ("draft", "present"),
    "unreadable_draft": ("draft", "unreadable"),
    "brief_pending": ("brief", {"asked_at": "2026-10-15T11:59:00Z", "answered_at": None}),
    "brief_missing": ("brief", {"asked_at": None, "answered_at": None}),
}


def _set(value, dotted, new):
    *parents, last = dotted.split(".")
    copied = dict(value)
    node = copied
    for key in parents:
        node[key] = dict(node[key])
        node = node[key]
    node[last] = new
    return copied


@settings(max_examples=300, deadline=None)
@given(broken=st.sets(st.sampled_from(sorted(GUARD_BREAKERS)), min_size=1))
def test_relaunch_never_happens_when_any_guard_fails(broken):
    value = RELAUNCHING
    for name in sorted(broken):
        dotted, new = GUARD_BREAKERS[name]
        value = _set(value, dotted, new)
    decision = relaunch.decide(value)
    assert decision.outcome != "relaunch"
    if decision.output["decision"] == "refuse":
        assert decision.output["effects"] == "none"
    if "open_receipt" in broken:
        assert decision.outcome == "reconcile"


@settings(max_examples=300, deadline=None)
@given(tokens=st.none() | st.integers(0, 10**6), started=st.none() | st.sampled_from(
    ["2026-10-15T11:00:00Z", "2026-10-14T00:00:00Z", "2026-10-16T00:00:00Z"]),
       transcript=st.sampled_from(["read", "missing", "ambiguous", "unreadable"]))
def test_unknown_usage_never_proves_the_seat_below_budget(tokens, started, transcript):
    usage = {"source_proven": True, "transcript": transcript,
             "context_tokens": tokens if transcript == "read" else None}
    assume(transcript != "read" or tokens is not None)
    value = _set(_set(RELAUNCHING, "usage", usage), "seat.session_started_at", started)
    outcome = relaunch.decide(value).outcome
    if transcript != "read" or started is None:
        assert outcome != "below_budget"


# -- lifecycle --------------------------------------------------------------------------------

NOW = "2026-10-15T12:00:00Z"
TIMES = ["2026-10-15T11:00:00Z", NOW, "2026-10-15T12:30:00Z", "2026-10-15T13:00:00Z"]
RUNTIMES = [{"harness": h, "model": m, "provider": p} for h, m, p in
            (("claude", "opus-4", "anthropic"), ("codex", "gpt-5", "openai"), ("claude", "sonnet-4", "anthropic"))]
ROLES = ["implementer", "reviewer", "planner"]
IDS = [f"id-{n}" for n in range(6)]
TYPES = ["read", "write", "checkpoint", "renew_lease", "acquire_lease", "assign", "request_relaunch",
         "request_switch", "request_role_change", "reconfigure", "launch", "started", "ready"]
START = {
    "stack_session_id": "stack-0", "seat_id": "seat-lead", "incarnation_id": "inc-0", "epoch": 0,
    "fencing_token": 0, "lease": {"holder": "inc-0", "expires_at": "2026-10-15T13:00:00Z"},
    "checkpoint": {"revision": 0, "validated": True, "current": True}, "state": "active",
    "role": "implementer", "runtime": RUNTIMES[0], "context": {"notes": "carried"}, "task_id": "task-1",
    "pending": None, "role_history": [],
}


@st.composite
def events(draw, record):
    kind = draw(st.sampled_from(TYPES))
    event = {"type": kind}
    if kind in ("write", "checkpoint", "renew_lease", "acquire_lease", "started", "ready"):
        honest = draw(st.integers(0, 9)) > 0
        event["incarnation_id"] = record["incarnation_id"] if honest else draw(st.sampled_from(["inc-0", "inc-x"]))
        event["epoch"] = record["epoch"] if honest else draw(st.integers(0, 3))
        event["fencing_token"] = record["fencing_token"] if honest else draw(st.integers(0, 3))
    if kind == "checkpoint":
        event["revision"] = max(0, record["checkpoint"]["revision"] + draw(st.integers(-1, 2)))
        event["validated"] = draw(st.booleans())
    if kind in ("renew_lease", "acquire_lease"):
        event["expires_at"] = draw(st.sampled_from(TIMES))
    if kind == "assign":
        event["task_id"] = draw(st.sampled_from(["task-1", "task-2"]))
    if kind == "request_relaunch":
        event["trigger"] = draw(st.sampled_from(lifecycle.TRIGGERS))
    if kind == "request_switch":
        event["runtime"] = draw(st.sampled_from(RUNTIMES))
    if kind == "request_role_change":
        event["role"] = draw(st.sampled_from(ROLES))
    if kind == "launch":
        event["new_incarnation_id"] = draw(st.sampled_from(IDS + [record["incarnation_id"]]))
        event["lease_expires_at"] = draw(st.sampled_from(TIMES))
        if draw(st.booleans()):
            event["new_stack_session_id"] = draw(st.sampled_from(IDS + [record["stack_session_id"]]))
    if kind == "ready":
        event["proof"] = {item: draw(st.integers(0, 5)) > 0 for item in lifecycle.PROOF_ITEMS}
        if draw(st.booleans()):
            event["restored_revision"] = max(0, record["checkpoint"]["revision"] + draw(st.integers(-1, 0)))
    return event


def _assert_transition(before, event, decision):
    if decision.outcome != "accepted":
        assert "record" not in decision.output and decision.output["effects"] == "none"
        return
    after = decision.output["record"]
    assert not list(store().reference_validator("gates/lifecycle.input").iter_errors(
        {"record": after, "event": {"type": "read"}, "now": NOW, "coordinator": "available"}))
    assert after["seat_id"] == before["seat_id"]
    assert after["epoch"] >= before["epoch"] and after["fencing_token"] >= before["fencing_token"]
    credentials = ("incarnation_id", "epoch", "fencing_token")
    if "fencing_token" in event:
        assert all(event[key] == before[key] for key in credentials), "a stale writer was accepted"
    if event["type"] == "launch":
        assert after["incarnation_id"] != before["incarnation_id"]
        assert after["epoch"] == before["epoch"] + 1
        assert after["fencing_token"] == before["fencing_token"] + 1
        assert after["lease"]["holder"] == after["incarnation_id"]
        if before["pending"]["path"] == "role":
            assert after["context"] is None, "a role switch kept context"
            assert after["stack_session_id"] != before["stack_session_id"]
            assert after["role"] == before["pending"]["role"] != before["role"]
        else:
            assert after["stack_session_id"] == before["stack_session_id"], "a switch lost the session id"
            assert after["context"] == before["context"]
            assert after["role"] == before["role"]
    else:
        assert after["stack_session_id"] == before["stack_session_id"]
        assert after["context"] == before["context"]


@settings(max_examples=400, deadline=None)
@given(data=st.data(), coordinator=st.sampled_from(["available", "available", "unavailable"]))
def test_every_event_sequence_keeps_the_two_paths_apart(data, coordinator):
    record = START
    for _ in range(data.draw(st.integers(1, 25))):
        event = data.draw(events(record))
        now = data.draw(st.sampled_from(TIMES[:2]))
        decision = lifecycle.decide({"record": record, "event": event, "now": now, "coordinator": coordinator})
        assert decision.outcome != "invalid_input", (record, event)
        _assert_transition(record, event, decision)
        if decision.outcome == "accepted":
            record = decision.output["record"]


def _walk_to(path):
    """A record at the launch of ``path`` (continuity or role), built through the gate itself."""
    request = ({"type": "request_switch", "runtime": RUNTIMES[1]} if path == "continuity"
               else {"type": "request_role_change", "role": "reviewer"})
    record = START
    credentials = {"incarnation_id": "inc-0", "epoch": 0, "fencing_token": 0}
    for event in (request, {"type": "checkpoint", "revision": 1, "validated": True, **credentials},
                  *([{"type": "reconfigure"}] if path == "role" else [])):
        decision = lifecycle.decide({"record": record, "event": event, "now": NOW, "coordinator": "available"})
        assert decision.outcome == "accepted", decision.output
        record = decision.output["record"]
    return record


@settings(max_examples=300, deadline=None)
@given(context=st.none() | st.dictionaries(st.text(max_size=8), json_values, max_size=4),
       session=st.sampled_from(IDS), incarnation=st.sampled_from(IDS),
       extra_session=st.none() | st.sampled_from(IDS))
def test_a_role_switch_never_keeps_context_and_a_harness_switch_never_loses_the_session(
        context, session, incarnation, extra_session):
    assume(context is None or not any(isinstance(v, float) and v != v for v in context.values()))
    for path in ("continuity", "role"):
        record = dict(_walk_to(path), context=context, stack_session_id=session)
        event = {"type": "launch", "new_incarnation_id": incarnation, "lease_expires_at": TIMES[-1]}
        if path == "role":
            event["new_stack_session_id"] = extra_session
        elif extra_session is not None:
            event["new_stack_session_id"] = extra_session
        decision = lifecycle.decide({"record": record, "event": event, "now": NOW, "coordinator": "available"})
        if decision.outcome == "invalid_input":
            continue  # a generated context too deep or not JSON-clean
        _assert_transition(record, event, decision)
        if path == "continuity" and extra_session is None:
            assert decision.outcome == "accepted"
            assert decision.output["record"]["stack_session_id"] == session
        if path == "role" and decision.outcome == "accepted":
            assert decision.output["record"]["context"] is None


# -- guard ------------------------------------------------------------------------------------

def _guard(arguments, tool="execute", **extra):
    value = {"tool": tool, "arguments": arguments, "host_pid": 4242, "service_unit": "dsh.service",
             "host_names": ["claude"], "host_command_lines": ["claude --model opus"]}
    value.update(extra)
    return guard.decide(value)


@settings(max_examples=400, deadline=None)
@given(arguments=json_values)
def test_a_data_tool_is_never_judged_as_a_command(arguments):
    text = json.dumps(arguments)
    decision = _guard(arguments, tool="data")
    if "kill" not in text:
        assert decision.outcome in ("allow", "invalid_input")
    else:
        assert decision.outcome in ("allow", "self_signal", "invalid_input")


mention = st.text(alphabet=st.characters(blacklist_characters="'\x00", blacklist_categories=("Cs",)),
                  max_size=80).filter(lambda t: "kill" not in t)


@settings(max_examples=400, deadline=None)
@given(text=mention, verb=st.sampled_from(["git commit -m", "echo", "grep", "printf '%s'", "logger",
                                          "grep -c", "python3 -c 'print(input())' --", "rg -e"]))
def test_a_single_quoted_mention_never_denies(text, verb):
    decision = _guard(f"{verb} '{text}'")
    assert decision.outcome == "allow", (verb, text)


DENIED = [("systemctl --user restart dsh.service", "service_restart"), ("kill -9 4242", "host_kill"),
          ("kill -1", "host_kill"), ("reboot", "host_shutdown"), ("pkill -f claude", "process_kill"),
          ("systemctl --user stop dsh", "service_restart"), ("kill -9 +4242", "host_kill"),
          ("systemctl start reboot.target", "host_shutdown"), ("echo b > /proc/sysrq-trigger", "host_shutdown"),
          ("pgrep claude | xargs kill -9", "process_kill"), ("killall -r 'cl.ude'", "process_kill")]
WRAPPERS = ["sudo {}", "sudo -u root {}", "nohup {}", "env A=1 {}", "timeout 5 {}", "nice -n 5 {}",
            "exec {}", "command {}", "A=1 B=2 {}", "sh -c '{}'", "bash -lc '{}'", "echo $({})",
            "ls; {}", "true && {}", "false || {}", "{} 2>/dev/null", "( {} )", "if true; then {}; fi",
            "busybox sh -c '{}'", "python3 -c \"import os; os.system('{}')\"",
            "time -p {}", "/usr/bin/time -f %e {}", "sudo -iu root {}", "env -S'{}'", "PATH+=:/opt {}",
            "bash -o errexit -c '{}'", "bash -c -- '{}'", "script -qc '{}' /dev/null", "trap '{}' EXIT",
            "python3 -Ic \"import os; os.system('{}')\"", "perl -le 'system(\"{}\")'",
            "function f {{ {}; }}; f", "f() {{ {}; }}", "find . -exec sh -c '{}' \\;", "printf '%s\\n' '{}' | sh",
            "sh -s <<'EOF'\n{}\nEOF", "eval '{}'", "watch -n1 '{}'",
            "awk 'BEGIN {{ system(\"{}\") }}'", "nice -n5 {}", "timeout -k5 10 {}"]


@settings(max_examples=300, deadline=None)
@given(denied=st.sampled_from(DENIED), wrappers=st.lists(st.sampled_from(WRAPPERS), max_size=3))
def test_wrappers_and_separators_never_hide_a_denied_command(denied, wrappers):
    command, code = denied
    for wrapper in wrappers:
        if any(c in command for c in "'\"{}") and any(c in wrapper.replace("{}", "") for c in "'\"{}"):
            return  # quoting one inside the other would change the command, not wrap it
        command = wrapper.format(command)
        if "$((" in command:
            return  # "echo $({})" around "( {} )" is bash's arithmetic $((...)), which runs nothing
        if any(after[:1] not in ("", "\n", ")") for after in command.split("\nEOF")[1:]):
            return  # "{} 2>/dev/null" around a here-document puts text on its delimiter's line
    assert _guard(command).outcome == code, command


@settings(max_examples=200, deadline=None)
@given(denied=st.sampled_from(DENIED), program=st.sampled_from(["bash", "sh", "/bin/zsh"]),
       key=st.sampled_from(["command", "cmd"]), tail=st.sampled_from(["args", "argv"]))
def test_a_spawn_object_never_hides_a_denied_command(denied, program, key, tail):
    command, code = denied
    assert _guard({key: program, tail: ["-c", command]}).outcome == code


_atoms = st.sampled_from(["a", "b", "n", ".", ".*", "[ab]", "[^a]", "[a-n]", "\\w", "\\s", "x", "\\."])
#: Kill patterns of the forms the guard reads: atoms in a row, anchors, alternatives, groups
#: of alternatives (which may be left out), an anchor first or last in a group's alternative.
_groups = st.lists(st.lists(_atoms, max_size=2).map("".join), min_size=1, max_size=2).map(
    lambda alternatives: "(" + "|".join(alternatives) + ")")
_anchored_groups = st.sampled_from(["(^|/)", "(\\s|$)", "(a|^)", "(b$|n)"])
patterns = st.lists(st.tuples(st.booleans(), st.lists(_atoms | _groups | _groups.map(lambda g: g + "?"),
                                                      max_size=4), st.booleans()),
                    min_size=1, max_size=3).map(
    lambda branches: "|".join("^" * first + "".join(atoms) + "$" * last for first, atoms, last in branches))
anchored = st.tuples(_anchored_groups, st.lists(_atoms | _anchored_groups, max_size=3), _anchored_groups).map(
    lambda parts: parts[0] + "".join(parts[1]) + parts[2])


@settings(max_examples=500, deadline=None)
@given(pattern=patterns, subject=st.text(alphabet="abnx A_.\n", max_size=12), fold=st.booleans())
def test_the_kill_pattern_reader_agrees_with_pythons_reading(pattern, subject, fold):
    _agrees_with_python(pattern, subject, fold)


@settings(max_examples=300, deadline=None)
@given(pattern=anchored, subject=st.text(alphabet="abnx A_./\n", max_size=12), fold=st.booleans())
def test_a_kill_pattern_with_anchors_in_its_groups_is_read_as_python_reads_it_or_asks(pattern, subject, fold):
    try:
        _agrees_with_python(pattern, subject, fold)
    except Unreadable as error:  # an anchor inside the text ("(^|/)(^|/)"): the guard asks
        assert error.code == "unreadable" and ("^" in pattern[1:] or "$" in pattern[:-1]), pattern


def _agrees_with_python(pattern, subject, fold):
    import re

    from passdown.gates._guard_judge import _pattern_hits

    flags = re.ASCII | re.DOTALL | (re.IGNORECASE if fold else 0)
    python = pattern.replace("$", "\\Z")  # POSIX's $ is the end of the text; Python's also before a last \n
    assert _pattern_hits(pattern, subject, False, fold, True) == bool(re.search(python, subject, flags))
    assert _pattern_hits(pattern, subject, True, fold, True) == bool(re.fullmatch(python, subject, flags))


@settings(max_examples=500, deadline=None)
@given(pattern=st.text(alphabet="ab*?", max_size=6) | st.sampled_from(["[ab]*", "a[!b]", "[a-b]?", "*[b]"]),
       name=st.text(alphabet="ab", max_size=6))
def test_the_unit_and_name_glob_agrees_with_fnmatch(pattern, name):
    import fnmatch

    assert glob_match(pattern, name) == fnmatch.fnmatchcase(name, pattern)


@settings(max_examples=500, deadline=None)
@given(text=st.text(max_size=300) | st.text(alphabet="ab ;|&()$`'\"\\#<>-\n=c", max_size=200))
def test_the_shell_reader_reads_or_says_why_it_cannot(text):
    for dialect in ("posix", "powershell", "cmd"):
        try:
            commands = read(text, dialect)
        except Unreadable as error:
            assert error.code in ("unreadable", "too_deep", "too_long") and error.why
        else:
            assert all(isinstance(word, str) for command in commands for word in command.words)
        _check_decision(guard, _guard(text, shell=dialect))
