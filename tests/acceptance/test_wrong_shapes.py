"""Every command that reads an artifact, fed checkpoints and registries whose members have
every wrong JSON type: a result or a coded refusal with the documented exit status, never a
traceback, and a refusal leaves every file as it was (spec/authoring.md, AUT-076). A document
that is not an object gets the same refusal, ``authoring.not_an_object`` (exit 1), from every
authoring command that reads it.

The commands run in-process through click's runner with ``catch_exceptions=False``: a
traceback fails the test."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path

import pytest
from authoring_support import members, replaced, run, run_json
from git_support import new_checkout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from passdown.authoring import Identity, Policy, init

#: One value of every JSON type.
WRONG = {"null": None, "boolean": True, "integer": 42, "number": 1.5, "string": "x",
         "array": [], "object": {}}
CHECKPOINT = "xbrief/continue.xbrief.json"
REGISTRY = "registry.yaml"
ACK = ("ack", "verify", "ack.json", "--packet", "continuation.packet.txt", "--registry",
       REGISTRY, "--workspace", ".")
READS_CHECKPOINT = [
    ("checkpoint", "show"),
    ("checkpoint", "add-completed", "Write the parser", "--evidence", "commit 1"),
    ("checkpoint", "add-completed", "Another step", "--evidence", "commit 2"),
    ("checkpoint", "add-pending", "A later step"),
    ("checkpoint", "add-pending", "A child step", "--parent", "write-the-parser"),
    ("checkpoint", "reorder", "write-the-parser"),
    ("checkpoint", "set-resume", "Start from the tests", "--input", "notes.md"),
    ("checkpoint", "decision", "Keep the old API"),
    ("checkpoint", "hazard", "The fixtures are large"),
    ("checkpoint", "blocker", "Waiting for review"),
    ("checkpoint", "blocker", "Waiting for review", "--resolve"),
    ("checkpoint", "failed-attempt", "Regex parser", "--reason", "too slow"),
    ("checkpoint", "set", "mission", "A new mission"),
    ("checkpoint", "set", "constraints", "one", "two"),
    ("checkpoint", "set", "--json", "next_action",
     '{"item_id": "write-the-parser", "summary": "go", "required_inputs": []}'),
    ("checkpoint", "reopen"),
    ("consume",),
    ("packet", "render", "--source-id", "sess-a"),
    ("ack", "write", "--target-id", "sess-b"),
    ("registry", "recover"),
]
READS_REGISTRY = [
    ("attempt", "show"),
    ("attempt", "show", "r1"),
    ("attempt", "created", "r1", "--target-id", "sess-b"),
    ("attempt", "created", "r1", "--unknown"),
    ("attempt", "reconcile", "r1", "--absent"),
    ("attempt", "ack", "r1", "ack.json"),
    ("attempt", "commit", "r1"),
    ("attempt", "takeover", "r1", "--target-id", "sess-b", "--fencing-epoch", "1"),
    ("attempt", "release", "r1"),
    ("attempt", "archive", "r1", "--result", "pending"),
    ("attempt", "abandon", "r1", "--note", "stop"),
    ("packet", "render", "--source-id", "sess-a"),
    ("ack", "write", "--target-id", "sess-b"),
]
CODE = re.compile(r"^[a-z_]+(\.[a-z_]+)*$")


@pytest.fixture(scope="module")
def handoff(tmp_path_factory):
    """A handoff in a git checkout, its attempt ``r1`` created, with uncommitted work and the
    target's ACK: the files every command below reads."""
    folder = new_checkout(tmp_path_factory.mktemp("shapes") / "repo", {"app.py": "print(1)\n"})
    init(folder, Identity(goal_id="goal-shapes", main_id="sess-a", outcome="the parser works",
                          first_step="Write the parser"),
         Policy(mode="adaptive", authorization_scope="restarts of MAIN", archive_consent=True))
    (folder / "app.py").write_text("print(2)\n")
    with contextlib.chdir(folder):
        for args in (("checkpoint", "add-pending", "Test the parser"),
                     ("checkpoint", "blocker", "Waiting for review"),
                     ("checkpoint", "failed-attempt", "Regex parser", "--reason", "too slow"),
                     ("packet", "render", "--source-id", "sess-a", "--restart-id", "r1"),
                     ("attempt", "created", "r1", "--target-id", "sess-b"),
                     ("ack", "write", "--target-id", "sess-b")):
            assert run_json(*args)[0] == 0, args
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*")
            if path.is_file() and ".git" not in path.parts and ".passdown" not in path.parts}


def restore(folder: Path, files: dict[str, bytes]) -> None:
    for path in list(folder.rglob("*")):
        relative = str(path.relative_to(folder))
        if path.is_file() and ".git" not in path.parts and ".passdown" not in path.parts \
                and relative not in files:
            path.unlink()
    for relative, data in files.items():
        (folder / relative).write_bytes(data)


def type_of(value) -> str:
    for name, sample in WRONG.items():
        if type(value) is type(sample) and not (name == "number" and isinstance(value, bool)):
            return name
    return "other"


def load(folder: Path, relative: str):
    text = (folder / relative).read_text()
    return json.loads(text) if relative.endswith(".json") else YAML(typ="safe").load(text)


def write(folder: Path, relative: str, document) -> None:
    (folder / relative).write_text(json.dumps(document))  # JSON is YAML too


def invoke(folder: Path, args: tuple) -> tuple[int, dict | None]:
    """Run ``passdown ARGS`` in ``folder``: the exit status and the JSON result (None for the
    commands without ``--format json``)."""
    with contextlib.chdir(folder), moved_registry(folder, args):
        if args[0] == "ack" and args[1] == "verify":
            result = run(*args, "--format", "json")
            return result.exit_code, json.loads(result.stdout)
        return run_json(*args)


@contextlib.contextmanager
def moved_registry(folder: Path, args: tuple):
    """``registry recover`` rebuilds a lost registry: take it away for that command."""
    if args[:2] != ("registry", "recover"):
        yield
        return
    kept = (folder / REGISTRY).read_bytes()
    (folder / REGISTRY).unlink()
    try:
        yield
    finally:
        (folder / REGISTRY).write_bytes(kept)


def check_answer(folder: Path, before: dict[str, bytes], args: tuple, code: int, out: dict):
    assert code in (0, 1, 2), (args, code, out)
    if args[:2] == ("ack", "verify"):
        assert out["outcome"] in ("accepted", "rejected", "unusable"), out
        assert all(CODE.match(c) for c in out["codes"]), out
        return
    if code == 0:
        assert out["ok"] is True
        return
    error = out["error"]
    assert CODE.match(error["code"]) and error["code"] not in ("error", "rule.crashed"), out
    assert error["message"] and error["hint"], out
    moved = {k: v for k, v in before.items() if k != REGISTRY} \
        if args[:2] == ("registry", "recover") else before
    now = snapshot(folder)
    assert {k: now.get(k) for k in moved} == moved, f"{args} refused ({error['code']}) but wrote"


@pytest.mark.parametrize("relative, commands", [(CHECKPOINT, READS_CHECKPOINT),
                                                (REGISTRY, READS_REGISTRY)],
                         ids=["checkpoint", "registry"])
@pytest.mark.parametrize("shape", ["null", "boolean", "integer", "number", "string", "array"])
def test_a_document_that_is_not_an_object_gets_one_refusal_from_every_command(
        handoff, relative, commands, shape):
    original = snapshot(handoff)
    try:
        write(handoff, relative, WRONG[shape])
        broken = snapshot(handoff)
        for args in commands:
            code, out = invoke(handoff, args)
            assert (code, out["error"]["code"]) == (1, "authoring.not_an_object"), (args, out)
            restore(handoff, broken)
        code, out = invoke(handoff, ACK)
        assert (code, out["outcome"], out["codes"]) == (2, "unusable", ["ack.input_invalid"])
    finally:
        restore(handoff, original)


@pytest.mark.parametrize("args", [("checkpoint", "show"), ("checkpoint", "blocker", "x"),
                                  ("packet", "render", "--source-id", "sess-a")],
                         ids=lambda args: " ".join(args[:2]))
def test_a_member_of_the_wrong_type_is_a_coded_refusal(handoff, args):
    original = snapshot(handoff)
    try:
        document = load(handoff, CHECKPOINT)
        document["x-passdown/checkpoint"]["blockers"] = 3
        write(handoff, CHECKPOINT, document)
        broken = snapshot(handoff)
        code, out = invoke(handoff, args)
        expected = "authoring.invalid_input" if args[0] == "packet" else "authoring.bad_shape"
        assert (code, out["error"]["code"]) == (1, expected)
        assert "schema.type" in out["error"]["message"]
        assert snapshot(handoff) == broken
    finally:
        restore(handoff, original)


def _wrong_member(draw, folder: Path, relative: str):
    document = load(folder, relative)
    path = draw(st.sampled_from(list(members(document))), label="member")
    node = document
    for part in path:
        node = node[part]
    shape = draw(st.sampled_from([name for name in WRONG if name != type_of(node)]), label="type")
    return replaced(document, path, WRONG[shape])


@pytest.mark.parametrize("relative, commands", [(CHECKPOINT, READS_CHECKPOINT),
                                                (REGISTRY, READS_REGISTRY)],
                         ids=["checkpoint", "registry"])
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_command_answers_every_wrong_member_type(handoff, relative, commands, data):
    original = snapshot(handoff)
    try:
        write(handoff, relative, _wrong_member(data.draw, handoff, relative))
        args = data.draw(st.sampled_from([*commands, ACK]), label="command")
        before = snapshot(handoff)
        check_answer(handoff, before, args, *invoke(handoff, args))
    finally:
        restore(handoff, original)


def test_the_fixture_is_a_working_handoff(handoff):
    code, out = invoke(handoff, ACK)
    assert (code, out["outcome"]) == (0, "accepted"), out
