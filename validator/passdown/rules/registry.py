"""Semantic rules of the restart registry (spec/registry.md): restart attempts (unique ids,
each state consistent with its step records, the steps in their order, identities that agree,
one open attempt at a time, fencing epochs that only grow), display titles consistent with
their base, start and zone, the observation's goal, timestamps, digests and the spec version.
"""

from __future__ import annotations

from passdown._findings import WARNING
from passdown.formats import _title
from passdown.formats._values import is_relative_path
from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import (
    blank,
    canonical_hits,
    quoted,
    register_digest_rules,
    register_timestamp_rule,
    register_version_rules,
    repeated,
    top_level_version,
)

KIND = "registry"
#: Attempt states in which the transfer is still under way; at most one attempt may be open.
OPEN_STATES = ("registered", "creation_unknown", "created", "acknowledged", "committed")


# -- reading ---------------------------------------------------------------------------------

def _list(data, name) -> list:
    value = data.get(name) if isinstance(data, dict) else None
    return value if isinstance(value, list) else []


def _record(attempt: dict, name: str) -> dict | None:
    value = attempt.get(name)
    return value if isinstance(value, dict) else None


def attempts(data):
    """``(index, attempt)`` for every attempt that is an object."""
    return [(i, a) for i, a in enumerate(_list(data, "attempts")) if isinstance(a, dict)]


def _creation_status(attempt: dict):
    creation = _record(attempt, "creation")
    return creation.get("status") if creation else None


def _archive_status(attempt: dict):
    archive = _record(attempt, "archive")
    return archive.get("status") if archive else None


def _ack_matched(attempt: dict) -> bool:
    ack = _record(attempt, "ack")
    return bool(ack) and ack.get("matches") is True


def _takeover_verified(attempt: dict) -> bool:
    takeover = _record(attempt, "takeover")
    return bool(takeover) and takeover.get("verified") is True


def _committed_epoch(attempt: dict):
    ownership = _record(attempt, "ownership")
    epoch = ownership.get("fencing_epoch") if ownership else None
    return epoch if isinstance(epoch, int) and not isinstance(epoch, bool) else None


# The step records, in transfer order: (what a state needs, test).
_CONFIRMED = ("creation confirmed", lambda a: _creation_status(a) == "confirmed")
_MATCHED = ("an ACK that matched", _ack_matched)
_COMMITTED = ("an ownership commit", lambda a: _record(a, "ownership") is not None)
_TAKEN_OVER = ("a verified takeover readback", _takeover_verified)
_NO_ACK = ("no ACK", lambda a: a.get("ack") is None)
_NO_COMMIT = ("no ownership commit", lambda a: a.get("ownership") is None)
_NO_TAKEOVER = ("no takeover readback", lambda a: a.get("takeover") is None)
_NOT_ARCHIVING = ("archive NOT_STARTED", lambda a: _archive_status(a) == "NOT_STARTED")

# What each attempt state requires: every step up to the one it names, none after it.
_STATE_NEEDS = {
    "registered": (("creation not_sent", lambda a: _creation_status(a) == "not_sent"),
                   _NO_ACK, _NO_COMMIT, _NO_TAKEOVER, _NOT_ARCHIVING),
    "creation_unknown": (("creation unknown", lambda a: _creation_status(a) == "unknown"),
                         _NO_ACK, _NO_COMMIT, _NO_TAKEOVER, _NOT_ARCHIVING),
    "created": (_CONFIRMED, ("no matching ACK", lambda a: not _ack_matched(a)),
                _NO_COMMIT, _NO_TAKEOVER, _NOT_ARCHIVING),
    "acknowledged": (_CONFIRMED, _MATCHED, _NO_COMMIT, _NO_TAKEOVER, _NOT_ARCHIVING),
    "committed": (_CONFIRMED, _MATCHED, _COMMITTED, _NO_TAKEOVER, _NOT_ARCHIVING),
    "taken_over": (_CONFIRMED, _MATCHED, _COMMITTED, _TAKEN_OVER,
                   ("archive not yet ARCHIVED", lambda a: _archive_status(a) != "ARCHIVED")),
    "completed": (_CONFIRMED, _MATCHED, _COMMITTED, _TAKEN_OVER,
                  ("archive ARCHIVED", lambda a: _archive_status(a) == "ARCHIVED")),
    # An attempt may stop at any step before the commit; after it, the target owns the work.
    "abandoned": (_NO_COMMIT,),
}


# -- rules -----------------------------------------------------------------------------------

register_version_rules(KIND, top_level_version)
register_timestamp_rule(KIND)


def _digests(artifact: Artifact):
    for index, attempt in attempts(artifact.data):
        for name in ("checkpoint_digest", "continue_checkpoint_digest"):
            if name in attempt:
                yield ("attempts", index, name), attempt[name], None
        ack = _record(attempt, "ack")
        if ack and "ack_digest" in ack:
            yield ("attempts", index, "ack", "ack_digest"), ack["ack_digest"], None


register_digest_rules(KIND, _digests)


@rule(KIND, "registry.duplicate_restart_id", requirement="REG-007",
      summary="every restart attempt has its own restart id",
      hint="reuse the existing attempt (repeated triggers reuse one attempt) "
           "or give a new attempt a new restart id")
def _duplicate_restart_id(artifact: Artifact):
    for index, restart_id, first in repeated(attempts(artifact.data), "restart_id"):
        yield Hit(("attempts", index, "restart_id"),
                  f"the restart id {quoted(restart_id)} is already used by attempts[{first}]")


@rule(KIND, "registry.attempt_state", requirement="REG-009",
      summary="an attempt's state agrees with its step records",
      hint="set `state` to the furthest step the records show, or fix the records")
def _attempt_state(artifact: Artifact):
    for index, attempt in attempts(artifact.data):
        state = attempt.get("state")
        needs = _STATE_NEEDS.get(state) if isinstance(state, str) else None
        if needs is None:
            continue
        missing = [what for what, holds in needs if not holds(attempt)]
        if missing:
            yield Hit(("attempts", index, "state"),
                      f"state {state} needs {', '.join(missing)}")


def _recorded_too_early(artifact: Artifact, step: str, ready, message):
    """A hit on every attempt that records ``step`` while ``ready(attempt)`` does not hold:
    a step of the protocol recorded before the step it depends on."""
    for index, attempt in attempts(artifact.data):
        if attempt.get(step) is not None and not ready(attempt):
            yield Hit(("attempts", index, step), message(attempt))


@rule(KIND, "registry.ack_before_creation", requirement="REG-010",
      summary="an ACK is recorded only after creation was confirmed",
      hint="confirm the target's creation receipt first; an ACK from an unconfirmed target "
           "cannot be trusted")
def _ack_before_creation(artifact: Artifact):
    return _recorded_too_early(
        artifact, "ack", lambda attempt: _creation_status(attempt) == "confirmed",
        lambda attempt: f"an ACK is recorded while creation is {quoted(str(_creation_status(attempt)))}")


@rule(KIND, "registry.commit_before_ack", requirement="REG-011",
      summary="ownership is committed only after an ACK that matched",
      hint="keep the target read-only until its READY_READONLY ACK matched a fresh readback")
def _commit_before_ack(artifact: Artifact):
    return _recorded_too_early(artifact, "ownership", _ack_matched,
                               lambda _: "ownership is committed without an ACK that matched")


@rule(KIND, "registry.takeover_before_commit", requirement="REG-012",
      summary="a takeover readback is recorded only after the ownership commit",
      hint="record the conditional ownership transfer before the target's takeover readback")
def _takeover_before_commit(artifact: Artifact):
    return _recorded_too_early(
        artifact, "takeover", lambda attempt: attempt.get("ownership") is not None,
        lambda _: "a takeover readback is recorded without an ownership commit")


@rule(KIND, "registry.archive_before_takeover", requirement="REG-013",
      summary="the source is archived only after a verified takeover",
      hint="leave archive NOT_STARTED until the target's takeover readback is verified")
def _archive_before_takeover(artifact: Artifact):
    for index, attempt in attempts(artifact.data):
        status = _archive_status(attempt)
        if isinstance(status, str) and status != "NOT_STARTED" and not _takeover_verified(attempt):
            yield Hit(("attempts", index, "archive", "status"),
                      f"archive is {quoted(status)} without a verified takeover readback")


@rule(KIND, "registry.target_identity", requirement="REG-014",
      summary="a confirmed creation names a target, other than the source",
      hint="record the exact target session id read back from the host")
def _target_identity(artifact: Artifact):
    for index, attempt in attempts(artifact.data):
        if _creation_status(attempt) != "confirmed":
            continue
        target, source = attempt.get("target_id"), attempt.get("source_id")
        if blank(target):
            yield Hit(("attempts", index, "target_id"), "creation is confirmed but no target is named")
        elif target == source:
            yield Hit(("attempts", index, "target_id"), "the target is the source itself")


@rule(KIND, "registry.receipt_mismatch", requirement="REG-015",
      summary="the creation receipt names the attempt's target",
      hint="the receipt is the evidence for target_id: make them agree, or reconcile the attempt")
def _receipt_mismatch(artifact: Artifact):
    for index, attempt in attempts(artifact.data):
        creation = _record(attempt, "creation")
        receipt = creation.get("receipt") if creation else None
        if isinstance(receipt, dict) and isinstance(receipt.get("target_id"), str) \
                and receipt["target_id"] != attempt.get("target_id"):
            yield Hit(("attempts", index, "creation", "receipt", "target_id"),
                      "the receipt names another session than target_id")


@rule(KIND, "registry.ownership_mismatch", requirement="REG-016",
      summary="ownership moves from the attempt's exact source to its exact target",
      hint="a commit must name the attempt's source_id as from_id and target_id as to_id")
def _ownership_mismatch(artifact: Artifact):
    for index, attempt in attempts(artifact.data):
        ownership = _record(attempt, "ownership")
        if not ownership:
            continue
        for end, expected in (("from_id", "source_id"), ("to_id", "target_id")):
            value = ownership.get(end)
            if isinstance(value, str) and value != attempt.get(expected):
                yield Hit(("attempts", index, "ownership", end), f"{end} is not the attempt's {expected}")


@rule(KIND, "registry.concurrent_attempts", requirement="REG-017",
      summary="at most one attempt is open at a time",
      hint="finish, reconcile or abandon the open attempt before registering another; "
           "never create a second successor")
def _concurrent(artifact: Artifact):
    first = None
    for index, attempt in attempts(artifact.data):
        if attempt.get("state") in OPEN_STATES:
            if first is None:
                first = index
            else:
                yield Hit(("attempts", index, "state"),
                          f"another attempt is open while attempts[{first}] is still open")


@rule(KIND, "registry.fencing_regressed", requirement="REG-018",
      summary="each ownership commit carries a fencing epoch greater than every earlier one",
      hint="issue a new, higher fencing epoch with every committed transfer")
def _fencing_regressed(artifact: Artifact):
    highest = None
    for index, attempt in attempts(artifact.data):
        epoch = _committed_epoch(attempt)
        if epoch is None:
            continue
        if highest is not None and epoch <= highest:
            yield Hit(("attempts", index, "ownership", "fencing_epoch"),
                      f"fencing epoch {epoch} is not greater than the earlier {highest}")
        highest = epoch if highest is None else max(highest, epoch)


@rule(KIND, "registry.fencing_behind", requirement="REG-019",
      summary="the registry's fencing epoch is at least every committed epoch",
      hint="set fencing_epoch to the epoch of the latest committed transfer")
def _fencing_behind(artifact: Artifact):
    current = artifact.data.get("fencing_epoch") if isinstance(artifact.data, dict) else None
    if not isinstance(current, int) or isinstance(current, bool):
        return
    epochs = [e for _, a in attempts(artifact.data) if (e := _committed_epoch(a)) is not None]
    if epochs and max(epochs) > current:
        yield Hit(("fencing_epoch",), f"fencing_epoch {current} is behind the committed epoch "
                                      f"{max(epochs)}")


@rule(KIND, "registry.display_title", requirement="REG-020",
      summary="display titles read `<title_base> | started DD-MM`, the date in the record's zone",
      hint="recompute the title with `passdown gate title` from title_base, started_at and timezone")
def _display_title(artifact: Artifact):
    data = artifact.data
    policy = data.get("policy") if isinstance(data, dict) else None
    policy_zone = policy.get("timezone") if isinstance(policy, dict) else None
    rows = [(("titles", i), r, r.get("timezone")) for i, r in enumerate(_list(data, "titles"))
            if isinstance(r, dict)]
    rows += [(("sessions", i), r, policy_zone) for i, r in enumerate(_list(data, "sessions"))
             if isinstance(r, dict)]
    for path, row, zone in rows:
        base, started, shown = row.get("title_base"), row.get("started_at"), row.get("display_title")
        if isinstance(base, str) and _has_suffix(base):
            yield Hit(path + ("title_base",), "title_base still carries a ` | started DD-MM` suffix")
            continue
        if not all(isinstance(v, str) for v in (base, started, shown, zone)):
            continue
        expected = format_title(base, started, zone)
        if expected is not None and shown != expected:
            yield Hit(path + ("display_title",),
                      f"display_title should read {quoted(expected)}")


@rule(KIND, "registry.title_status", requirement="REG-021",
      summary="a VERIFIED title has a start time and a display title",
      hint="record started_at and display_title, or set title_status to UNAVAILABLE")
def _title_status(artifact: Artifact):
    for index, row in enumerate(_list(artifact.data, "titles")):
        if isinstance(row, dict) and row.get("title_status") == "VERIFIED":
            for name in ("started_at", "display_title"):
                if row.get(name) is None:
                    yield Hit(("titles", index, name), f"a VERIFIED title has no {name}")


@rule(KIND, "registry.timezone", requirement="REG-022",
      summary="time zones are IANA names this system knows (UTC always)",
      hint="use an IANA zone name such as Europe/Warsaw, or UTC")
def _timezone(artifact: Artifact):
    data = artifact.data
    places = []
    if isinstance(data, dict) and isinstance(data.get("policy"), dict):
        places.append((("policy", "timezone"), data["policy"].get("timezone")))
    places += [(("titles", i, "timezone"), r.get("timezone"))
               for i, r in enumerate(_list(data, "titles")) if isinstance(r, dict)]
    for path, zone in places:
        if isinstance(zone, str) and (_title.zone(zone) is None or not _title.spelt_as_listed(zone)):
            yield Hit(path, f"{quoted(zone)} is not a known time zone")


@rule(KIND, "registry.goal_mismatch", requirement="REG-024",
      summary="the observation concerns the policy's goal",
      hint="observe the goal the registry governs; another goal has its own registry")
def _goal_mismatch(artifact: Artifact):
    data = artifact.fields
    policy, observation = data.get("policy"), data.get("observation")
    inputs = observation.get("inputs") if isinstance(observation, dict) else None
    goal = policy.get("goal_id") if isinstance(policy, dict) else None
    observed = inputs.get("goal_id") if isinstance(inputs, dict) else None
    if isinstance(goal, str) and isinstance(observed, str) and goal != observed:
        yield Hit(("observation", "inputs", "goal_id"), "the observed goal is not the policy's goal")


@rule(KIND, "registry.path_escape", requirement="REG-027",
      summary="the checkpoint path stays inside the registry's folder",
      hint="name the checkpoint relative to the registry, inside its folder, with / "
           "separators: e.g. xbrief/continue.xbrief.json")
def _path_escape(artifact: Artifact):
    data = artifact.fields
    policy = data.get("policy")
    path = policy.get("checkpoint_path") if isinstance(policy, dict) else None
    if isinstance(path, str) and not is_relative_path(path):
        yield Hit(("policy", "checkpoint_path"),
                  f"{quoted(path)} is not a path inside the registry's folder (absolute, `..`, "
                  "`.`, an empty segment, a backslash or a drive letter): a reader will not "
                  "follow it")


@rule(KIND, "registry.main_unknown", requirement="REG-026", severity=WARNING,
      summary="the policy's MAIN session has a session row",
      hint="add a session row for the MAIN session named in the policy")
def _main_unknown(artifact: Artifact):
    data = artifact.fields
    policy = data.get("policy")
    main = policy.get("main_id") if isinstance(policy, dict) else None
    threads = {r["thread_id"] for r in _list(data, "sessions")
               if isinstance(r, dict) and isinstance(r.get("thread_id"), str)}
    if isinstance(main, str) and main not in threads:
        yield Hit(("policy", "main_id"), "no session row has the MAIN session's thread_id")


# -- titles ----------------------------------------------------------------------------------

def _has_suffix(base: str) -> bool:
    stripped = base.strip()
    return _title.strip_date_suffixes(stripped) != stripped


def format_title(base: str, started_at: str, zone_name: str) -> str | None:
    """``<base> | started DD-MM`` exactly as the title gate formats it; None when the gate
    answers TITLE_UNAVAILABLE (an unreadable start or an unknown zone: other rules say which)."""
    try:
        output = _title.formatted(base, started_at, zone_name)
    except Exception:  # noqa: BLE001 - as the gate: a start outside the calendar (TTL-016)
        return None
    return None if output is None else output["display_title"]


@rule(KIND, "registry.not_canonical", requirement="REG-028",
      summary="every value has canonical bytes, so the registry has a digest",
      hint="keep integers (a revision, a fencing epoch) within 2**53 - 1: JCS reads every "
           "number as a double")
def _not_canonical(artifact: Artifact):
    return canonical_hits(artifact.data, (), "the registry")
