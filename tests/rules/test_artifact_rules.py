"""The semantic rules of the checkpoint, packet, registry and ACK: the shared checks they are
built from, cases the invalid examples do not show, and robustness on arbitrary input."""

import copy
import json
from pathlib import Path

import pytest
from authoring_support import members, replaced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passdown._findings import ERROR, WARNING
from passdown.rules import Artifact, all_rules, rules_for
from passdown.rules import _shared
from passdown.rules import checkpoint as checkpoint_rules
from passdown.rules import registry as registry_rules
from passdown.formats import _title as title_form

ROOT = Path(__file__).resolve().parents[2]
HANDOFF = ROOT / "examples" / "handoff"
KINDS = ("checkpoint", "packet", "registry", "ack")


def _load(name):
    from passdown.formats._loading import load_path, syntax_for

    loaded, findings = load_path(str(HANDOFF / name), syntax=syntax_for(name))
    assert findings == []
    return loaded


def _checkpoint():
    return copy.deepcopy(_load("xbrief/continue.xbrief.json").data)


def _hits(kind, data, file=None, text=""):
    artifact = Artifact(kind, file, data, text)
    return sorted((rule.code, tuple(hit.path)) for rule in rules_for(kind)
                  for hit in rule.check(artifact))


def test_every_rule_is_documented_with_a_requirement_summary_and_hint():
    for rule in all_rules():
        if rule.kind not in KINDS:
            continue
        assert rule.severity in (ERROR, WARNING)
        assert rule.requirement and rule.summary and rule.hint, rule.code
        prefix = rule.code.split(".")[0]
        assert prefix in (rule.kind, "version", "member"), rule.code


def test_the_requirements_the_rules_cite_exist_in_the_spec():
    import re

    spec = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "spec").rglob("*.md"))
    defined = set(re.findall(r"^- \*\*([A-Z]{3}-\d{3})\*\*", spec, re.M))
    cited = {r.requirement for r in all_rules() if r.kind in KINDS}
    from passdown.formats._packet import GRAMMAR_CODES

    cited |= {requirement for requirement, _ in GRAMMAR_CODES.values()}
    for name in ("ack", "checkpoint", "defs", "packet", "registry", "xbrief-0.8"):
        text = (ROOT / "schemas" / "v1" / f"{name}.schema.json").read_text(encoding="utf-8")
        cited |= set(re.findall(r'"x-requirement": "([A-Z]{3}-\d{3})"', text))
    assert sorted(cited - defined) == []


def test_every_code_is_documented_in_the_spec():
    spec = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "spec").glob("*.md"))
    from passdown.formats._packet import GRAMMAR_CODES

    codes = {r.code for r in all_rules() if r.kind in KINDS} | set(GRAMMAR_CODES)
    assert sorted(code for code in codes if f"`{code}`" not in spec) == []


# -- versions ------------------------------------------------------------------------------

@pytest.mark.parametrize("version, codes", [
    ("1.0", []),
    ("1.1", ["version.newer_minor"]),
    ("1.10", ["version.newer_minor"]),
    ("0.9", ["version.unsupported_major"]),
    ("2.0", ["version.unsupported_major"]),
    ("1", []),        # not MAJOR.MINOR: the schema's to report
    ("01.0", []),
    (1.0, []),
])
def test_version_rule_for_every_kind(version, codes):
    for kind, data in (("ack", dict(_load("ack.json").data)),
                       ("registry", dict(_load("registry.yaml").data))):
        data["passdown_version"] = version
        found = [code for code, _ in _hits(kind, data) if code.startswith("version.")]
        assert found == codes, kind
    document = _checkpoint()
    document["x-passdown/checkpoint"]["passdown_version"] = version
    found = [(c, p) for c, p in _hits("checkpoint", document) if c.startswith("version.")]
    assert found == [(c, ("x-passdown/checkpoint", "passdown_version")) for c in codes]


def test_a_text_packet_has_no_version_to_check():
    text = (HANDOFF / "continuation.packet.txt").read_text(encoding="utf-8")
    assert _hits("packet", {"passdown_version": "9.0", "kind": "packet"}, "continuation.packet.txt",
                 text) == []


# -- timestamps and digests ----------------------------------------------------------------

@pytest.mark.parametrize("value, problem", [
    ("2026-10-14T09:15:00+02:00", None),
    ("2026-10-14T09:15:00.123456789Z", None),
    ("2026-10-14t09:15:00z", None),
    ("2024-02-29T00:00:00-05:30", None),
    ("2016-12-31T23:59:60Z", "is not a real calendar date and time"),
    ("2026-10-14T09:15:00", "has no offset, so the moment is ambiguous"),
    ("2026-10-14 09:15", "has no offset, so the moment is ambiguous"),
    ("2025-02-29T00:00:00Z", "is not a real calendar date and time"),
    ("2026-10-14T25:00:00Z", "is not a real calendar date and time"),
    ("2026-10-14T09:15:60Z", "is not a real calendar date and time"),
    ("2026-10-14T09:15:00+24:00", "has an offset beyond +/-23:59"),
    ("yesterday", "is not an RFC 3339 date-time"),
    ("9" * 100, "is too long to be a timestamp"),
    (20261014, None),
])
def test_timestamp_problem(value, problem):
    assert _shared.timestamp_problem(value) == problem


def test_timestamp_rules_leave_the_form_to_the_schema():
    document = _checkpoint()
    document["plan"]["items"][0]["completed"] = "2026-10-12T10:05:00"
    document["plan"]["items"][1]["completed"] = "2026-04-31T10:05:00+02:00"
    assert [h for h in _hits("checkpoint", document) if h[0] == "checkpoint.timestamp"] == [
        ("checkpoint.timestamp", ("plan", "items", 1, "completed"))]


def test_timestamps_inside_other_tools_blocks_and_metadata_are_not_checked():
    document = _checkpoint()
    document["x-acme-ci/run"]["created"] = "2026-02-31T00:00:00Z"
    document["plan"]["metadata"] = {"updated": "2026-02-31T00:00:00Z"}
    assert _hits("checkpoint", document) == []


@pytest.mark.parametrize("value, problem", [
    ("blake3:" + "a" * 64, None),
    ("sha256:" + "0" * 64, None),
    ("blake3:" + "A" * 64, "malformed"),
    ("sha256:" + "0" * 65, "malformed"),
    ("md5:0cc175b9c0f1b6a831c399e269772661", "unverifiable"),
    ("sha3-256:" + "0" * 64, "unverifiable"),
    ("not a digest", None),   # outside the grammar: the schema's to report
    (None, None),
])
def test_digest_problem(value, problem):
    found = _shared.digest_problem(value)
    assert (found[0] if found else None) == problem


# -- checkpoint ----------------------------------------------------------------------------

def test_items_are_walked_in_document_order_including_sub_items():
    document = _checkpoint()
    document["plan"]["items"][3]["subItems"] = [{"id": "remove-shim.docs", "title": "t", "status": "pending"}]
    ids = [item.get("id") for _, item in checkpoint_rules.iter_items(document)]
    assert ids == ["inventory", "extract-parser", "migrate-callers", "migrate-callers.importer",
                   "migrate-callers.reports", "migrate-callers.cli", "remove-shim",
                   "remove-shim.docs", "final-check"]


def test_duplicate_ids_are_found_across_nesting_and_sub_items():
    document = _checkpoint()
    document["plan"]["items"][3]["subItems"] = [{"id": "migrate-callers.cli", "title": "t", "status": "pending"}]
    assert _hits("checkpoint", document) == [
        ("checkpoint.duplicate_id", ("plan", "items", 3, "subItems", 0, "id"))]


@pytest.mark.parametrize("change", [
    lambda item: item.update(type="group", items=[]),
    lambda item: item.update(type="task", items=[{"title": "x", "status": "pending"}]),
    lambda item: item.update(type="epic"),
])
def test_auto_needs_a_container_with_children(change):
    document = _checkpoint()
    item = document["plan"]["items"][3]
    item["status"] = "auto"
    change(item)
    assert ("checkpoint.auto_on_leaf", ("plan", "items", 3, "status")) in _hits("checkpoint", document)


def test_a_self_loop_is_a_cycle():
    document = _checkpoint()
    document["plan"]["edges"] = [{"from": "final-check", "to": "final-check", "type": "blocks"}]
    assert _hits("checkpoint", document) == [("checkpoint.edge_cycle", ("plan", "edges", 0))]


def test_a_long_chain_of_edges_is_checked_without_recursion():
    document = _checkpoint()
    chain = [{"id": f"s{n}", "title": "step", "status": "pending"} for n in range(5000)]
    document["plan"]["items"].extend(chain)
    document["plan"]["edges"] = [{"from": f"s{n}", "to": f"s{n + 1}", "type": "blocks"}
                                 for n in range(4999)]
    assert _hits("checkpoint", document) == []
    document["plan"]["edges"].append({"from": "s4999", "to": "s0", "type": "blocks"})
    assert _hits("checkpoint", document) == [("checkpoint.edge_cycle", ("plan", "edges", 4999))]


def test_without_a_next_action_the_first_pending_item_needs_the_resume_point():
    document = _checkpoint()
    del document["x-passdown/checkpoint"]["next_action"]
    assert _hits("checkpoint", document) == []
    document["plan"]["items"][2]["items"].insert(0, {"id": "early", "title": "t", "status": "pending"})
    assert _hits("checkpoint", document) == [
        ("checkpoint.resume_point_missing", ("plan", "items", 2, "items", 0))]


@pytest.mark.parametrize("name, flagged", [
    ("continue.xbrief.json", False),
    ("xbrief/continue.xbrief.json", False),
    ("vbrief/continue.vbrief.json", False),
    ("continue-01JA2K8Q4ZP6N3V9.json", True),
    ("C:\\work\\xbrief\\continue_2.xbrief.json", True),
    ("continue.2026-10-14.json", True),
    ("checkpoint.json", False),
    (None, False),
])
def test_the_file_name_is_singular(name, flagged):
    codes = [code for code, _ in _hits("checkpoint", _checkpoint(), name)]
    assert ("checkpoint.file_name" in codes) is flagged


def test_a_legacy_file_is_known_by_name_by_content_or_by_the_loader():
    document = _checkpoint()
    assert [c for c, _ in _hits("checkpoint", document, "vbrief/continue.vbrief.json")] == [
        "checkpoint.legacy_vbrief"]
    legacy = Artifact("checkpoint", None, document, "", legacy=True)
    rule = next(r for r in rules_for("checkpoint") if r.code == "checkpoint.legacy_vbrief")
    assert len(list(rule.check(legacy))) == 1


def test_the_legacy_warning_names_the_version_or_the_name():
    rule = next(r for r in rules_for("checkpoint") if r.code == "checkpoint.legacy_vbrief")
    current = Artifact("checkpoint", "vbrief/continue.vbrief.json", _checkpoint(), "", legacy=True)
    [hit] = rule.check(current)
    assert "legacy vBRIEF file name" in hit.message and "move the checkpoint" in hit.hint
    todo = {"xBRIEFInfo": {"version": "0.4"}, "todoList": {"items": []}}
    [hit] = rule.check(Artifact("checkpoint", None, todo, "", legacy=True))
    assert (hit.path, hit.hint) == (("xBRIEFInfo",), None)
    assert hit.message == ("this is a legacy xBRIEF 0.4 checkpoint with a `todoList` root, read "
                           "until it is migrated to xBRIEF 0.8")
    assert "passdown migrate" in rule.hint


def test_a_consumed_checkpoint_is_reported_once():
    document = _checkpoint()
    document["x-passdown/checkpoint"]["consumed_at"] = "2026-10-14T10:00:00+02:00"
    assert _hits("checkpoint", document) == [("checkpoint.consumed", ("x-passdown/checkpoint", "consumed_at"))]
    document["x-passdown/checkpoint"]["consumed_at"] = None
    document["plan"]["status"] = "completed"
    assert _hits("checkpoint", document) == [("checkpoint.consumed", ("plan", "status"))]


def test_secrets_in_other_tools_blocks_are_not_read():
    document = _checkpoint()
    document["x-acme-ci/run"]["token"] = "ghp_" + "a1B2" * 9
    assert _hits("checkpoint", document) == []
    document["plan"]["narratives"]["Hazards"] += " Cookie: sid=abcdef0123456789"
    assert _hits("checkpoint", document) == [("checkpoint.secret", ("plan", "narratives", "Hazards"))]


# -- registry ------------------------------------------------------------------------------

def _registry():
    return copy.deepcopy(_load("registry.yaml").data)


@pytest.mark.parametrize("started_at, zone, title", [
    ("2026-09-05T23:30:00Z", "Europe/Warsaw", "T | started 06-09"),
    ("2026-09-05T23:30:00Z", "UTC", "T | started 05-09"),
    ("2026-09-06T01:30:00+02:00", "America/New_York", "T | started 05-09"),
    ("2026-12-31T23:59:59-10:00", "Asia/Tokyo", "T | started 01-01"),
])
def test_format_title_uses_the_zone(started_at, zone, title):
    assert registry_rules.format_title("T", started_at, zone) == title


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd", "", "Europe/Warsaw\x00", "a" * 300])
def test_unknown_zones_are_none(zone):
    assert title_form.zone(zone) is None
    assert registry_rules.format_title("T", "2026-01-01T00:00:00Z", zone) is None


def test_a_zone_name_in_another_letter_case_is_unknown_even_where_the_database_opens_it(monkeypatch):
    """REG-022 matches names exactly: on a file system that ignores letter case ZoneInfo opens
    EUROPE/WARSAW, which this stands in for; the registry still refuses it."""
    import zoneinfo

    real = zoneinfo.ZoneInfo

    def open_ignoring_case(name):
        return real("Europe/Warsaw" if name.lower() == "europe/warsaw" else name)

    monkeypatch.setattr(zoneinfo, "ZoneInfo", open_ignoring_case)
    document = _registry()
    document["policy"]["timezone"] = "EUROPE/WARSAW"
    assert title_form.zone("EUROPE/WARSAW") is not None
    assert ("registry.timezone", ("policy", "timezone")) in _hits("registry", document)
    document["policy"]["timezone"] = "Europe/Warsaw"
    assert "registry.timezone" not in {code for code, _ in _hits("registry", document)}


def test_utc_needs_no_time_zone_database(monkeypatch):
    import zoneinfo

    def refuse(name):
        raise zoneinfo.ZoneInfoNotFoundError(name)

    monkeypatch.setattr(zoneinfo, "ZoneInfo", refuse)
    assert registry_rules.format_title("T", "2026-09-05T23:30:00Z", "UTC") == "T | started 05-09"


def test_a_title_base_with_a_started_suffix_is_reported():
    data = _registry()
    data["titles"][0]["title_base"] = "Ledger parser refactor | started 12-10"
    assert _hits("registry", data) == [("registry.display_title", ("titles", 0, "title_base"))]


def test_session_rows_use_the_policy_zone():
    data = _registry()
    data["sessions"][1]["display_title"] = "Ledger parser refactor | started 11-10"
    assert _hits("registry", data) == [("registry.display_title", ("sessions", 1, "display_title"))]


@pytest.mark.parametrize("state, change, codes", [
    ("registered", lambda a: a.update(target_id=None, ack=None,
                                      creation={"status": "not_sent", "receipt": None}), []),
    ("created", lambda a: a.update(ack=None), []),
    ("created", lambda a: a["ack"].update(matches=False), []),
    ("abandoned", lambda a: None, []),
    ("taken_over", lambda a: None, ["registry.attempt_state", "registry.takeover_before_commit"]),
    ("completed", lambda a: a["archive"].update(status="ARCHIVED"),
     ["registry.archive_before_takeover", "registry.attempt_state"]),
])
def test_attempt_states(state, change, codes):
    data = _registry()
    attempt = data["attempts"][1]
    attempt["state"] = state
    change(attempt)
    if state == "taken_over":
        attempt["takeover"] = {"readback_at": "2026-10-14T09:18:00+02:00", "verified": True}
    assert sorted({code for code, _ in _hits("registry", data)}) == codes


def test_a_later_commit_must_raise_the_epoch_even_when_equal():
    data = _registry()
    attempt = data["attempts"][1]
    attempt["state"] = "committed"
    attempt["ownership"] = {"committed_at": "2026-10-14T09:17:00+02:00", "fencing_epoch": 4,
                            "from_id": attempt["source_id"], "to_id": attempt["target_id"]}
    assert _hits("registry", data) == [
        ("registry.fencing_regressed", ("attempts", 1, "ownership", "fencing_epoch"))]


# -- ack -----------------------------------------------------------------------------------

@pytest.mark.parametrize("path, ok", [
    ("src/app.py", True), ("a/b/c.txt", True), (".github/workflows/ci.yml", True),
    ("/etc/passwd", False), ("a/../b", False), ("a//b", False), ("./a", False),
    ("a\\b", False), ("C:/x", False), ("a/", False),
])
def test_dirty_paths_are_clean_relative_paths(path, ok):
    data = copy.deepcopy(_load("ack.json").data)
    data["dirty_artifacts"][0]["path"] = path
    assert (_hits("ack", data) == []) is ok


# -- robustness ----------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=30,
)


_EXAMPLES = {
    "checkpoint": ("xbrief/continue.xbrief.json", "continue.xbrief.json"),
    "registry": ("registry.yaml", "registry.yaml"),
    "ack": ("ack.json", "ack.json"),
}


@st.composite
def _mutated(draw, kind):
    base = _load(_EXAMPLES[kind][0]).data
    paths = list(members(base))
    path = draw(st.sampled_from(paths))
    return replaced(base, path, draw(json_values))


def _run_all(kind, data, text="", file=None):
    artifact = Artifact(kind, file, data, text)
    for rule in rules_for(kind):
        for hit in rule.check(artifact):
            assert isinstance(hit.message, str) and hit.message
            assert isinstance(hit.path, tuple)


@pytest.mark.parametrize("kind", sorted(_EXAMPLES))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_rules_never_raise_on_arbitrary_json(kind, data):
    _run_all(kind, data.draw(json_values))
    _run_all(kind, data.draw(_mutated(kind)), file=data.draw(st.none() | st.text(max_size=30)))


@settings(max_examples=150)
@given(json_values, st.text(max_size=300))
def test_packet_rules_never_raise_on_arbitrary_input(value, text):
    _run_all("packet", value, text)
    _run_all("packet", value, "{" + text)
    _run_all("packet", {"kind": "packet", "checkpoint_digest": text, "goal_id": value}, "{}")


@settings(max_examples=60)
@given(st.lists(st.sampled_from(["GOAL_ID: ", "  ", "\n", "ghp_", "x" * 40, "CHECKPOINT_DIGEST: ",
                                 "blake3:", "RESTART_ID: ", "\r", "\u202e", "NOTES: "]), max_size=40))
def test_packet_rules_never_raise_on_packet_like_text(pieces):
    text = "".join(pieces)
    _run_all("packet", None, text)


def test_the_rules_handle_a_deeply_nested_document():
    deep = current = {}
    for _ in range(60):
        current["items"] = [{"title": "t", "status": "pending"}]
        current = current["items"][0]
    document = _checkpoint()
    document["plan"]["items"].append(deep["items"][0])
    _run_all("checkpoint", document)
    json.dumps(document)  # still a plain JSON value
