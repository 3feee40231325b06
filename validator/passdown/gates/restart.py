"""The ``restart`` gate: the next restart action and its reason, from one observation object.

Owns the decision of ``spec/gates/restart.md``, byte-compatible with the published restart
helper (release v2.2.1): the same ``action``, ``reason`` and ``assessment`` for every input
object, the same printed line and the same exit status (2 for every ``BLOCKED``).

Hooks run this gate on every turn, so the module imports nothing beyond the gate table and
renders its one output line itself.
"""

from passdown.gates._helper_input import parse_like_json_loads
from passdown.gates._table import Decision, InputError

NAME = "restart"
VERSION = "2.2.1"
SUMMARY = "The next restart action and reason from one observation object."
SPEC = "spec/gates/restart.md"
INPUT_SCHEMA = "gates/restart.input.schema.json"
OUTPUT_SCHEMA = "gates/restart.output.schema.json"
MAX_INPUT_BYTES = 65536

#: The 17 actions, in the order the spec lists them; the outcome of a decision is its action.
OUTCOMES = (
    "BLOCKED",
    "VERIFY_TAKEOVER",
    "VERIFY_SOURCE_RELEASE",
    "RECONCILE_ARCHIVE",
    "COMPLETE",
    "ARCHIVE_PENDING",
    "ARCHIVE_SOURCE",
    "RECONCILE_TARGET",
    "FINISH",
    "CHECKPOINT_ONLY",
    "CONTINUE",
    "WAIT_SAFE_BOUNDARY",
    "CHECKPOINT",
    "MANUAL_HANDOFF",
    "CREATE_FRESH",
    "VERIFY_TARGET",
    "COMMIT_TRANSFER",
)

#: The 30 reasons, in the order the spec lists them.
REASONS = (
    "invalid_input",
    "unsupported_schema",
    "source_identity",
    "goal_identity",
    "committed_target_identity",
    "source_remains_readonly",
    "do_not_archive_an_unreleased_source",
    "target_owns_work_never_recreate",
    "takeover_and_archive_verified",
    "target_owns_work_source_remains_readonly",
    "archive_exact_source_only",
    "never_retry_uncertain_create",
    "creation_status",
    "target_identity",
    "unexpected_target",
    "remaining_work",
    "required_budget_unmeasurable",
    "invalid_mode",
    "restart_not_authorized",
    "no_observed_trigger",
    "writes_or_operations_not_released",
    "persist_and_verify_current_state",
    "restart_does_not_pay_back",
    "benefit_unmeasured",
    "prevent_restart_without_progress",
    "no_authoritative_ownership_transfer",
    "native_transport_unavailable",
    "record_identity_and_receipt_before_retry",
    "exact_goal_checkpoint_and_target_ack_required",
    "conditional_transfer_required_target_stays_readonly",
)

_INF = float("inf")
_MODES = ("off", "adaptive", "daily")
_BASIS = "estimated_token_proxy_not_billing"


def run(raw):
    """Decide raw stdin bytes: at most 65,536 bytes holding one JSON object, read as the
    helper reads them (UTF-8, UTF-16 or UTF-32, RST-006)."""
    try:
        value = parse_like_json_loads(raw, MAX_INPUT_BYTES)
    except InputError:
        return _plain("BLOCKED", "invalid_input")
    return decide(value)


def decide(value):
    """The decision for one parsed observation; never raises."""
    try:
        return _decide(value)
    except Exception:  # noqa: BLE001 - an integer too large for a double (RST-043), a
        # result too long to print (RST-045), a value no JSON text holds
        return _plain("BLOCKED", "invalid_input")


def _plain(action, reason):
    """A result returned before the assessment step: no ``assessment`` key at all."""
    return Decision(
        {"action": action, "reason": reason},
        action,
        2 if action == "BLOCKED" else 0,
        f'{{"action": "{action}", "reason": "{reason}"}}\n',
    )


def _usable(number):
    # A JSON integer or float (a boolean's type is bool), 0 <= number < +inf: NaN fails.
    kind = type(number)
    return (kind is int or kind is float) and 0 <= number < _INF


def _named(text):
    return isinstance(text, str) and bool(text.strip())


def _decide(obs):
    if not isinstance(obs, dict):
        return _plain("BLOCKED", "invalid_input")
    get = obs.get

    schema = get("schema")
    if type(schema) is not int or schema != 1:
        return _plain("BLOCKED", "unsupported_schema")
    source_id = get("source_id")
    if not _named(source_id):
        return _plain("BLOCKED", "source_identity")
    if not _named(get("goal_id")):
        return _plain("BLOCKED", "goal_identity")

    target_id = get("target_id")
    if get("ownership_committed") is True:
        if not _named(target_id) or target_id == source_id:
            return _plain("BLOCKED", "committed_target_identity")
        if get("target_takeover_readback") is not True or get("ack_matches") is not True:
            return _plain("VERIFY_TAKEOVER", "source_remains_readonly")
        if get("source_retired_readback") is not True:
            return _plain("VERIFY_SOURCE_RELEASE", "do_not_archive_an_unreleased_source")
        if get("archive_status") == "unknown":
            return _plain("RECONCILE_ARCHIVE", "target_owns_work_never_recreate")
        if get("source_archived_readback") is True:
            return _plain("COMPLETE", "takeover_and_archive_verified")
        if get("archive_authorized") is not True or get("archive_supported") is not True:
            return _plain("ARCHIVE_PENDING", "target_owns_work_source_remains_readonly")
        return _plain("ARCHIVE_SOURCE", "archive_exact_source_only")

    creation = get("creation_status")
    if creation == "unknown":
        return _plain("RECONCILE_TARGET", "never_retry_uncertain_create")
    not_sent = creation == "not_sent"
    if not not_sent and creation != "confirmed":
        return _plain("BLOCKED", "creation_status")
    if not_sent:
        if target_id:
            return _plain("RECONCILE_TARGET", "unexpected_target")
    elif not _named(target_id) or target_id == source_id:
        return _plain("BLOCKED", "target_identity")

    remaining = get("remaining_work")
    if remaining is not True:
        if remaining is False:
            return _plain("FINISH", "remaining_work")
        return _plain("BLOCKED", "remaining_work")
    if get("required_budget_unmeasurable") is True:
        return _plain("BLOCKED", "required_budget_unmeasurable")
    mode = get("mode")
    if mode not in _MODES:
        return _plain("BLOCKED", "invalid_mode")
    if mode == "off" or get("policy_authorized") is not True:
        return _plain("CHECKPOINT_ONLY", "restart_not_authorized")

    # Step 13: the assessment. Python arithmetic on purpose: int stays int, float stays
    # float, a float overflow gives +/-inf, an int too large for a float raises (RST-043).
    current = get("current_input_tokens")
    fresh = get("fresh_input_tokens")
    overhead = get("restart_overhead_tokens")
    calls = get("remaining_calls")
    capacity = get("context_capacity_tokens")
    current_ok = _usable(current)
    fresh_ok = _usable(fresh)
    measured = current_ok and fresh_ok and _usable(overhead) and _usable(calls)
    pays_back = False
    if measured:
        horizon = min(calls, 3)
        avoided = (current - fresh) * horizon
        pays_back = horizon >= 1 and avoided > 2 * overhead
    occupancy = None
    if current_ok and _usable(capacity) and capacity != 0:
        occupancy = current / capacity
    pressure = get("context_pressure") is True or (occupancy is not None and occupancy >= 0.70)
    smaller = current_ok and current > 0 and fresh_ok and fresh <= 0.80 * current
    health = pressure and smaller
    explicit = get("explicit_restart") is True
    compactions = get("compactions")
    age = get("session_age_seconds")
    triggered = (
        explicit
        or pressure
        or pays_back
        or (_usable(compactions) and compactions >= 2)
        or (mode == "daily" and _usable(age) and age >= 86400)
    )
    action, reason = _after_assessment(get, not_sent, triggered, explicit, measured, pays_back,
                                       health)
    if measured:
        net = avoided - overhead
        text = (
            f'{{"action": "{action}", "assessment": {{"basis": "{_BASIS}", "context_occupancy": '
            f'{_number(occupancy)}, "context_pressure": {_BOOL[pressure]}, '
            f'"estimated_net_tokens_saved": {_number(net)}, '
            f'"health_rotation_qualified": {_BOOL[health]}, "horizon_calls": {_number(horizon)}, '
            f'"materially_smaller_start": {_BOOL[smaller]}, '
            f'"pays_back_with_margin": {_BOOL[pays_back]}}}, "reason": "{reason}"}}\n'
        )
        assessment = {
            "basis": _BASIS,
            "context_occupancy": occupancy,
            "context_pressure": pressure,
            "estimated_net_tokens_saved": net,
            "health_rotation_qualified": health,
            "horizon_calls": horizon,
            "materially_smaller_start": smaller,
            "pays_back_with_margin": pays_back,
        }
    else:
        text = (
            f'{{"action": "{action}", "assessment": {{"context_occupancy": {_number(occupancy)}, '
            f'"context_pressure": {_BOOL[pressure]}, "health_rotation_qualified": {_BOOL[health]}, '
            f'"materially_smaller_start": {_BOOL[smaller]}}}, "reason": "{reason}"}}\n'
        )
        assessment = {
            "context_occupancy": occupancy,
            "context_pressure": pressure,
            "health_rotation_qualified": health,
            "materially_smaller_start": smaller,
        }
    return Decision({"action": action, "assessment": assessment, "reason": reason}, action, 0, text)


def _after_assessment(get, not_sent, triggered, explicit, measured, pays_back, health):
    """Steps 14 to 18: ``(action, reason)``; every one of them carries the assessment."""
    if not_sent and not triggered:
        return "CONTINUE", "no_observed_trigger"
    if (
        get("safe_boundary") is not True
        or not _zero(get("active_writers"))
        or not _zero(get("pending_operations"))
    ):
        return "WAIT_SAFE_BOUNDARY", "writes_or_operations_not_released"
    if get("checkpoint_readback") is not True or get("checkpoint_current") is not True:
        return "CHECKPOINT", "persist_and_verify_current_state"
    transfer = get("transfer_supported") is True
    if not_sent:
        if not explicit and not pays_back and not health:
            if measured:
                return "CONTINUE", "restart_does_not_pay_back"
            return "CHECKPOINT_ONLY", "benefit_unmeasured"
        if not explicit and get("progress_since_restart") is not True:
            return "CONTINUE", "prevent_restart_without_progress"
        if not transfer:
            return "MANUAL_HANDOFF", "no_authoritative_ownership_transfer"
        if get("fresh_create_supported") is not True or get("target_read_supported") is not True:
            return "MANUAL_HANDOFF", "native_transport_unavailable"
        return "CREATE_FRESH", "record_identity_and_receipt_before_retry"
    if get("ack_matches") is not True:
        return "VERIFY_TARGET", "exact_goal_checkpoint_and_target_ack_required"
    if not transfer:
        return "MANUAL_HANDOFF", "no_authoritative_ownership_transfer"
    return "COMMIT_TRANSFER", "conditional_transfer_required_target_stays_readonly"


_BOOL = {True: "true", False: "false"}


def _zero(count):
    return _usable(count) and count == 0


def _number(value):
    """A number as ``json.dumps`` writes it (an int too long to print raises ValueError)."""
    if value is None:
        return "null"
    if isinstance(value, int):
        return int.__repr__(value)
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)
