"""An independent oracle of the published restart helper (v2.2.1), for the tests only.

It transcribes the reference notes (``shared/reference/restart-gate.md``) step by step, as
plainly as possible, with the ``json`` package, and shares no code with
``passdown.gates.restart``. It models the helper exactly, crashes included:

- it reads at most 65,537 bytes and hands them to ``json.loads(bytes)``, which guesses the
  encoding (UTF-8 with or without a byte order mark, UTF-16, UTF-32) and decodes with
  ``surrogatepass``;
- it catches only ``ValueError`` (JSON errors and decode errors are subclasses) and
  ``UnicodeDecodeError`` while it reads and decides, and answers ``BLOCKED`` /
  ``invalid_input`` for them;
- anything else (``RecursionError`` on nesting too deep, ``OverflowError`` when an integer
  too large for a double meets float arithmetic, and the ``ValueError`` of printing an
  integer of more than 4,300 digits, which its ``print`` meets after its ``try`` block) ends
  the process with a traceback, nothing on stdout and exit status 1.

:func:`respond` is the helper's work on its stdin bytes; ``published_helpers_model`` observes
it for the tests, which expect Passdown's documented answer (``BLOCKED`` / ``invalid_input``,
RST-005, RST-043 and RST-045) where the helper crashes. The real helper, in
``../shared/reference/published-helpers/``, is run by the tests that run programs.
"""

import json
import math

LIMIT = 65536


def usable(value):
    """A number is usable only if its JSON type is integer or float and 0 <= v < inf."""
    if isinstance(value, bool):
        return False
    if not isinstance(value, (int, float)):
        return False
    return 0 <= value < math.inf


def flag(obs, name):
    """A flag is set only if its value is the JSON literal true."""
    return obs.get(name) is True


def non_blank(value):
    return isinstance(value, str) and value.strip() != ""


def evaluate(obs):
    """Steps 1-18 of the reference notes; returns the result dict."""
    # 1
    if not (type(obs.get("schema")) is int and obs.get("schema") == 1):
        return {"action": "BLOCKED", "reason": "unsupported_schema"}
    # 2
    if not non_blank(obs.get("source_id")):
        return {"action": "BLOCKED", "reason": "source_identity"}
    # 3
    if not non_blank(obs.get("goal_id")):
        return {"action": "BLOCKED", "reason": "goal_identity"}
    # 4
    if flag(obs, "ownership_committed"):
        target = obs.get("target_id")
        if not non_blank(target) or target == obs.get("source_id"):
            return {"action": "BLOCKED", "reason": "committed_target_identity"}
    # 5
    if flag(obs, "ownership_committed"):
        if not (flag(obs, "target_takeover_readback") and flag(obs, "ack_matches")):
            return {"action": "VERIFY_TAKEOVER", "reason": "source_remains_readonly"}
        if not flag(obs, "source_retired_readback"):
            return {"action": "VERIFY_SOURCE_RELEASE", "reason": "do_not_archive_an_unreleased_source"}
        if obs.get("archive_status") == "unknown":
            return {"action": "RECONCILE_ARCHIVE", "reason": "target_owns_work_never_recreate"}
        if flag(obs, "source_archived_readback"):
            return {"action": "COMPLETE", "reason": "takeover_and_archive_verified"}
        if not (flag(obs, "archive_authorized") and flag(obs, "archive_supported")):
            return {"action": "ARCHIVE_PENDING", "reason": "target_owns_work_source_remains_readonly"}
        return {"action": "ARCHIVE_SOURCE", "reason": "archive_exact_source_only"}
    # 6
    status = obs.get("creation_status")
    if status == "unknown":
        return {"action": "RECONCILE_TARGET", "reason": "never_retry_uncertain_create"}
    # 7
    if status not in ("not_sent", "confirmed"):
        return {"action": "BLOCKED", "reason": "creation_status"}
    # 8
    if status == "confirmed":
        target = obs.get("target_id")
        if not non_blank(target) or target == obs.get("source_id"):
            return {"action": "BLOCKED", "reason": "target_identity"}
    if status == "not_sent" and obs.get("target_id"):
        return {"action": "RECONCILE_TARGET", "reason": "unexpected_target"}
    # 9
    if not flag(obs, "remaining_work"):
        if obs.get("remaining_work") is False:
            return {"action": "FINISH", "reason": "remaining_work"}
        return {"action": "BLOCKED", "reason": "remaining_work"}
    # 10
    if flag(obs, "required_budget_unmeasurable"):
        return {"action": "BLOCKED", "reason": "required_budget_unmeasurable"}
    # 11
    if obs.get("mode") not in ("off", "adaptive", "daily"):
        return {"action": "BLOCKED", "reason": "invalid_mode"}
    # 12
    if obs.get("mode") == "off" or not flag(obs, "policy_authorized"):
        return {"action": "CHECKPOINT_ONLY", "reason": "restart_not_authorized"}
    # 13
    current = obs.get("current_input_tokens")
    fresh = obs.get("fresh_input_tokens")
    overhead = obs.get("restart_overhead_tokens")
    calls = obs.get("remaining_calls")
    capacity = obs.get("context_capacity_tokens")
    measured = usable(current) and usable(fresh) and usable(overhead) and usable(calls)
    pays_back = False
    if measured:
        horizon = min(calls, 3)
        avoided = (current - fresh) * horizon
        pays_back = horizon >= 1 and avoided > 2 * overhead
    if usable(current) and usable(capacity) and capacity != 0:
        occupancy = current / capacity
    else:
        occupancy = None
    pressure = flag(obs, "context_pressure") or (occupancy is not None and occupancy >= 0.70)
    smaller_start = usable(current) and current > 0 and usable(fresh) and fresh <= 0.80 * current
    health = pressure and smaller_start
    compactions = obs.get("compactions")
    age = obs.get("session_age_seconds")
    triggered = (
        flag(obs, "explicit_restart")
        or pressure
        or pays_back
        or (usable(compactions) and compactions >= 2)
        or (obs.get("mode") == "daily" and usable(age) and age >= 86400)
    )
    assessment = {
        "context_occupancy": occupancy,
        "context_pressure": pressure,
        "materially_smaller_start": smaller_start,
        "health_rotation_qualified": health,
    }
    if measured:
        assessment["basis"] = "estimated_token_proxy_not_billing"
        assessment["horizon_calls"] = horizon
        assessment["estimated_net_tokens_saved"] = avoided - overhead
        assessment["pays_back_with_margin"] = pays_back

    def result(action, reason):
        return {"action": action, "reason": reason, "assessment": assessment}

    # 14
    if status == "not_sent" and not triggered:
        return result("CONTINUE", "no_observed_trigger")
    # 15
    writers = obs.get("active_writers")
    operations = obs.get("pending_operations")
    if (
        not flag(obs, "safe_boundary")
        or not (usable(writers) and writers == 0)
        or not (usable(operations) and operations == 0)
    ):
        return result("WAIT_SAFE_BOUNDARY", "writes_or_operations_not_released")
    # 16
    if not (flag(obs, "checkpoint_readback") and flag(obs, "checkpoint_current")):
        return result("CHECKPOINT", "persist_and_verify_current_state")
    explicit = flag(obs, "explicit_restart")
    # 17
    if status == "not_sent":
        if not explicit and not pays_back and not health:
            if measured:
                return result("CONTINUE", "restart_does_not_pay_back")
            return result("CHECKPOINT_ONLY", "benefit_unmeasured")
        if not explicit and not flag(obs, "progress_since_restart"):
            return result("CONTINUE", "prevent_restart_without_progress")
        if not flag(obs, "transfer_supported"):
            return result("MANUAL_HANDOFF", "no_authoritative_ownership_transfer")
        if not (flag(obs, "fresh_create_supported") and flag(obs, "target_read_supported")):
            return result("MANUAL_HANDOFF", "native_transport_unavailable")
        return result("CREATE_FRESH", "record_identity_and_receipt_before_retry")
    # 18
    if not flag(obs, "ack_matches"):
        return result("VERIFY_TARGET", "exact_goal_checkpoint_and_target_ack_required")
    if not flag(obs, "transfer_supported"):
        return result("MANUAL_HANDOFF", "no_authoritative_ownership_transfer")
    return result("COMMIT_TRANSFER", "conditional_transfer_required_target_stays_readonly")


INVALID = {"action": "BLOCKED", "reason": "invalid_input"}


def respond(raw):
    """The helper's work on raw stdin bytes: ``(printed line, exit status)``. Raises what
    the helper does not catch."""
    try:
        if len(raw) > LIMIT:
            raise ValueError("input larger than 65,536 bytes")
        obs = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return _printed(INVALID)
    return respond_value(obs)


def respond_value(obs):
    """The helper's work after ``json.loads``; raises what the helper does not catch."""
    try:
        if not isinstance(obs, dict):
            raise ValueError("not a JSON object")
        result = evaluate(obs)
    except (ValueError, UnicodeDecodeError):
        result = INVALID
    return _printed(result)  # outside the try, as the helper's print is: an int too long dies


def _printed(result):
    line = json.dumps(result, sort_keys=True)
    return line + "\n", 2 if result["action"] == "BLOCKED" else 0
