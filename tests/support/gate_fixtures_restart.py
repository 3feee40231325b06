"""The restart and title conformance cases: inputs chosen by hand, expected answers computed
by the independent oracles of the reference notes (never by the gates under test); where a
published helper crashes, the deliberate answer the spec states (``published_helpers_model``)."""

import json

import published_helpers_model as published
from gate_cases import README, case, padded

CONFIRMED = {**README, "creation_status": "confirmed", "target_id": "target", "ack_matches": True}
COMMITTED = {
    **CONFIRMED, "ownership_committed": True, "target_takeover_readback": True,
    "source_retired_readback": True, "archive_authorized": True, "archive_supported": True,
}
# Unmeasured, untriggered: the compaction count is the README example's only trigger.
QUIET = {**README, "compactions": 1}
MISSING = object()


def change(base, **changes):
    """``base`` with members changed; ``MISSING`` removes one."""
    result = dict(base)
    for key, value in changes.items():
        if value is MISSING:
            result.pop(key, None)
        else:
            result[key] = value
    return result


def _requirements(listed, output, exit_code):
    extra = ["RST-050", "RST-052" if "assessment" in output else "RST-051"]
    if exit_code == 2:
        extra.append("RST-053")
    return list(dict.fromkeys(listed + extra))


def _answered(gate, ident, description, requirements, value, text, raw):
    """One case of a byte-compatible gate, its answer (and printed line) from the helper's
    oracle, or, where the helper crashes, the deliberate answer of the requirement the case
    names."""
    if value is not MISSING:
        answer = published.answer_value(gate, value)
        given, kind = value, "input"
    elif text is not None:
        answer = published.answer(gate, text.encode("utf-8"))
        given, kind = text, "input_text"
    else:
        answer = published.answer(gate, raw)
        given, kind = raw, "input_base64"
    if answer.crash is not None:
        assert published.difference(gate, answer.crash) in requirements, (ident, answer.crash, requirements)
    stdout, exit_code = published.resolve(gate, answer)
    output = json.loads(stdout)
    if gate == "restart":
        requirements = _requirements(requirements, output, exit_code)
    return case(gate, ident, description, requirements, given, output, exit_code, stdout, kind=kind)


def restart_case(ident, description, requirements, value=MISSING, *, text=None, raw=None):
    """One case; exactly one of ``value`` (a JSON value), ``text`` or ``raw`` (bytes)."""
    return _answered("restart", ident, description, requirements, value, text, raw)


#: The tag that puts a case in the python-helper-compat profile instead of its gate's.
COMPAT = "python_helper_compat"


def compat(built):
    """A case of the python-helper-compat profile (spec/conformance.md, Profiles)."""
    return {**built, "tags": [COMPAT]}


def _file(gate, description, cases):
    return {"gate": gate, "description": description, "cases": cases}


def restart_files():
    r = restart_case
    files = {}
    files["input"] = _file("restart", "reading the input: size bound, encoding, JSON, NaN literals, repeated keys, nesting", [
        r("input.empty", "empty input is not an observation object", ["RST-002"], raw=b""),
        r("input.not_json", "text that is not JSON is blocked as invalid input", ["RST-002"], text="schema: 1"),
        r("input.array", "a JSON array is not an observation object", ["RST-002"], []),
        r("input.string", "a JSON string is not an observation object", ["RST-002"], "observations"),
        r("input.null", "a JSON null is not an observation object", ["RST-002"], None),
        r("input.invalid_utf8", "bytes that are not UTF-8 are blocked as invalid input", ["RST-002", "RST-006"],
          raw=b'{"schema": 1, "source_id": "\xff"}'),
        r("input.bom", "a UTF-8 byte order mark before the object is dropped and the object decided", ["RST-006"],
          raw=b"\xef\xbb\xbf" + json.dumps(README).encode()),
        r("input.bound_exact", "exactly 65,536 bytes are read and decided", ["RST-001", "RST-037"],
          text=padded(README, 65536)),
        r("input.bound_exceeded", "one byte over 65,536 is invalid input, however valid the object", ["RST-001", "RST-002"],
          text=padded(README, 65537)),
        r("input.nan_literal", "a NaN literal is accepted and the number counts as unknown", ["RST-003", "RST-011"],
          text=json.dumps(README).replace('"current_input_tokens": 80000', '"current_input_tokens": NaN')),
        r("input.infinity_literal", "an Infinity literal is accepted and counts as unknown", ["RST-003", "RST-011"],
          text=json.dumps(README).replace('"fresh_input_tokens": 15000', '"fresh_input_tokens": Infinity')),
        r("input.negative_infinity_literal", "a -Infinity literal is accepted and counts as unknown", ["RST-003", "RST-011"],
          text=json.dumps(README).replace('"active_writers": 0', '"active_writers": -Infinity')),
        r("input.repeated_key_last_wins", "a repeated key takes its last value", ["RST-004"],
          text='{"schema": 2, ' + json.dumps(README)[1:]),
        r("input.deep_nesting", "nesting too deep to parse is blocked as invalid input with exit 2", ["RST-005"],
          text='{"schema": 1, "x": ' + "[" * 20000 + "]" * 20000 + "}"),
        r("input.nesting_read", "nesting 500 levels deep in a member the gate ignores is read and decided", ["RST-008", "RST-037"],
          text=json.dumps(README)[:-1] + ', "x": ' + "[" * 500 + "]" * 500 + "}"),
        compat(r("input.nesting_read_as_the_helper", "nesting 900 levels deep in a member is read, as the helper reads it",
                 ["RST-064", "RST-037"], text=json.dumps(README)[:-1] + ', "x": ' + "[" * 900 + "]" * 900 + "}")),
        r("input.huge_integer_division", "a current input too large for a double, divided and scaled by 0.80, is invalid input", ["RST-043"],
          change(README, current_input_tokens=10**400, context_capacity_tokens=10**399 * 3 + 1,
                 fresh_input_tokens=10**399)),
        r("input.huge_integer_mixed", "a huge integer met by a double in the arithmetic is invalid input", ["RST-043"],
          change(README, current_input_tokens=10**400, fresh_input_tokens=1.5)),
        r("input.result_too_long", "a 4,300-digit current input scaled by 0.80 is too large for a double: invalid input", ["RST-043"],
          change(README, current_input_tokens=int("9" * 4300), fresh_input_tokens=0)),
        r("input.result_too_long_to_print", "a net saving of more than 4,300 digits cannot be printed: invalid input", ["RST-045"],
          change(README, current_input_tokens=1, fresh_input_tokens=int("9" * 4300), restart_overhead_tokens=0)),
        r("input.unknown_members_ignored", "members the gate does not know are ignored", ["RST-001", "RST-037"],
          change(README, title_base="Ship it", timezone="UTC")),
    ])
    files["encoding"] = _file("restart", "reading bytes as the published helper does: byte order marks, UTF-16, UTF-32, lone surrogates",
                              restart_encoding_cases())
    files["identity"] = _file("restart", "steps 1 to 4: schema and identities are checked before anything else", [
        r("identity.schema_missing", "a missing schema is unsupported", ["RST-021"], change(README, schema=MISSING)),
        r("identity.schema_two", "schema 2 is unsupported", ["RST-021"], change(README, schema=2)),
        r("identity.schema_true", "schema true is not the integer 1", ["RST-021"], change(README, schema=True)),
        r("identity.schema_float", "schema 1.0 is not the integer 1", ["RST-021"], change(README, schema=1.0)),
        r("identity.schema_string", "schema \"1\" is not the integer 1", ["RST-021"], change(README, schema="1")),
        r("identity.schema_before_source", "the schema is checked before a blank source", ["RST-020", "RST-021"],
          change(README, schema=0, source_id=" ")),
        r("identity.source_missing", "a missing source id is blocked", ["RST-022", "RST-012"], change(README, source_id=MISSING)),
        r("identity.source_blank", "a source id of spaces only is blocked", ["RST-022", "RST-012"], change(README, source_id="  ")),
        r("identity.source_empty", "an empty source id is blocked", ["RST-022", "RST-012"], change(README, source_id="")),
        r("identity.source_number", "a numeric source id is blocked", ["RST-022", "RST-012"], change(README, source_id=7)),
        r("identity.source_tab_newline", "a source id of a tab and a newline is blank", ["RST-022", "RST-012"],
          change(README, source_id="\t\n")),
        r("identity.source_no_break_space", "a source id of no-break spaces only is blank", ["RST-022", "RST-012"],
          change(README, source_id="\u00a0\u3000")),
        r("identity.source_zero_width_space", "a zero-width space is not white space, so the id is present",
          ["RST-012", "RST-037"], change(README, source_id="\u200b")),
        r("identity.goal_missing", "a missing goal id is blocked", ["RST-023"], change(README, goal_id=MISSING)),
        r("identity.goal_blank", "a blank goal id is blocked", ["RST-023", "RST-012"], change(README, goal_id=" \t ")),
        r("identity.goal_list", "a goal id that is a list is blocked", ["RST-023"], change(README, goal_id=["task"])),
        r("identity.committed_target_missing", "committed ownership without a target is blocked", ["RST-024"],
          change(COMMITTED, target_id=MISSING)),
        r("identity.committed_target_is_source", "committed ownership to the source itself is blocked", ["RST-024"],
          change(COMMITTED, target_id="source")),
        r("identity.committed_target_blank", "committed ownership to a blank target is blocked", ["RST-024"],
          change(COMMITTED, target_id="   ")),
        r("identity.committed_flag_one", "ownership_committed 1 is not set, so the creation path applies", ["RST-010", "RST-024"],
          change(README, ownership_committed=1, target_id=MISSING)),
    ])
    files["committed"] = _file("restart", "step 5: the committed branch; the source never resumes implementation", [
        r("committed.takeover_unread", "committed without a takeover readback verifies the takeover", ["RST-025"],
          change(COMMITTED, target_takeover_readback=MISSING)),
        r("committed.ack_mismatch", "committed with a takeover but no matching ack verifies the takeover", ["RST-025"],
          change(COMMITTED, ack_matches=False)),
        r("committed.source_not_released", "an unreleased source is never archived", ["RST-025"],
          change(COMMITTED, source_retired_readback=MISSING)),
        r("committed.archive_unknown", "an uncertain archive is reconciled, never recreated", ["RST-025"],
          change(COMMITTED, archive_status="unknown", source_archived_readback=True)),
        r("committed.complete", "takeover and archive read back complete the restart", ["RST-025"],
          change(COMMITTED, source_archived_readback=True)),
        r("committed.archive_not_authorized", "archive not authorized leaves the archive pending", ["RST-025"],
          change(COMMITTED, archive_authorized=MISSING)),
        r("committed.archive_not_supported", "archive not supported leaves the archive pending", ["RST-025"],
          change(COMMITTED, archive_supported=False)),
        r("committed.archive_source", "everything in place archives the exact source", ["RST-025"], COMMITTED),
        r("committed.before_finish", "a committed transfer is reconciled before no remaining work", ["RST-020", "RST-025"],
          change(COMMITTED, remaining_work=False, target_takeover_readback=MISSING)),
        r("committed.before_mode_off", "a committed transfer is reconciled before mode off", ["RST-020", "RST-025"],
          change(COMMITTED, mode="off", policy_authorized=False)),
        r("committed.before_creation_status", "the committed branch ignores a missing creation status", ["RST-020", "RST-025"],
          change(COMMITTED, creation_status=MISSING)),
        r("committed.archive_status_other", "an archive status other than unknown has no meaning", ["RST-025"],
          change(COMMITTED, archive_status="archived")),
    ])
    files["creation"] = _file("restart", "steps 6 to 8: creation status and target identity", [
        r("creation.unknown", "an uncertain create is reconciled, never retried", ["RST-026"],
          change(README, creation_status="unknown")),
        r("creation.missing", "a missing creation status is blocked", ["RST-027"], change(README, creation_status=MISSING)),
        r("creation.sent", "an unknown creation status value is blocked", ["RST-027"], change(README, creation_status="sent")),
        r("creation.number", "a numeric creation status is blocked", ["RST-027"], change(README, creation_status=1)),
        r("creation.confirmed_target_missing", "a confirmed create without a target is blocked", ["RST-028"],
          change(CONFIRMED, target_id=MISSING)),
        r("creation.confirmed_target_is_source", "a confirmed create naming the source is blocked", ["RST-028"],
          change(CONFIRMED, target_id="source")),
        r("creation.confirmed_target_blank", "a confirmed create with a blank target is blocked", ["RST-028", "RST-012"],
          change(CONFIRMED, target_id=" ")),
        r("creation.not_sent_target", "a target id without a sent create is reconciled", ["RST-028"],
          change(README, target_id="target")),
        r("creation.not_sent_target_blank", "a target id of spaces is truthy without a sent create", ["RST-028"],
          change(README, target_id="  ")),
        r("creation.not_sent_target_true", "target_id true is truthy without a sent create", ["RST-028"],
          change(README, target_id=True)),
        r("creation.not_sent_target_empty", "an empty target id is falsy and the decision goes on", ["RST-028", "RST-037"],
          change(README, target_id="")),
        r("creation.not_sent_target_zero", "target_id 0 is falsy and the decision goes on", ["RST-028", "RST-037"],
          change(README, target_id=0)),
        r("creation.not_sent_target_null", "target_id null is falsy and the decision goes on", ["RST-028", "RST-037"],
          change(README, target_id=None)),
    ])
    files["policy"] = _file("restart", "steps 9 to 12: remaining work, budget, mode and consent", [
        r("policy.finish", "remaining work exactly false finishes", ["RST-029"], change(README, remaining_work=False)),
        r("policy.remaining_missing", "unknown remaining work is blocked", ["RST-029"], change(README, remaining_work=MISSING)),
        r("policy.remaining_string", "remaining work \"true\" is not set and is blocked", ["RST-029", "RST-010"],
          change(README, remaining_work="true")),
        r("policy.remaining_zero", "remaining work 0 is neither true nor false and is blocked", ["RST-029", "RST-010"],
          change(README, remaining_work=0)),
        r("policy.budget_unmeasurable", "an unmeasurable required budget is blocked", ["RST-030"],
          change(README, required_budget_unmeasurable=True)),
        r("policy.budget_flag_string", "required_budget_unmeasurable \"true\" is not set", ["RST-030", "RST-010", "RST-037"],
          change(README, required_budget_unmeasurable="true")),
        r("policy.finish_before_budget",
          "steps 9 and 10 both match (no remaining work, an unmeasurable budget): step 9 answers first",
          ["RST-020", "RST-029", "RST-030"], change(README, remaining_work=False, required_budget_unmeasurable=True)),
        r("policy.remaining_missing_before_budget",
          "steps 9 and 10 both match (remaining work unknown, an unmeasurable budget): step 9's reason is answered",
          ["RST-020", "RST-029", "RST-030"], change(README, remaining_work=MISSING, required_budget_unmeasurable=True)),
        r("policy.mode_missing", "a missing mode is blocked", ["RST-031"], change(README, mode=MISSING)),
        r("policy.mode_capitalised", "mode Adaptive is not a known mode", ["RST-031"], change(README, mode="Adaptive")),
        r("policy.mode_off", "mode off checkpoints only", ["RST-032"], change(README, mode="off")),
        r("policy.not_authorized", "no recorded consent checkpoints only", ["RST-032"], change(README, policy_authorized=MISSING)),
        r("policy.authorized_one", "policy_authorized 1 is not consent", ["RST-032", "RST-010"], change(README, policy_authorized=1)),
        r("policy.daily_authorized", "daily mode with consent reaches the assessment", ["RST-032", "RST-037"],
          change(README, mode="daily")),
    ])
    files["assessment"] = _file("restart", "steps 13 and 14: the assessment, its triggers and its boundary values", [
        r("assessment.no_trigger", "nothing observed calls for a restart: continue", ["RST-033", "RST-034"], QUIET),
        r("assessment.no_trigger_confirmed", "a confirmed create skips step 14 even without a trigger", ["RST-034", "RST-038"],
          change(CONFIRMED, compactions=0, current_input_tokens=MISSING)),
        r("assessment.compactions_two", "two compactions trigger the assessment", ["RST-033"], README),
        r("assessment.compactions_one", "one compaction does not trigger", ["RST-033", "RST-034"],
          change(README, compactions=1, restart_overhead_tokens=MISSING)),
        r("assessment.compactions_float", "1.99 compactions do not trigger", ["RST-033", "RST-034"],
          change(QUIET, compactions=1.99, restart_overhead_tokens=MISSING)),
        r("assessment.explicit", "an explicit restart triggers and skips the benefit preferences", ["RST-033", "RST-037"],
          change(QUIET, explicit_restart=True, current_input_tokens=MISSING, progress_since_restart=False)),
        r("assessment.pressure_flag", "a context pressure flag triggers", ["RST-033"],
          change(QUIET, context_pressure=True, restart_overhead_tokens=MISSING)),
        r("assessment.occupancy_exact_070", "current 70000 of capacity 100000 is pressure", ["RST-033"],
          change(QUIET, current_input_tokens=70000, fresh_input_tokens=56000, context_capacity_tokens=100000,
                 restart_overhead_tokens=MISSING)),
        r("assessment.occupancy_below_070", "current 69999 of capacity 100000 is not pressure", ["RST-033", "RST-034"],
          change(QUIET, current_input_tokens=69999, context_capacity_tokens=100000, restart_overhead_tokens=MISSING)),
        r("assessment.capacity_zero", "a capacity of 0 gives no occupancy", ["RST-033", "RST-034"],
          change(QUIET, context_capacity_tokens=0, restart_overhead_tokens=MISSING)),
        r("assessment.fresh_080", "a fresh start exactly 0.80 of the current input is materially smaller", ["RST-033"],
          change(QUIET, context_pressure=True, current_input_tokens=80000, fresh_input_tokens=64000,
                 restart_overhead_tokens=MISSING)),
        r("assessment.fresh_above_080", "a fresh start above 0.80 of the current input is not materially smaller", ["RST-033"],
          change(QUIET, context_pressure=True, current_input_tokens=80000, fresh_input_tokens=64001,
                 restart_overhead_tokens=MISSING)),
        r("assessment.current_zero", "a current input of 0 is never a smaller start", ["RST-033"],
          change(QUIET, context_pressure=True, current_input_tokens=0, fresh_input_tokens=0,
                 restart_overhead_tokens=MISSING)),
        r("assessment.margin_equal", "avoided exactly twice the overhead does not pay back", ["RST-033", "RST-042"],
          change(QUIET, current_input_tokens=20000, fresh_input_tokens=10000, remaining_calls=1,
                 restart_overhead_tokens=5000)),
        r("assessment.margin_above", "avoided just over twice the overhead pays back", ["RST-033", "RST-042"],
          change(QUIET, current_input_tokens=20000, fresh_input_tokens=10000, remaining_calls=1,
                 restart_overhead_tokens=4999)),
        r("assessment.horizon_three", "three remaining calls make a horizon of 3", ["RST-033", "RST-041"], README),
        r("assessment.horizon_capped", "ten remaining calls still make a horizon of 3", ["RST-033", "RST-041"],
          change(README, remaining_calls=10)),
        r("assessment.horizon_two", "two remaining calls make a horizon of 2", ["RST-033", "RST-041"],
          change(README, remaining_calls=2)),
        r("assessment.horizon_float_three", "3.0 remaining calls keep the float type", ["RST-033", "RST-040", "RST-041"],
          change(README, remaining_calls=3.0)),
        r("assessment.horizon_fraction", "2.5 remaining calls make a horizon of 2.5", ["RST-033", "RST-041"],
          change(README, remaining_calls=2.5)),
        r("assessment.horizon_zero", "no remaining calls never pay back", ["RST-033", "RST-041"],
          change(README, remaining_calls=0, compactions=0)),
        r("assessment.horizon_below_one", "0.5 remaining calls never pay back", ["RST-033", "RST-041"],
          change(README, remaining_calls=0.5, compactions=0)),
        r("assessment.float_tokens", "float token counts give float results", ["RST-040"],
          change(README, current_input_tokens=80000.0)),
        r("assessment.negative_saving", "a larger fresh start gives a negative net estimate", ["RST-033", "RST-042"],
          change(README, fresh_input_tokens=90000)),
        r("assessment.daily_age", "daily mode at exactly 86,400 seconds triggers", ["RST-033"],
          change(QUIET, mode="daily", session_age_seconds=86400, restart_overhead_tokens=MISSING)),
        r("assessment.daily_age_below", "daily mode at 86,399 seconds does not trigger", ["RST-033", "RST-034"],
          change(QUIET, mode="daily", session_age_seconds=86399, restart_overhead_tokens=MISSING)),
        r("assessment.adaptive_age", "adaptive mode never triggers on age", ["RST-033", "RST-034"],
          change(QUIET, session_age_seconds=10**6, restart_overhead_tokens=MISSING)),
        r("assessment.occupancy_float", "occupancy is a float division of two integers", ["RST-040"],
          change(README, context_capacity_tokens=200000)),
    ])
    files["transfer"] = _file("restart", "steps 15 to 18: safe boundary, checkpoint, create and transfer", [
        r("transfer.not_safe_boundary", "no safe boundary waits", ["RST-035"], change(README, safe_boundary=False)),
        r("transfer.writer_active", "an active writer waits", ["RST-035"], change(README, active_writers=1)),
        r("transfer.writers_unknown", "an unknown writer count is not zero", ["RST-035", "RST-011"],
          change(README, active_writers=MISSING)),
        r("transfer.writers_float_zero", "0.0 active writers is zero", ["RST-035", "RST-040"],
          change(README, active_writers=0.0)),
        r("transfer.operations_pending", "a pending operation waits", ["RST-035"], change(README, pending_operations=2)),
        r("transfer.operations_string", "pending operations \"0\" is unknown, not zero", ["RST-035", "RST-011"],
          change(README, pending_operations="0")),
        r("transfer.checkpoint_unread", "a checkpoint not read back is persisted first", ["RST-036"],
          change(README, checkpoint_readback=MISSING)),
        r("transfer.checkpoint_stale", "a checkpoint not current is persisted first", ["RST-036"],
          change(README, checkpoint_current=False)),
        r("transfer.measured_no_payback", "measured without payback or health continues", ["RST-037"],
          change(README, fresh_input_tokens=78000)),
        r("transfer.unmeasured_no_health", "unmeasured without health checkpoints only", ["RST-037"],
          change(README, restart_overhead_tokens=MISSING)),
        r("transfer.health_without_payback", "health qualifies a restart without measured payback", ["RST-037"],
          change(README, restart_overhead_tokens=MISSING, context_pressure=True)),
        r("transfer.no_progress", "no progress since the previous restart continues", ["RST-037"],
          change(README, progress_since_restart=MISSING)),
        r("transfer.explicit_without_progress", "an explicit restart skips the progress preference", ["RST-037"],
          change(README, progress_since_restart=MISSING, explicit_restart=True)),
        r("transfer.explicit_still_waits", "an explicit restart still waits for a safe boundary", ["RST-035"],
          change(README, explicit_restart=True, safe_boundary=MISSING)),
        r("transfer.no_transfer_support", "without authoritative transfer the handoff is manual", ["RST-037"],
          change(README, transfer_supported=MISSING)),
        r("transfer.no_fresh_create", "without fresh create the handoff is manual", ["RST-037"],
          change(README, fresh_create_supported=False)),
        r("transfer.no_target_read", "without target reads the handoff is manual", ["RST-037"],
          change(README, target_read_supported=MISSING)),
        r("transfer.create_fresh", "every check passed creates a fresh session", ["RST-037"], README),
        r("transfer.confirmed_ack_missing", "a confirmed create waits for a matching ack", ["RST-038"],
          change(CONFIRMED, ack_matches=MISSING)),
        r("transfer.confirmed_no_transfer", "a confirmed create without transfer support is manual", ["RST-038"],
          change(CONFIRMED, transfer_supported=False)),
        r("transfer.commit", "a confirmed create with a matching ack commits the transfer", ["RST-038"], CONFIRMED),
        r("transfer.confirmed_ack_missing_and_no_transfer",
          "both checks of step 18 fail (no matching ACK, no transfer support): the ACK check answers first",
          ["RST-020", "RST-038"], change(CONFIRMED, ack_matches=MISSING, transfer_supported=False)),
    ])
    unknown = []
    for form, value, description in (
        ("missing", MISSING, "a missing current input is unknown"),
        ("null", None, "a null current input is unknown"),
        ("negative", -1, "a negative current input is unknown"),
        ("boolean", True, "a boolean current input is unknown"),
        ("string", "80000", "a string current input is unknown"),
        ("list", [80000], "a list current input is unknown"),
    ):
        unknown.append(r(f"unknown.current_{form}", description, ["RST-011", "RST-037"],
                         change(README, current_input_tokens=value)))
    unknown += [
        r("unknown.current_nan", "a NaN current input is unknown", ["RST-003", "RST-011", "RST-037"],
          text=json.dumps(README).replace("80000", "NaN")),
        r("unknown.compactions_nan", "a NaN compaction count never triggers", ["RST-003", "RST-011", "RST-033"],
          text=json.dumps(change(README, restart_overhead_tokens=MISSING)).replace('"compactions": 2', '"compactions": NaN')),
        r("unknown.compactions_boolean", "compactions true never triggers", ["RST-011", "RST-033"],
          change(QUIET, compactions=True, restart_overhead_tokens=MISSING)),
        r("unknown.age_string", "a string session age never triggers in daily mode", ["RST-011", "RST-033"],
          change(QUIET, mode="daily", session_age_seconds="86400", restart_overhead_tokens=MISSING)),
        r("unknown.age_negative", "a negative session age never triggers", ["RST-011", "RST-033"],
          change(QUIET, mode="daily", session_age_seconds=-86400, restart_overhead_tokens=MISSING)),
        r("unknown.capacity_negative", "a negative capacity gives no occupancy", ["RST-011", "RST-033"],
          change(QUIET, context_capacity_tokens=-100000, restart_overhead_tokens=MISSING)),
        r("unknown.writers_boolean", "active writers false is unknown, not zero", ["RST-011", "RST-035"],
          change(README, active_writers=False)),
        r("unknown.writers_negative", "active writers -1 is unknown, not zero", ["RST-011", "RST-035"],
          change(README, active_writers=-1)),
        r("unknown.writers_nan", "active writers NaN is unknown, not zero", ["RST-003", "RST-011", "RST-035"],
          text=json.dumps(README).replace('"active_writers": 0', '"active_writers": NaN')),
        r("unknown.flag_one", "safe_boundary 1 is not set", ["RST-010", "RST-035"], change(README, safe_boundary=1)),
        r("unknown.flag_string", "transfer_supported \"true\" is not set", ["RST-010", "RST-037"],
          change(README, transfer_supported="true")),
        r("unknown.negative_zero", "-0.0 active writers is a usable zero", ["RST-011", "RST-035"],
          text=json.dumps(README).replace('"active_writers": 0', '"active_writers": -0.0')),
    ]
    files["unknown"] = _file("restart", "every unknown form of a number or flag: missing, null, negative, NaN, boolean, string", unknown)
    files["history"] = _file("restart", "the order of v2.2.1 where earlier versions answered differently", [
        r("history.uncertain_create_before_finish", "an uncertain create is reconciled before no remaining work (v2: FINISH)",
          ["RST-020", "RST-026"], change(README, creation_status="unknown", remaining_work=False)),
        r("history.missing_creation_before_mode_off", "a missing creation status is blocked before mode off (v2: CHECKPOINT_ONLY)",
          ["RST-020", "RST-027"], change(README, creation_status=MISSING, mode="off")),
        r("history.takeover_before_finish", "a committed takeover is verified before no remaining work (v1: FINISH)",
          ["RST-020", "RST-025"], change(COMMITTED, remaining_work=False, ack_matches=MISSING)),
    ])
    files["examples"] = _file("restart", "the worked example of the session-restart reference", [
        r("example.readme", "the reference's example observation creates a fresh session, horizon 3, net 185000",
          ["RST-033", "RST-037", "RST-040", "RST-042"], README),
        r("example.readme_as_bytes", "the same example given as its exact text prints the same line",
          ["RST-001", "RST-037"], text=json.dumps(README, indent=2)),
    ])
    return files


#: The byte order marks ``json.loads`` recognises.
MARKS = {
    "utf-8": b"\xef\xbb\xbf", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff",
    "utf-32-le": b"\xff\xfe\x00\x00", "utf-32-be": b"\x00\x00\xfe\xff",
}
#: Every encoding the helpers read, as (case id part, codec).
ENCODINGS = (("utf16_le", "utf-16-le"), ("utf16_be", "utf-16-be"), ("utf32_le", "utf-32-le"),
             ("utf32_be", "utf-32-be"))


def encoded(text, codec, *, mark=False):
    """``text`` (a str, or a JSON value written with ``json.dumps``) as bytes in ``codec``,
    after its byte order mark when ``mark``; lone surrogates kept."""
    if not isinstance(text, str):
        text = json.dumps(text, ensure_ascii=False)
    return (MARKS[codec] if mark else b"") + text.encode(codec, "surrogatepass")


def _spliced(value, member, raw_bytes):
    """``value`` as UTF-8 JSON text whose ``member`` holds the string of ``raw_bytes`` as they
    are (bytes that may not be UTF-8, such as an encoded lone surrogate)."""
    text = json.dumps({**value, member: "@@"}).encode()
    return text.replace(b'"@@"', b'"' + raw_bytes + b'"')


def restart_encoding_cases():
    r = restart_case
    cases = [r("encoding.utf8_bom", "an object in UTF-8 after its byte order mark is decided", ["RST-006", "RST-037"],
               raw=encoded(README, "utf-8", mark=True))]
    for name, codec in ENCODINGS:
        width = codec[4:6]
        cases += [
            r(f"encoding.{name}_bom", f"an object in UTF-{width} after its byte order mark is decided", ["RST-006", "RST-037"],
              raw=encoded(README, codec, mark=True)),
            r(f"encoding.{name}", f"an object in UTF-{width} without a byte order mark is decided by its zero bytes",
              ["RST-006", "RST-037"], raw=encoded(README, codec)),
        ]
    cases += [
        r("encoding.utf16_blocked", "a UTF-16 object with schema 2 is blocked as unsupported, exit 2", ["RST-006", "RST-021"],
          raw=encoded(change(README, schema=2), "utf-16-le")),
        r("encoding.utf16_nan_literal", "a NaN literal in UTF-16 is an unknown number", ["RST-003", "RST-006", "RST-037"],
          raw=encoded(json.dumps(README).replace('"current_input_tokens": 80000', '"current_input_tokens": NaN'),
                      "utf-16-be", mark=True)),
        r("encoding.utf32_repeated_key", "a repeated key in UTF-32 takes its last value", ["RST-004", "RST-006"],
          raw=encoded('{"schema": 2, ' + json.dumps(README)[1:], "utf-32-be")),
        r("encoding.utf16_not_object", "a UTF-16 array is not an observation object", ["RST-002", "RST-006"],
          raw=encoded("[]", "utf-16-le")),
        r("encoding.utf16_odd_length", "a stray last byte after UTF-16 text does not decode: invalid input", ["RST-002", "RST-006"],
          raw=encoded(README, "utf-16-le") + b"\x00"),
        r("encoding.utf16_wrong_order", "a big-endian mark before little-endian text reads as no JSON: invalid input",
          ["RST-002", "RST-006"], raw=MARKS["utf-16-be"] + encoded(README, "utf-16-le")),
        r("encoding.utf32_out_of_range", "a UTF-32 unit beyond U+10FFFF does not decode: invalid input", ["RST-002", "RST-006"],
          raw=encoded('{"schema": 1, "source_id": "', "utf-32-le") + b"\x00\x00\x11\x00" + encoded('"}', "utf-32-le")),
        r("encoding.utf8_bom_twice", "a second UTF-8 byte order mark is not JSON: invalid input", ["RST-002", "RST-006"],
          raw=MARKS["utf-8"] + encoded(README, "utf-8", mark=True)),
        r("encoding.utf8_bom_then_invalid", "bytes after a UTF-8 mark that are not UTF-8 are invalid input", ["RST-002", "RST-006"],
          raw=MARKS["utf-8"] + _spliced(README, "source_id", b"\xff")),
        r("encoding.utf8_lone_high_surrogate", "a UTF-8 encoded lone high surrogate in the source id decodes and is decided",
          ["RST-007", "RST-037"], raw=_spliced(README, "source_id", b"s\xed\xa0\x80")),
        r("encoding.utf8_lone_low_surrogate", "a goal id of one encoded lone low surrogate is present, not blank",
          ["RST-007", "RST-012", "RST-037"], raw=_spliced(README, "goal_id", b"\xed\xb2\x80")),
        r("encoding.utf8_surrogate_halves", "a surrogate pair encoded as two three-byte halves decodes as two surrogates",
          ["RST-007", "RST-037"], raw=_spliced(README, "source_id", b"\xed\xa0\xbd\xed\xb8\x80")),
        r("encoding.utf8_surrogate_target_is_source", "an encoded surrogate equals the same surrogate written as an escape",
          ["RST-007", "RST-028"], raw=_spliced(change(CONFIRMED, target_id="\ud800"), "source_id", b"\xed\xa0\x80")),
        r("encoding.utf8_surrogate_in_mode", "a mode ending in an encoded surrogate is not a known mode", ["RST-007", "RST-031"],
          raw=_spliced(README, "mode", b"adaptive\xed\xa0\x80")),
        r("encoding.utf8_overlong_surrogate", "a surrogate encoded in four bytes is not UTF-8: invalid input", ["RST-002", "RST-007"],
          raw=_spliced(README, "source_id", b"\xf0\x8d\xa0\x80")),
        r("encoding.utf8_truncated_surrogate", "a surrogate cut after two bytes is not UTF-8: invalid input", ["RST-002", "RST-007"],
          raw=_spliced(README, "source_id", b"\xed\xa0")),
        r("encoding.utf16_lone_surrogate", "a lone surrogate in UTF-16 decodes and is decided", ["RST-006", "RST-007", "RST-037"],
          raw=encoded(change(README, source_id="s\udc00"), "utf-16-le")),
        r("encoding.utf32_lone_surrogate", "a lone surrogate in UTF-32 decodes and is decided", ["RST-006", "RST-007", "RST-037"],
          raw=encoded(change(README, goal_id="\ud800"), "utf-32-be", mark=True)),
        r("encoding.two_bytes_utf16_be", "two bytes with a zero first are UTF-16: a number is invalid input", ["RST-002", "RST-006"],
          raw=b"\x001"),
        r("encoding.two_bytes_utf16_le", "two bytes with a zero second are UTF-16: a number is invalid input", ["RST-002", "RST-006"],
          raw=b"1\x00"),
        r("encoding.two_bytes_object", "the two bytes {} are UTF-8, an object without schema", ["RST-006", "RST-021"],
          raw=b"{}"),
        r("encoding.three_bytes_zero_last", "three bytes are always UTF-8: a trailing zero byte is invalid input", ["RST-002", "RST-006"],
          raw=b"{}\x00"),
        r("encoding.three_bytes_zero_first", "three bytes are always UTF-8: a leading zero byte is invalid input", ["RST-002", "RST-006"],
          raw=b"\x00{}"),
        r("encoding.four_zero_bytes", "four zero bytes are UTF-32 for one NUL character: invalid input", ["RST-002", "RST-006"],
          raw=b"\x00" * 4),
        r("encoding.utf16_bound_exact", "exactly 65,536 bytes of UTF-16 are read and decided", ["RST-001", "RST-006", "RST-037"],
          raw=encoded(padded(README, 32768), "utf-16-le")),
        r("encoding.utf16_bound_exceeded", "65,538 bytes of UTF-16 are over the bound: invalid input", ["RST-001", "RST-002"],
          raw=encoded(padded(README, 32769), "utf-16-le")),
        r("encoding.utf32_nesting_read", "nesting 500 levels deep in UTF-32 is read and decided", ["RST-006", "RST-008", "RST-037"],
          raw=encoded(json.dumps(README)[:-1] + ', "x": ' + "[" * 500 + "]" * 500 + "}", "utf-32-le")),
        r("encoding.utf16_deep_nesting", "nesting too deep to parse in UTF-16 is invalid input", ["RST-005", "RST-006"],
          raw=encoded('{"schema": 1, "x": ' + "[" * 5000 + "]" * 5000 + "}", "utf-16-be", mark=True)),
        r("encoding.utf16_huge_integer", "a UTF-16 integer too large for a double met by the 0.80 rule is invalid input",
          ["RST-006", "RST-043"], raw=encoded(change(README, current_input_tokens=10**400), "utf-16-le")),
    ]
    return cases


def title_case(ident, description, requirements, value=MISSING, *, text=None, raw=None):
    return _answered("title", ident, description, requirements, value, text, raw)


WARSAW = {"title": "Ship the parser", "started_at": "2026-09-05T23:30:00Z", "timezone": "Europe/Warsaw"}


def title_encoding_cases():
    t = title_case
    ok, fail = ["TTL-010"], ["TTL-009"]
    cases = [t("encoding.utf8_bom", "a title object in UTF-8 after its byte order mark is formatted", ["TTL-015", *ok],
               raw=encoded(WARSAW, "utf-8", mark=True))]
    for name, codec in ENCODINGS:
        width = codec[4:6]
        cases += [
            t(f"encoding.{name}_bom", f"a title object in UTF-{width} after its byte order mark is formatted", ["TTL-015", *ok],
              raw=encoded(WARSAW, codec, mark=True)),
            t(f"encoding.{name}", f"a title object in UTF-{width} without a byte order mark is formatted", ["TTL-015", *ok],
              raw=encoded(WARSAW, codec)),
        ]
    audit = {"title": "Audit", "started_at": "2026-03-01T02:00:00Z"}
    cases += [
        t("encoding.utf16_non_ascii_title", "a title outside ASCII in UTF-16 is printed with escapes", ["TTL-015", *ok],
          raw=encoded({**WARSAW, "title": "Zażółć gęślą jaźń 🚀"}, "utf-16-be")),
        t("encoding.utf32_stacked_suffixes", "suffixes are stripped from a UTF-32 title", ["TTL-006", "TTL-015", *ok],
          raw=encoded({**audit, "title": "Audit | started 01-02 | started 03-04"}, "utf-32-le", mark=True)),
        t("encoding.utf8_lone_surrogate_title", "an encoded lone surrogate in the title is kept and printed as an escape",
          ["TTL-015", *ok], raw=_spliced(audit, "title", b"Audit \xed\xb2\x80")),
        t("encoding.utf16_lone_surrogate_title", "a lone surrogate in a UTF-16 title is kept and printed as an escape",
          ["TTL-015", *ok], raw=encoded({**audit, "title": "\ud800 Audit"}, "utf-16-le")),
        t("encoding.utf8_surrogate_separator", "an encoded lone surrogate between date and time is a separator the reference accepts",
          ["TTL-002", "TTL-015", *ok], raw=_spliced(audit, "started_at", b"2026-03-01\xed\xa0\x8002:00:00Z")),
        t("encoding.utf8_surrogate_in_start", "an encoded lone surrogate inside the time is unparsable: unavailable",
          ["TTL-015", *fail], raw=_spliced(audit, "started_at", b"2026-03-01T02:\xed\xa0\x80:00Z")),
        t("encoding.utf8_surrogate_in_zone", "a zone holding an encoded lone surrogate is not known: unavailable",
          ["TTL-015", *fail], raw=_spliced(WARSAW, "timezone", b"Europe/Warsaw\xed\xa0\x80")),
        t("encoding.utf8_surrogate_blank_title", "a title of white space and a surrogate is not blank", ["TTL-015", *ok],
          raw=_spliced(audit, "title", b" \xed\xa0\x80 ")),
        t("encoding.utf16_odd_length", "a stray last byte after UTF-16 text does not decode: unavailable", ["TTL-015", *fail],
          raw=encoded(audit, "utf-16-le") + b"\x00"),
        t("encoding.utf32_out_of_range", "a UTF-32 unit beyond U+10FFFF does not decode: unavailable", ["TTL-015", *fail],
          raw=encoded('{"title": "', "utf-32-be") + b"\x00\x11\x00\x00" + encoded('", "started_at": "2026-03-01T02:00:00Z"}', "utf-32-be")),
        t("encoding.utf8_bom_twice", "a second UTF-8 byte order mark is not JSON: unavailable", ["TTL-015", *fail],
          raw=MARKS["utf-8"] + encoded(audit, "utf-8", mark=True)),
        t("encoding.utf8_overlong_surrogate", "a surrogate encoded in four bytes is not UTF-8: unavailable", ["TTL-015", *fail],
          raw=_spliced(audit, "title", b"\xf0\x8d\xa0\x80")),
        t("encoding.two_bytes_utf16", "two bytes with a zero byte are UTF-16 for one character: unavailable", ["TTL-015", *fail],
          raw=b"{\x00"),
        t("encoding.three_bytes", "three bytes are always UTF-8: a trailing zero byte is unavailable", ["TTL-015", *fail],
          raw=b"{}\x00"),
        t("encoding.utf16_bound_exact", "exactly 8,192 bytes of UTF-16 are read", ["TTL-001", "TTL-015", *ok],
          raw=encoded(padded(audit, 4096), "utf-16-le")),
        t("encoding.utf32_bound_exceeded", "8,196 bytes of UTF-32 are over the bound: unavailable", ["TTL-001", "TTL-015", *fail],
          raw=encoded(padded(audit, 2049), "utf-32-le")),
        t("encoding.utf32_nesting_read", "nesting 500 levels deep in UTF-32 is read", ["TTL-015", "TTL-018", *ok],
          raw=encoded('{"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "x": ' + "[" * 500 + "]" * 500 + "}",
                      "utf-32-le")),
        t("encoding.utf16_deep_nesting", "nesting too deep to parse in UTF-16 is unavailable", ["TTL-013", "TTL-015", *fail],
          raw=encoded('{"title": ' + "[" * 1500 + "]" * 1500 + "}", "utf-16-le", mark=True)),
        t("encoding.utf16_outside_calendar", "a UTF-16 start that leaves the calendar in its zone is unavailable",
          ["TTL-015", "TTL-016", *fail], raw=encoded({**audit, "started_at": "9999-12-31T23:30:00-01:00"}, "utf-16-be")),
    ]
    return cases


def title_files():
    from gate_fixtures_title_start import start_cases

    t = title_case
    ok = ["TTL-010"]
    fail = ["TTL-009"]
    return {
        "worked": _file("title", "the worked cases of the reference title helper", [
            t("worked.crosses_midnight", "23:30 UTC on 5 September displays 06-09 in Warsaw", ["TTL-007", *ok],
              {"title": "Ship the parser", "started_at": "2026-09-05T23:30:00Z", "timezone": "Europe/Warsaw"}),
            t("worked.stacked_suffixes", "a run of stacked date suffixes keeps only the base", ["TTL-006", *ok],
              {"title": "Ship the parser | started 01-02 | started 03-04", "started_at": "2026-02-01T08:00:00+00:00"}),
            t("worked.resumed_keeps_start", "a session resumed later keeps its original start date", ["TTL-007", *ok],
              {"title": "Long task", "started_at": "2020-01-31T10:00:00+01:00", "timezone": "UTC"}),
            t("worked.utc_default", "an absent time zone is UTC", ["TTL-004", "TTL-005", *ok],
              {"title": "Audit", "started_at": "2026-12-31T23:59:59-01:00"}),
            t("worked.utc_explicit", "an explicit UTC zone needs no zone database", ["TTL-005", *ok],
              {"title": "Audit", "started_at": "2026-06-01T00:30:00+02:00", "timezone": "UTC"}),
            t("worked.west_of_utc", "a zone west of UTC moves the date back", ["TTL-007", *ok],
              {"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "timezone": "America/New_York"}),
            t("worked.fraction", "a fraction of a second is written back with six digits", ["TTL-002", *ok],
              {"title": "Audit", "started_at": "2026-03-01T02:00:00.5Z"}),
            t("worked.space_separator", "a space instead of T is accepted", ["TTL-002", *ok],
              {"title": "Audit", "started_at": "2026-03-01 02:00:00+05:30", "timezone": "Asia/Kolkata"}),
            t("worked.title_whitespace", "white space around the title is removed", ["TTL-006", *ok],
              {"title": "  Audit the logs \t", "started_at": "2026-03-01T02:00:00Z"}),
            t("worked.suffix_then_spaces", "spaces between stacked suffixes stop the run", ["TTL-006", *ok],
              {"title": "Audit | started 01-02  | started 03-04", "started_at": "2026-03-01T02:00:00Z"}),
            t("worked.suffix_single_digit", "a suffix with one-digit day is not a date suffix", ["TTL-006", *ok],
              {"title": "Audit | started 1-02", "started_at": "2026-03-01T02:00:00Z"}),
            t("worked.suffix_other_digits", "any decimal digits form a date suffix", ["TTL-006", *ok],
              {"title": "Audit | started \u0661\u0662-\u0660\u0663", "started_at": "2026-03-01T02:00:00Z"}),
            t("worked.suffix_letter_in_day", "a letter in the second digit of the day is not a date suffix", ["TTL-006", *ok],
              {"title": "Audit | started 0x-02", "started_at": "2026-03-01T02:00:00Z"}),
            t("worked.suffix_letter_in_month", "a letter in the first digit of the month is not a date suffix", ["TTL-006", *ok],
              {"title": "Audit | started 01-x2", "started_at": "2026-03-01T02:00:00Z"}),
            t("worked.suffix_letter_in_month_end", "a letter in the second digit of the month is not a date suffix",
              ["TTL-006", *ok], {"title": "Audit | started 01-0x", "started_at": "2026-03-01T02:00:00Z"}),
            t("worked.non_ascii_title", "a title outside ASCII is printed with escapes", ["TTL-010"],
              {"title": "Zażółć gęślą jaźń", "started_at": "2026-03-01T02:00:00Z"}),
        ]),
        "failures": _file("title", "every failure prints TITLE_UNAVAILABLE and exits 2", [
            t("failure.title_missing", "a missing title is unavailable", fail, {"started_at": "2026-03-01T02:00:00Z"}),
            t("failure.title_blank", "a blank title is unavailable", fail, {"title": " \t", "started_at": "2026-03-01T02:00:00Z"}),
            t("failure.title_number", "a numeric title is unavailable", fail, {"title": 42, "started_at": "2026-03-01T02:00:00Z"}),
            t("failure.start_missing", "a missing start is unavailable", fail, {"title": "Audit"}),
            t("failure.start_number", "a numeric start is unavailable", fail, {"title": "Audit", "started_at": 1772330400}),
            t("failure.start_unparsable", "an unparsable start is unavailable", fail, {"title": "Audit", "started_at": "yesterday"}),
            t("failure.start_no_offset", "a start without an offset is unavailable", ["TTL-003", *fail],
              {"title": "Audit", "started_at": "2026-03-01T02:00:00"}),
            t("failure.start_date_only", "a date without a time or offset is unavailable", ["TTL-003", *fail],
              {"title": "Audit", "started_at": "2026-03-01"}),
            t("failure.start_bad_month", "month 13 is unavailable", fail, {"title": "Audit", "started_at": "2026-13-01T02:00:00Z"}),
            t("failure.zone_unknown", "an unknown zone is unavailable", fail,
              {"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "timezone": "Mars/Olympus"}),
            t("failure.zone_lowercase_utc", "utc in lower case is not a known zone", fail,
              {"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "timezone": "utc"}),
            t("failure.zone_empty", "an empty zone is not UTC: unavailable", ["TTL-005", *fail],
              {"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "timezone": ""}),
            t("failure.zone_null", "a null zone is unavailable", ["TTL-004", *fail],
              {"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "timezone": None}),
            t("failure.zone_path", "a zone that is a path is unavailable", fail,
              {"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "timezone": "../../etc/passwd"}),
            t("failure.outside_calendar", "a start that leaves the calendar in its zone is unavailable", ["TTL-016", *fail],
              {"title": "Audit", "started_at": "0001-01-01T00:30:00+01:00"}),
            t("failure.not_object", "a JSON array is unavailable", fail, ["Audit", "2026-03-01T02:00:00Z"]),
        ]),
        "start": _file("title", "reading started_at: the date forms, the separator, the time, the offset, the text written back",
                       start_cases()),
        "encoding": _file("title", "reading bytes as the published helper does: byte order marks, UTF-16, UTF-32, lone surrogates",
                          title_encoding_cases()),
        "input": _file("title", "reading the input: size bound, encoding, JSON, nesting", [
            t("input.not_json", "text that is not JSON is unavailable", ["TTL-001", *fail], text="title: Audit"),
            t("input.invalid_utf8", "bytes that are not UTF-8 are unavailable", ["TTL-001", "TTL-015", *fail],
              raw=b'{"title": "\xff", "started_at": "2026-03-01T02:00:00Z"}'),
            t("input.bom", "a UTF-8 byte order mark before the object is dropped and the title formatted", ["TTL-015", *ok],
              raw=b'\xef\xbb\xbf{"title": "Audit", "started_at": "2026-03-01T02:00:00Z"}'),
            t("input.bound_exact", "exactly 8,192 bytes are read", ["TTL-001", *ok],
              text=padded({"title": "Audit", "started_at": "2026-03-01T02:00:00Z"}, 8192)),
            t("input.bound_exceeded", "one byte over 8,192 is unavailable", ["TTL-001", *fail],
              text=padded({"title": "Audit", "started_at": "2026-03-01T02:00:00Z"}, 8193)),
            t("input.deep_nesting", "nesting too deep to parse is unavailable", ["TTL-013", *fail],
              text='{"title": ' + "[" * 4000 + "]" * 4000 + "}"),
            t("input.nesting_read", "nesting 500 levels deep in a member the gate ignores is read", ["TTL-018", *ok],
              text='{"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "x": ' + "[" * 500 + "]" * 500 + "}"),
            compat(t("input.nesting_read_as_the_helper", "nesting 900 levels deep in a member is read, as the helper reads it",
                     ["TTL-028", *ok],
                     text='{"title": "Audit", "started_at": "2026-03-01T02:00:00Z", "x": ' + "[" * 900 + "]" * 900 + "}")),
            t("input.never_unsupported", "the gate answers unavailable, never TITLE_UNSUPPORTED", ["TTL-011", *fail], {}),
        ]),
    }
