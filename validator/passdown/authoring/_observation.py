"""The restart registry's records of what was observed and decided (spec/registry.md, REG-100 to
REG-104): the latest ``observation`` and ``decision`` (PRC-043), the restart recommendations
already made without consent (``recommendations``, PRC-100), the estimate that justified the
last restart and the calibration records after each takeover (``calibration``, PRC-046,
PRC-101), and the policy's consent (``passdown registry policy``).

Each call is one compare-and-swap step of :func:`passdown.authoring._store.update`; recording
the same observation and decision again changes nothing (the revision stays).
"""

from __future__ import annotations

from passdown.authoring import _attempt, _registry, _store
from passdown.errors import UsageError
from passdown.formats._clock import utc_now

#: The most recommendations kept (the oldest dropped first).
MAX_RECOMMENDATIONS = 32
#: The most calibration records kept.
MAX_CALIBRATIONS = 32
#: The decisions after which a fresh session is being made: the estimate that justified it is
#: kept for the calibration after the takeover.
RESTARTING = ("CREATE_FRESH", "MANUAL_HANDOFF")


def read(path) -> dict:
    """The registry at ``path`` (refused with the authoring codes when unreadable)."""
    return _store.read(path, _store.REGISTRY)


def calibration_factor(registry) -> tuple:
    """``(factor, record)`` of the latest calibration record, or ``(None, None)``: the
    observed start-up divided by the estimate, which the next estimate is multiplied by."""
    calibration = registry.get("calibration") if isinstance(registry, dict) else None
    records = calibration.get("records") if isinstance(calibration, dict) else None
    for record in reversed(records if isinstance(records, list) else []):
        factor = record.get("factor") if isinstance(record, dict) else None
        if isinstance(factor, (int, float)) and not isinstance(factor, bool) and factor > 0:
            return factor, {"restart_id": record.get("restart_id"), "factor": factor}
    return None, None


def _same(registry, observation, decision) -> bool:
    old, before = registry.get("observation"), registry.get("decision")
    if not isinstance(old, dict) or not isinstance(before, dict):
        return False
    # the session's age grows by itself: an observation that differs only by it is the same
    def aged(inputs):
        return {key: value for key, value in (inputs or {}).items() if key != "session_age_seconds"} \
            if isinstance(inputs, dict) else inputs

    keys = ("session_id", "source", "basis")
    return all(old.get(key) == observation.get(key) for key in keys) \
        and aged(old.get("inputs")) == aged(observation.get("inputs")) and all(
        before.get(key) == decision.get(key) for key in ("action", "reason", "assessment"))


def _recommendations(registry) -> list:
    found = registry.get("recommendations")
    if not isinstance(found, list):
        found = registry["recommendations"] = []
    return found


def record_assessment(registry_path, *, observation: dict, decision: dict,
                      condition: str | None = None, expect_revision: int | None = None):
    """Record ``observation`` (session_id, source, observed_at, inputs, basis) and
    ``decision`` (action, reason, decided_at, assessment) in one step. ``condition`` names a
    restart that qualifies but has no consent: it is recorded as recommended once per session
    and condition. The outcome's result says ``previous`` (the decision before),
    ``recommend`` (whether this call is the first for ``condition``) and ``pending`` (the
    estimate kept for calibration)."""
    seen = {}

    def change(registry):
        previous = registry.get("decision")
        seen["previous"] = dict(previous) if isinstance(previous, dict) else None
        recommend = False
        if condition is not None:
            made = _recommendations(registry)
            key = {"session_id": observation["session_id"], "condition": condition}
            if not any(isinstance(entry, dict) and entry.get("session_id") == key["session_id"]
                       and entry.get("condition") == condition for entry in made):
                made.append({**key, "recommended_at": decision["decided_at"]})
                del made[:-MAX_RECOMMENDATIONS]
                recommend = True
        if not _same(registry, observation, decision):
            registry["observation"] = observation
            registry["decision"] = decision
        if decision["action"] in RESTARTING and "fresh_input_tokens" in observation["inputs"]:
            calibration = registry.setdefault("calibration", {"pending": None, "records": []})
            pending = {"source_id": observation["session_id"],
                       "fresh_input_tokens": observation["inputs"]["fresh_input_tokens"],
                       "method": observation["source"], "observed_at": observation["observed_at"]}
            old = calibration.get("pending")
            if not (isinstance(old, dict) and old.get("source_id") == pending["source_id"]
                    and old.get("fresh_input_tokens") == pending["fresh_input_tokens"]):
                calibration["pending"] = pending
        return _store.Change(
            message=f"recorded {decision['action']} ({decision['reason']}) for "
                    f"{observation['session_id']}",
            unchanged_message="the same observation and decision are already recorded",
            result={"previous": seen["previous"], "recommend": recommend})

    return _store.update(registry_path, _store.REGISTRY, change, command="assess",
                         expect_revision=expect_revision)


def record_calibration(registry_path, *, target_id: str, observed_tokens: int, source: str):
    """After a takeover by ``target_id``: record its observed start-up beside the estimate
    that justified the restart, with the error, once per attempt. Nothing changes when no
    taken-over attempt names the target, no estimate was kept, or it is recorded already."""

    def change(registry):
        attempt = next((entry for entry in reversed(registry.get("attempts") or [])
                        if isinstance(entry, dict) and entry.get("target_id") == target_id
                        and entry.get("state") == _attempt.TAKEN_OVER), None)
        calibration = registry.get("calibration")
        pending = calibration.get("pending") if isinstance(calibration, dict) else None
        unchanged = "no calibration to record (no taken-over attempt of this target, or no " \
                    "kept estimate, or recorded already)"
        if attempt is None or not isinstance(pending, dict) \
                or pending.get("source_id") != attempt.get("source_id"):
            return _store.Change(unchanged_message=unchanged, result={"recorded": None})
        records = calibration.setdefault("records", [])
        if any(isinstance(entry, dict) and entry.get("restart_id") == attempt.get("restart_id")
               for entry in records):
            return _store.Change(unchanged_message=unchanged, result={"recorded": None})
        estimated = pending["fresh_input_tokens"]
        entry = {"restart_id": attempt.get("restart_id"), "source_id": attempt.get("source_id"),
                 "target_id": target_id, "estimated_fresh_input_tokens": estimated,
                 "estimate_method": pending.get("method"),
                 "observed_startup_tokens": observed_tokens, "observed_source": source,
                 "error_tokens": observed_tokens - estimated,
                 "factor": round(observed_tokens / estimated, 4) if estimated else None,
                 "recorded_at": utc_now()}
        records.append(entry)
        del records[:-MAX_CALIBRATIONS]
        calibration["pending"] = None
        return _store.Change(message=f"recorded the start-up of {target_id}: {observed_tokens} "
                                     f"tokens observed, {estimated} estimated",
                             result={"recorded": entry})

    return _store.update(registry_path, _store.REGISTRY, change, command="observe")


def set_policy(registry_path, *, mode: str, scope: str | None = None,
               archive_consent: bool | None = None, expect_revision: int | None = None):
    """``passdown registry policy``: record the owner's restart consent (mode and scope)."""
    if mode not in _registry.MODES:
        raise UsageError(f"mode {mode!r} is not one of {', '.join(_registry.MODES)}",
                         code="authoring.bad_value", hint="choose off, adaptive or daily")
    if mode != "off" and not (scope or "").strip():
        raise UsageError(f"mode {mode!r} needs the owner's authorization scope",
                         code="authoring.no_scope",
                         hint="pass --scope with what the owner's consent covers")

    def change(registry):
        policy = _registry.policy_of(registry)
        before = (policy.get("mode"), policy.get("authorization_scope"), policy.get("archive_consent"))
        policy["mode"] = mode
        if scope is not None:
            policy["authorization_scope"] = scope
        elif mode == "off":
            policy["authorization_scope"] = "none: restarts are not authorized"
        if archive_consent is not None:
            policy["archive_consent"] = archive_consent
        if (policy.get("mode"), policy.get("authorization_scope"),
                policy.get("archive_consent")) != before:
            policy["recorded_at"] = utc_now()
        return _store.Change(message=f"policy: {mode} ({policy['authorization_scope']})",
                             unchanged_message="the policy is already recorded so",
                             result={"policy": policy})

    return _store.update(registry_path, _store.REGISTRY, change, command="registry policy",
                         expect_revision=expect_revision)
