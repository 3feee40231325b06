"""Cross-file rules of a handoff folder (rules/crossfile.py), run by ``passdown validate DIR``."""

import json
from pathlib import Path

import pytest
from blake3 import blake3

from passdown.formats import _ackcheck, _packet
from passdown import validate_paths

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "handoff"
RESTART_ID = "rst-20261014-0915-parser"
CROSSFILE_CODES = {"crossfile.goal_mismatch", "crossfile.unknown_attempt", "crossfile.packet_digest",
                   "crossfile.no_registry",
                   "crossfile.registry_digest", "crossfile.checkpoint_changed", *_ackcheck.FOLDER_CODES}


def b3(data: bytes) -> str:
    return "blake3:" + blake3(data).hexdigest()


def found(*paths):
    """``{(code, file name, json path)}`` of the cross-file findings of ``validate_paths``."""
    report = validate_paths([str(path) for path in paths])
    return {(f.code, Path(f.file).name, f.json_path) for f in report.findings if f.code in CROSSFILE_CODES}


@pytest.fixture
def folder(example_handoff):
    return example_handoff


def _replace(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_the_example_carries_true_digests():
    packet = (EXAMPLE / "continuation.packet.txt").read_text()
    body, _, digest_line = packet.rstrip("\n").rpartition("\n")
    assert digest_line.startswith("CHECKPOINT_DIGEST: ")  # the last line: the rest is the canonical text
    digest = b3((body + "\n").encode())
    assert digest_line == f"CHECKPOINT_DIGEST: {digest}"
    assert json.loads((EXAMPLE / "ack.json").read_text())["checkpoint_digest"] == digest
    assert f"restart_id: {RESTART_ID}\n    state: acknowledged\n    checkpoint_digest: {digest}\n" in \
        (EXAMPLE / "registry.yaml").read_text()


def test_the_example_folder_passes_every_cross_file_rule():
    assert found(EXAMPLE) == set()


def test_an_edited_packet_is_caught_on_the_packet_the_registry_and_the_ack(folder):
    _replace(folder / "continuation.packet.txt", "Blockers: none.", "Blockers: one.")
    assert found(folder) == {
        ("crossfile.packet_digest", "continuation.packet.txt", "$.checkpoint_digest"),
        ("crossfile.registry_digest", "registry.yaml", "$.attempts[1].checkpoint_digest"),
        ("ack.digest_mismatch", "ack.json", "$.checkpoint_digest"),
    }


def test_line_endings_and_trailing_blanks_are_not_edits(folder):
    path = folder / "continuation.packet.txt"
    path.write_bytes(path.read_bytes().replace(b"\n", b"  \r\n") + b"\r\n\r\n")
    assert found(folder) == set()


def test_a_goal_that_disagrees_is_caught(folder):
    _replace(folder / "registry.yaml", "  goal_id: goal-ledger-parser-refactor", "  goal_id: goal-other")
    assert found(folder) == {
        ("crossfile.goal_mismatch", "registry.yaml", "$.policy.goal_id"),
        ("ack.goal_mismatch", "ack.json", "$.goal_id"),
    }


def test_a_packet_naming_no_registered_attempt_is_caught(folder):
    _replace(folder / "continuation.packet.txt", f"RESTART_ID: {RESTART_ID}", "RESTART_ID: rst-unknown")
    result = found(folder)
    assert ("crossfile.unknown_attempt", "continuation.packet.txt", "$.restart_id") in result
    assert ("ack.restart_mismatch", "ack.json", "$.restart_id") in result


def test_a_changed_continue_checkpoint_is_caught_when_its_digest_was_registered(folder):
    checkpoint = folder / "xbrief" / "continue.xbrief.json"
    registered = b3(json.dumps(json.loads(checkpoint.read_text()), sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False).encode())  # JCS equals sorted compact JSON for this document
    assert f"continue_checkpoint_digest: {registered}" in (folder / "registry.yaml").read_text()
    assert found(folder) == set()
    _replace(checkpoint, '"revision": 7', '"revision": 8')
    assert found(folder) == {("crossfile.checkpoint_changed", "registry.yaml", "$.attempts[1].continue_checkpoint_digest")}


def test_a_stale_ack_is_caught_without_a_workspace(folder):
    _replace(folder / "ack.json", "2026-10-14T09:16:02+02:00", "2026-10-14T09:13:00+02:00")
    assert found(folder) == {("ack.stale", "ack.json", "$.read_at")}


def test_fingerprints_are_not_compared_in_a_folder_check(folder):
    _replace(folder / "ack.json", "3f9c2d1e8b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d", "0" * 40)
    assert found(folder) == set()


def test_a_folder_without_registry_or_ack_checks_what_it_can(folder):
    (folder / "registry.yaml").unlink()
    (folder / "ack.json").unlink()
    missing = ("crossfile.no_registry", "continuation.packet.txt", "$.restart_id")
    assert found(folder) == {missing}
    _replace(folder / "continuation.packet.txt", "Blockers: none.", "Blockers: one.")
    assert found(folder) == {missing, ("crossfile.packet_digest", "continuation.packet.txt", "$.checkpoint_digest")}


def test_a_packet_without_its_registry_says_how_to_recover_it(folder):
    (folder / "registry.yaml").unlink()
    report = validate_paths([str(folder / "continuation.packet.txt")])
    [finding] = [f for f in report.findings if f.code == "crossfile.no_registry"]
    assert finding.is_error and finding.requirement == "DIG-059"
    assert "`passdown registry recover`" in finding.hint
    assert report.exit_code() == 1


@pytest.mark.parametrize("named", [["xbrief/continue.xbrief.json"], ["registry.yaml"], ["ack.json"],
                                   ["continuation.packet.txt", "xbrief/continue.xbrief.json"]])
def test_named_files_get_their_folders_cross_file_rules(folder, named, monkeypatch):
    _replace(folder / "xbrief" / "continue.xbrief.json", '"goal_id": "goal-ledger-parser-refactor"',
             '"goal_id": "goal-other"')
    whole = found(folder)
    assert ("crossfile.goal_mismatch", "registry.yaml", "$.policy.goal_id") in whole
    assert found(*(folder / name for name in named)) == whole
    monkeypatch.chdir(folder / "xbrief")  # named from inside the checkpoint's own folder
    assert found("continue.xbrief.json") == whole


def test_of_a_file_not_named_only_cross_file_and_loading_findings_are_reported(folder):
    _replace(folder / "registry.yaml", "mode: adaptive", "mode: sometimes")  # a schema error
    report = validate_paths([str(folder / "xbrief" / "continue.xbrief.json")])
    assert not [f for f in report.findings if f.file.endswith("registry.yaml")]
    (folder / "registry.yaml").write_bytes(b"\xef\xbb\xbf" + (folder / "registry.yaml").read_bytes())
    report = validate_paths([str(folder / "xbrief" / "continue.xbrief.json")])
    assert [(Path(f.file).name, f.code) for f in report.findings if f.is_error] == [
        ("continuation.packet.txt", "crossfile.no_registry"), ("registry.yaml", "load.bom")]
    assert report.unreadable == ()  # the named file was read


@pytest.mark.parametrize("state", ["committed", "taken_over", "completed", "abandoned"])
def test_after_the_commit_the_checkpoint_is_the_new_owners_to_change(folder, state):
    checkpoint = folder / "xbrief" / "continue.xbrief.json"
    _replace(checkpoint, '"revision": 7', '"revision": 8')
    assert ("crossfile.checkpoint_changed", "registry.yaml",
            "$.attempts[1].continue_checkpoint_digest") in found(folder)
    _replace(folder / "registry.yaml", "    state: acknowledged\n", f"    state: {state}\n")
    assert not {row for row in found(folder) if row[0] in ("crossfile.checkpoint_changed", "ack.stale",
                                                          "ack.checkpoint_changed")}


def _plain(folder):
    path = folder / "xbrief" / "continue.xbrief.json"
    document = json.loads(path.read_text())
    del document["x-passdown/checkpoint"]
    path.write_text(json.dumps(document, indent=2))


def test_a_plain_checkpoint_beside_the_restart_machinery_needs_the_block(folder):
    _plain(folder)
    report = validate_paths([str(folder)])
    plain = [f for f in report.findings if f.code == "crossfile.checkpoint_plain"]
    assert [(Path(f.file).name, f.json_path, f.severity) for f in plain] == [
        ("continue.xbrief.json", '$["x-passdown/checkpoint"]', "error")]
    assert plain[0].message == (
        "the checkpoint is a plain xBRIEF continue checkpoint, but a packet and a registry beside "
        "it use the restart machinery, which reads the session identity from its "
        "x-passdown/checkpoint block")
    (folder / "continuation.packet.txt").unlink()
    [alone] = [f for f in validate_paths([str(folder)]).findings
               if f.code == "crossfile.checkpoint_plain"]
    assert alone.message == (
        "the checkpoint is a plain xBRIEF continue checkpoint, but a registry beside it uses the "
        "restart machinery, which reads the session identity from its x-passdown/checkpoint block")


def test_the_plain_finding_names_the_one_command_that_adds_the_block(folder):
    """CKP-036: beside a registry the hint is `passdown init --outcome TEXT`, which takes the
    identity from the registry; with a packet alone it needs the identity options too."""
    _plain(folder)

    def hint():
        [found] = [f for f in validate_paths([str(folder)]).findings
                   if f.code == "crossfile.checkpoint_plain"]
        return found.hint

    assert hint() == (
        "run `passdown init --outcome TEXT` in the handoff folder (TEXT: what must be delivered "
        "and how it is checked): it adds the x-passdown/checkpoint block with the goal, the "
        "session and the fencing epoch the registry records, keeps every item, and leaves the "
        "registry as it is")
    (folder / "registry.yaml").unlink()
    assert hint() == (
        "run `passdown init --outcome TEXT --goal-id ID --main-id ID` in the handoff folder: it "
        "adds the x-passdown/checkpoint block, keeps every item and creates the registry; the "
        "packet's attempt is not in that registry, so render a new packet (`passdown packet "
        "render`) before handing over")


def test_a_plain_checkpoint_alone_is_valid(folder, tmp_path):
    alone = tmp_path / "alone"
    (alone / "xbrief").mkdir(parents=True)
    (alone / "xbrief" / "continue.xbrief.json").write_bytes(
        (folder / "xbrief" / "continue.xbrief.json").read_bytes())
    _plain(alone)
    assert validate_paths([str(alone)]).findings == ()


#: Breakages of one file of the example folder, each caught by cross-file rules.
BREAKAGES = {
    "packet edited": ("continuation.packet.txt", "Blockers: none.", "Blockers: one."),
    "packet without its goal": ("continuation.packet.txt", "GOAL_ID: goal-ledger-parser-refactor\n", ""),
    "packet naming another attempt": ("continuation.packet.txt", f"RESTART_ID: {RESTART_ID}",
                                      "RESTART_ID: rst-other"),
    "checkpoint goal": ("xbrief/continue.xbrief.json", '"goal_id": "goal-ledger-parser-refactor"',
                        '"goal_id": "goal-other"'),
    "checkpoint changed": ("xbrief/continue.xbrief.json", '"revision": 7', '"revision": 8'),
    "registry goal": ("registry.yaml", "  goal_id: goal-ledger-parser-refactor\n  checkpoint_path",
                      "  goal_id: goal-other\n  checkpoint_path"),
    "ack of another attempt": ("ack.json", f'"restart_id": "{RESTART_ID}"', '"restart_id": "rst-other"'),
}


def _crossfile_rows(report):
    return sorted((f.code, Path(f.file).name, f.json_path, f.line) for f in report.findings
                  if f.code in CROSSFILE_CODES or f.code.startswith("crossfile."))


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_one_named_checkpoint_gets_the_walks_cross_file_findings_and_lines(folder, breakage):
    """The folder's other files are read only as far as the cross-file rules need (the
    packet's text, not its projection), and the findings, with their lines, are the walk's."""
    name, old, new = BREAKAGES[breakage]
    _replace(folder / name, old, new)
    whole = _crossfile_rows(validate_paths([str(folder)]))
    assert whole
    assert _crossfile_rows(validate_paths([str(folder / "xbrief" / "continue.xbrief.json")])) == whole


def test_a_packet_beside_a_named_checkpoint_is_read_for_the_rules_only(folder, monkeypatch):
    """Its grammar's projection (the packet's own checks) is not made: the rules parse its
    text, as they do in a folder walk, which checks the packet too."""
    parsed, projected = [], []
    real_parse, real_projection = _packet.parse, _packet.projection
    monkeypatch.setattr(_packet, "parse", lambda text: parsed.append(1) or real_parse(text))
    monkeypatch.setattr(_packet, "projection", lambda value: projected.append(1) or real_projection(value))
    assert validate_paths([str(folder / "xbrief" / "continue.xbrief.json")]).findings == ()
    named = (len(parsed), len(projected))
    parsed.clear()
    projected.clear()
    assert validate_paths([str(folder)]).findings == ()
    assert named == (len(parsed) - 1, 0) and len(projected) == 1
