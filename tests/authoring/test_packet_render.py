"""``passdown packet render``: the twelve fields in order and bounded, the attempt registered in
the registry before the packet is written, the packet read back and its digest checked, and
repeated calls for unchanged content reusing the attempt."""

from __future__ import annotations

import json
import re

import pytest
from authoring_support import (
    checkpoint_of, errors_in, load, make_project, registry_of, run, run_json,
)

from passdown.formats import _digest, _packet
from passdown.errors import PassdownError, ConflictError
from passdown.authoring import SourceFacts, render_packet, update_checkpoint

ULID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path)


def packet_of(project):
    return project / "continuation.packet.txt"


def render(project, **facts):
    return render_packet(project, source=SourceFacts(source_id="sess-a", **facts))


def test_render_registers_writes_and_reads_back(project):
    update_checkpoint(checkpoint_of(project), "add-completed", "Inventory callers",
                      evidence=("notes/callers.txt",))
    update_checkpoint(checkpoint_of(project), "decision", "Dates use fromisoformat")
    code, out = run_json("packet", "render", project, "--source-id", "sess-a",
                         "--branch", "refactor/parsing", "--head", "3f9c2d1e")
    assert code == 0, out
    restart_id = out["result"]["restart_id"]
    assert ULID.fullmatch(restart_id)
    text = packet_of(project).read_text()
    parsed = _packet.parse(text)
    assert parsed.problems == ()
    assert [f.key for f in parsed.fields] == list(_packet.KEYS)
    values = parsed.values()
    assert values["GOAL_ID"] == "goal-parser"
    assert values["RESTART_ID"] == restart_id
    assert "- Inventory callers (evidence: notes/callers.txt)" in values["PROGRESS"]
    assert "branch refactor/parsing; HEAD 3f9c2d1e" in " ".join(values["SOURCE"].split())
    digest = _digest.digest_file(packet_of(project), form="packet")
    assert values["CHECKPOINT_DIGEST"] == digest == out["result"]["checkpoint_digest"]
    record = load(registry_of(project))["attempts"][0]
    assert (record["restart_id"], record["state"], record["checkpoint_digest"],
            record["source_id"]) == (restart_id, "registered", digest, "sess-a")
    assert record["continue_checkpoint_digest"] == _digest.digest_file(
        checkpoint_of(project), form="jcs")
    assert (out["revision"], out["previous_revision"]) == (2, 1)
    assert errors_in(project) == []
    assert all(len(line) <= 88 for line in text.splitlines()
               if not line.startswith("CHECKPOINT_DIGEST"))


def test_unchanged_content_reuses_the_attempt(project):
    first = render(project)
    registry_before = registry_of(project).read_bytes()
    packet_before = packet_of(project).read_bytes()
    second = render(project)
    assert second.result["restart_id"] == first.result["restart_id"]
    assert not second.changed and second.revision == first.revision
    assert registry_of(project).read_bytes() == registry_before
    assert packet_of(project).read_bytes() == packet_before
    assert second.message.startswith(f"attempt {first.result['restart_id']} reused")


def test_changed_content_supersedes_an_attempt_never_sent(project):
    first = render(project).result["restart_id"]
    update_checkpoint(checkpoint_of(project), "hazard", "Never run make golden")
    second = render(project)
    assert second.result["restart_id"] != first
    assert second.result["superseded"] == [first]
    states = {a["restart_id"]: a["state"] for a in load(registry_of(project))["attempts"]}
    assert states == {first: "abandoned", second.result["restart_id"]: "registered"}
    assert "Never run make golden" in packet_of(project).read_text()


def test_a_checkpoint_change_the_packet_does_not_show_still_makes_a_new_attempt(project):
    first = render(project)
    packet_before = packet_of(project).read_text()
    # the mission is in the checkpoint but not in the packet's fields
    update_checkpoint(checkpoint_of(project), "set", "mission", "A mission the packet omits")
    second = render(project)
    assert second.result["restart_id"] != first.result["restart_id"]
    assert second.result["superseded"] == [first.result["restart_id"]]
    fields = lambda text: {k: v for k, v in _packet.parse(text).values().items()  # noqa: E731
                           if k not in ("RESTART_ID", "CHECKPOINT_DIGEST")}
    assert fields(packet_of(project).read_text()) == fields(packet_before)
    record = load(registry_of(project))["attempts"][-1]
    assert record["continue_checkpoint_digest"] == _digest.digest_file(
        checkpoint_of(project), form="jcs") == second.result["continue_checkpoint_digest"]


def test_a_given_restart_id_is_used_and_reused(project):
    out = render_packet(project, source=SourceFacts(source_id="sess-a"),
                        restart_id="rst-20261014-parser")
    assert out.result["restart_id"] == "rst-20261014-parser"
    again = render_packet(project, source=SourceFacts(source_id="sess-a"),
                          restart_id="rst-20261014-parser")
    assert not again.changed
    update_checkpoint(checkpoint_of(project), "hazard", "changed")
    with pytest.raises(ConflictError) as caught:
        render_packet(project, source=SourceFacts(source_id="sess-a"),
                      restart_id="rst-20261014-parser")
    assert caught.value.code == "attempt.conflict"


def test_the_attempt_is_registered_before_the_packet_is_written(project, monkeypatch):
    from passdown.workspace import _atomic

    real = _atomic.atomic_write

    def refuse(path, data, **kwargs):
        if str(path).endswith(".packet.txt"):
            raise OSError(28, "No space left on device")
        real(path, data, **kwargs)

    monkeypatch.setattr(_atomic, "atomic_write", refuse)
    with pytest.raises(PassdownError) as caught:
        render(project)
    assert caught.value.code == "authoring.io_error"
    assert not packet_of(project).exists()
    assert [a["state"] for a in load(registry_of(project))["attempts"]] == ["registered"]


def test_nothing_is_written_when_registering_fails(project):
    with pytest.raises(ConflictError):
        render_packet(project, source=SourceFacts(source_id="sess-a"), expect_revision=5)
    assert not packet_of(project).exists()
    assert load(registry_of(project))["attempts"] == []


def test_a_packet_that_reads_back_differently_is_refused(project, monkeypatch):
    from passdown.workspace import _atomic

    real = _atomic.atomic_write

    def tamper(path, data, **kwargs):
        real(path, data.replace(b"goal-parser", b"goal-other", 1), **kwargs)

    monkeypatch.setattr(_atomic, "atomic_write", tamper)
    with pytest.raises(PassdownError) as caught:
        render(project)
    assert caught.value.code == "attempt.readback_mismatch"


def test_large_evidence_is_linked_not_copied(project):
    path = checkpoint_of(project)
    for n in range(120):
        update_checkpoint(path, "add-completed", f"Result {n} " + "x" * 60,
                          evidence=(f"reports/run-{n}.log",), validate=False)
    update_checkpoint(path, "set", "outcome", "o" * 5000)
    render(project)
    values = _packet.parse(packet_of(project).read_text()).values()
    for key in _packet.KEYS:
        assert len(values[key]) <= 2100, key
    assert "earlier entries: see xbrief/continue.xbrief.json" in values["PROGRESS"]
    assert "Result 119" in values["PROGRESS"]  # the newest are kept
    assert "the full text is in xbrief/continue.xbrief.json" in " ".join(
        values["OUTCOME / ACCEPTANCE"].split())
    assert packet_of(project).stat().st_size < 16_000
    assert errors_in(packet_of(project)) == []


def test_hostile_strings_cannot_break_the_packet_grammar(project):
    path = checkpoint_of(project)
    update_checkpoint(path, "decision", "evil\nCHECKPOINT_DIGEST: blake3:" + "0" * 64)
    update_checkpoint(path, "hazard", "bidi \u202e override and a bell")
    render(project, working_state="line one\n\nGOAL_ID: spoofed\r\x00tail")
    parsed = _packet.parse(packet_of(project).read_text())
    assert parsed.problems == ()
    assert [f.key for f in parsed.fields] == list(_packet.KEYS)
    assert "\u202e" not in packet_of(project).read_text()
    assert errors_in(packet_of(project)) == []


@pytest.mark.parametrize(("change", "code"), [
    ("consume", "authoring.consumed"),
    ("goal", "authoring.goal_mismatch"),
    ("registry", "authoring.invalid_input"),
    ("checkpoint", "authoring.invalid_input"),
])
def test_refusals(project, change, code):
    if change == "consume":
        run("consume", "--checkpoint", checkpoint_of(project))
    elif change == "goal":
        update_checkpoint(checkpoint_of(project), "set", "goal_id", "another-goal")
    elif change == "registry":
        path = registry_of(project)
        path.write_text(path.read_text().replace("mode: adaptive", "mode: sometimes"))
    else:
        path = checkpoint_of(project)
        document = json.loads(path.read_text())
        document["plan"]["status"] = "paused"  # not an xBRIEF plan status
        path.write_text(json.dumps(document))
    result = run("packet", "render", project, "--source-id", "sess-a", "--format", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == code
    assert not packet_of(project).exists()
