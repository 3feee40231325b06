"""One restart attempt's steps, as changes to the registry: register (before anything is
sent), creation receipt or UNKNOWN, reconcile, ACK, ownership commit with a new fencing
epoch, takeover readback, source release, archive (or ARCHIVE_PENDING), abandon.

Each step checks the attempt's state first and refuses with an ``attempt.*`` code when the
state does not allow it; the order is the restart gate's (spec/gates/restart.md): an UNKNOWN
creation is reconciled, never retried; nothing is archived before takeover and source
release; a committed transfer is never rolled back. The same step again with the same values
changes nothing; with other values it is ``attempt.conflict``.
"""

from __future__ import annotations

from passdown.formats._digest import CONTINUE_DIGEST_FIELD as CONTINUE_DIGEST
from passdown.formats._fastjson import shown
from passdown.errors import ConflictError, RefusedError, UsageError
from passdown.authoring import _registry, _store
from passdown.authoring._ids import new_ulid
from passdown.authoring._store import Change
from passdown.workspace import _authority
from passdown.formats._clock import utc_now

REGISTERED = "registered"
CREATION_UNKNOWN = "creation_unknown"
CREATED = "created"
ACKNOWLEDGED = "acknowledged"
COMMITTED = "committed"
TAKEN_OVER = "taken_over"
COMPLETED = "completed"
ABANDONED = "abandoned"
#: Every state in the order an attempt moves through them (``abandoned`` ends early).
STATES = (REGISTERED, CREATION_UNKNOWN, CREATED, ACKNOWLEDGED, COMMITTED, TAKEN_OVER,
          COMPLETED, ABANDONED)
_AFTER_CREATION = (CREATED, ACKNOWLEDGED, COMMITTED, TAKEN_OVER, COMPLETED)
_AFTER_ACK = (ACKNOWLEDGED, COMMITTED, TAKEN_OVER, COMPLETED)
_AFTER_COMMIT = (COMMITTED, TAKEN_OVER, COMPLETED)

ARCHIVE_RESULTS = {"archived": "ARCHIVED", "pending": "ARCHIVE_PENDING", "unknown": "UNKNOWN"}

#: State -> the command that moves the attempt on (AUT-089), filled in with the attempt's
#: ``id``, ``source``, ``target`` and committed ``epoch``. A taken-over attempt has two: before
#: and after the source is read back as retired.
NEXT_STEPS = {
    REGISTERED: "passdown attempt created {id} --target-id TARGET (once the host created the target; "
                "--unknown if the create call timed out)",
    CREATION_UNKNOWN: "passdown attempt reconcile {id} --target-id TARGET (or --absent), as the host shows it",
    CREATED: "passdown ack write --target-id {target} (the target), then passdown attempt ack {id} ack.json",
    ACKNOWLEDGED: "passdown attempt commit {id}",
    COMMITTED: "passdown attempt takeover {id} --target-id {target} (the target)",
    TAKEN_OVER: "passdown checkpoint set epoch {epoch} --epoch {epoch}, then passdown attempt release {id}",
    "released": "passdown attempt archive {id} --result archived (or pending without archive consent)",
    "archive_pending": "passdown consume (the target, once it resumed; the source stays unarchived)",
    COMPLETED: "passdown consume (the target, once it resumed)",
    ABANDONED: "passdown packet render --source-id {source} (a new attempt)",
}


def _attempts(registry: dict) -> list:
    attempts = registry.get("attempts")
    if not isinstance(attempts, list):
        raise RefusedError("the registry has no attempts list", code="authoring.bad_shape",
                           hint="run `passdown validate` on the registry")
    return attempts


def find(registry: dict, restart_id: str) -> dict:
    for attempt in _attempts(registry):
        if isinstance(attempt, dict) and attempt.get("restart_id") == restart_id:
            return attempt
    raise RefusedError(f"no restart attempt {shown(restart_id)} in the registry",
                       code="attempt.unknown",
                       hint="`passdown packet render` registers an attempt; `passdown attempt show` "
                            "lists them")


def _state_error(attempt: dict, step: str, allowed: tuple[str, ...], hint: str) -> RefusedError:
    return RefusedError(
        f"attempt {shown(attempt.get('restart_id'))} is {shown(attempt.get('state'))}; {step} needs "
        f"{' or '.join(shown(s) for s in allowed)}",
        code="attempt.state", hint=hint)


def _conflict(attempt: dict, step: str, recorded, given, *, words: bool = False) -> ConflictError:
    """``recorded`` and ``given`` are JSON values, or with ``words`` already phrased text."""
    if not words:
        recorded, given = shown(recorded), shown(given)
    return ConflictError(
        f"attempt {shown(attempt.get('restart_id'))} already recorded {step} as {recorded}, "
        f"not {given}", code="attempt.conflict",
        hint="a recorded step never changes; reconcile by reading the host, or register a "
             "new attempt")


def _identity(value: str | None, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f"the {what} is empty", code="authoring.bad_value",
                         hint=f"give the exact {what}")
    return value


# -- register ------------------------------------------------------------------------------

def register(registry: dict, *, source_id: str, checkpoint_digest: str,
             restart_id: str | None = None, continue_digest: str | None = None) -> Change:
    """Register an attempt before anything is sent. The same source and digests (the packet's
    and the continue checkpoint's) again reuse the open attempt (and its RESTART_ID); a
    registered attempt that was never sent and names other content is abandoned as
    superseded; any attempt further along blocks a new one."""
    _identity(source_id, "source session id")
    current_owner = _registry.owner(registry)
    if source_id != current_owner:
        raise RefusedError(f"{shown(source_id)} does not own the goal's writes; {shown(current_owner)} does",
                           code="attempt.not_owner",
                           hint="only the current owner hands the work on; a session that "
                                "handed over stays read-only")
    attempts = _attempts(registry)
    if restart_id is not None:
        existing = next((a for a in attempts if isinstance(a, dict)
                         and a.get("restart_id") == restart_id), None)
        if existing is not None:
            if not same_content(existing, source_id, checkpoint_digest, continue_digest):
                raise _conflict(existing, "its source and digests",
                                [existing.get("source_id"), existing.get("checkpoint_digest"),
                                 existing.get(CONTINUE_DIGEST)],
                                [source_id, checkpoint_digest, continue_digest])
            return _reused(existing)
    superseded = []
    for attempt in attempts:
        if not isinstance(attempt, dict) or attempt.get("state") not in _registry.LIVE_STATES:
            continue
        if attempt.get("state") != REGISTERED:
            raise RefusedError(
                f"attempt {shown(attempt.get('restart_id'))} is {shown(attempt.get('state'))}",
                code="attempt.in_flight",
                hint="finish, reconcile or abandon that attempt first (`passdown attempt`); "
                     "never start a second successor")
        if restart_id is None and same_content(attempt, source_id, checkpoint_digest,
                                               continue_digest):
            return _reused(attempt)
        superseded.append(attempt)
    new_id = restart_id or new_ulid()
    now = utc_now()
    for attempt in superseded:
        attempt["state"] = ABANDONED
        attempt["note"] = f"superseded before transport by {new_id} (the content changed)"
    record = new_record(new_id, source_id=source_id, checkpoint_digest=checkpoint_digest,
                        registered_at=now)
    if continue_digest is not None:
        record[CONTINUE_DIGEST] = continue_digest
    attempts.append(record)
    return Change(f"registered attempt {new_id}",
                  {"restart_id": new_id, "superseded": [a.get("restart_id") for a in superseded]})


def new_record(restart_id: str, *, source_id: str, checkpoint_digest: str, registered_at: str,
               state: str = REGISTERED, creation: str = "not_sent") -> dict:
    """An attempt record as registration writes it: no step after ``creation`` yet."""
    return {
        "restart_id": restart_id,
        "state": state,
        "checkpoint_digest": checkpoint_digest,
        "source_id": source_id,
        "target_id": None,
        "registered_at": registered_at,
        "creation": {"status": creation, "sent_at": None, "receipt": None},
        "ack": None,
        "ownership": None,
        "takeover": None,
        "archive": {"status": "NOT_STARTED", "updated_at": None},
    }


def same_content(attempt: dict, source_id: str, checkpoint_digest: str,
                 continue_digest: str | None) -> bool:
    """Whether ``attempt`` was registered by ``source_id`` for this packet digest and (when
    given) this continue checkpoint digest: only then is it the same attempt again."""
    return (attempt.get("source_id"), attempt.get("checkpoint_digest")) == (
        source_id, checkpoint_digest) and (
        continue_digest is None or attempt.get(CONTINUE_DIGEST) == continue_digest)


def _reused(attempt: dict) -> Change:
    return Change(result={"restart_id": attempt.get("restart_id"), "superseded": []},
                  unchanged_message=f"attempt {attempt.get('restart_id')} is already registered "
                                    f"for this content")


# -- creation ------------------------------------------------------------------------------

def created(registry: dict, restart_id: str, *, target_id: str | None = None,
            detail: str | None = None, unknown: bool = False) -> Change:
    """The creation receipt: ``target_id`` read back from the host (confirmed), or
    ``unknown`` when the create call timed out (to be reconciled, never retried)."""
    attempt = find(registry, restart_id)
    state = attempt.get("state")
    if unknown:
        if state == CREATION_UNKNOWN:
            return Change(unchanged_message="the creation is already recorded as unknown")
        if state != REGISTERED:
            raise _state_error(attempt, "an unknown creation", (REGISTERED,),
                               "an UNKNOWN outcome is recorded right after the create call")
        attempt["state"] = CREATION_UNKNOWN
        attempt["creation"] = {"status": "unknown", "sent_at": utc_now(), "receipt": None}
        return Change(f"creation of {restart_id} is UNKNOWN: reconcile it, never retry",
                      {"state": CREATION_UNKNOWN})
    target_id = _target(attempt, target_id)
    if state == CREATION_UNKNOWN:
        raise RefusedError(f"the creation of {shown(restart_id)} is unknown",
                           code="attempt.reconcile_required",
                           hint="read the host back and record what it shows with "
                                "`passdown attempt reconcile`; never create another successor")
    if state in _AFTER_CREATION:
        return _same_receipt(attempt, target_id, detail)
    if state != REGISTERED:
        raise _state_error(attempt, "a creation receipt", (REGISTERED,),
                           "register a new attempt with `passdown packet render`")
    _confirm(attempt, target_id, detail)
    return Change(f"successor {target_id} created for {restart_id}", {"state": CREATED})


def _target(attempt: dict, target_id: str | None) -> str:
    target_id = _identity(target_id, "target session id")
    if target_id.strip() == str(attempt.get("source_id", "")).strip():
        raise RefusedError("the target is the source session itself",
                           code="attempt.target_identity",
                           hint="a restart hands the work to a fresh session with its own id")
    return target_id


def _confirm(attempt: dict, target_id: str, detail: str | None) -> None:
    now = utc_now()
    receipt = {"target_id": target_id, "received_at": now}
    if detail is not None:
        receipt["detail"] = detail
    creation = attempt.get("creation") if isinstance(attempt.get("creation"), dict) else {}
    attempt["creation"] = {"status": "confirmed", "sent_at": creation.get("sent_at") or now,
                           "receipt": receipt}
    attempt["target_id"] = target_id
    attempt["state"] = CREATED


def _receipt_words(target_id, detail) -> str:
    said = f"target {shown(target_id)}"
    return f"{said} with detail {shown(detail)}" if detail is not None else f"{said} with no detail"


def _same_receipt(attempt: dict, target_id: str, detail: str | None) -> Change:
    receipt = (attempt.get("creation") or {}).get("receipt") or {}
    recorded = (attempt.get("target_id"), receipt.get("detail"))
    if recorded != (target_id, detail):
        raise _conflict(attempt, "its creation receipt", _receipt_words(*recorded),
                        _receipt_words(target_id, detail), words=True)
    return Change(unchanged_message="this creation receipt is already recorded")


def reconcile(registry: dict, restart_id: str, *, target_id: str | None = None,
              absent: bool = False, detail: str | None = None) -> Change:
    """Settle an UNKNOWN creation by reading the host: the successor exists (``target_id``)
    or it verifiably does not (``absent``: the attempt is abandoned, a new one may start)."""
    attempt = find(registry, restart_id)
    state = attempt.get("state")
    if absent == (target_id is not None):
        raise UsageError("say what the host shows: --target-id ID or --absent",
                         code="authoring.bad_value", hint="give exactly one of the two")
    if absent:
        if state == ABANDONED:
            return Change(unchanged_message="the attempt is already abandoned")
        if state != CREATION_UNKNOWN:
            raise _state_error(attempt, "reconciling an absent successor", (CREATION_UNKNOWN,),
                               "only an UNKNOWN creation is reconciled")
        attempt["state"] = ABANDONED
        attempt["note"] = "reconciled: the host shows no successor for this attempt"
        return Change(f"{restart_id} reconciled: no successor exists; the attempt is abandoned",
                      {"state": ABANDONED})
    target_id = _target(attempt, target_id)
    if state in _AFTER_CREATION:
        return _same_receipt(attempt, target_id, detail)
    if state != CREATION_UNKNOWN:
        raise _state_error(attempt, "reconciling a successor", (CREATION_UNKNOWN,),
                           "only an UNKNOWN creation is reconciled")
    _confirm(attempt, target_id, detail)
    return Change(f"{restart_id} reconciled: successor {target_id} exists", {"state": CREATED})


# -- ACK, commit, takeover -----------------------------------------------------------------

def acknowledge(registry: dict, restart_id: str, *, ack_digest: str,
                failures: tuple[str, ...] = (), skipped: tuple[str, ...] = ()) -> Change:
    """Record a READY_READONLY ACK (its digest) that matched a fresh readback. ``failures``
    are the ACK rule codes the readback found (see :func:`verify_ack`); any refuses it.
    ``skipped`` names the parts of the readback not compared (the checkout, when the caller
    chose not to read one): recorded on the ACK record and said in the message."""
    attempt = find(registry, restart_id)
    state = attempt.get("state")
    if state in _AFTER_ACK:
        recorded = (attempt.get("ack") or {}).get("ack_digest")
        if recorded != ack_digest:
            raise _conflict(attempt, "its ACK", recorded, ack_digest)
        return Change(unchanged_message="this ACK is already recorded")
    if state != CREATED:
        raise _state_error(attempt, "an ACK", (CREATED,),
                           "the ACK comes after the creation receipt")
    if failures:
        raise RefusedError(f"the ACK does not match a fresh readback: {', '.join(failures)}",
                           code="attempt.ack_mismatch",
                           hint="a stale ACK or a changed checkpoint invalidates acceptance: "
                                "`passdown ack verify` explains each code; the target re-reads "
                                "the packet and acknowledges again")
    attempt["ack"] = {"status": "READY_READONLY", "received_at": utc_now(), "matches": True,
                      "ack_digest": ack_digest}
    note = ""
    if skipped:
        attempt["ack"]["skipped"] = sorted(skipped)
        note = f" (not compared: {', '.join(sorted(skipped))})"
    attempt["state"] = ACKNOWLEDGED
    return Change(f"ACK of {attempt.get('target_id')} accepted for {restart_id}{note}",
                  {"state": ACKNOWLEDGED, "skipped": sorted(skipped)})


def commit(registry: dict, restart_id: str, *, authority=None) -> Change:
    """The conditional ownership transfer from the exact source to the exact target: a new
    fencing epoch, one more than the registry's, performed by ``authority`` (an
    :class:`~passdown.workspace._authority.Authority`; the registry's own lock when None). A
    competing transition wins or loses at the authority: a lost one is recorded on the
    attempt (``lost_to``, the attempt abandoned) and reported as ``authority.lost``."""
    attempt = find(registry, restart_id)
    state = attempt.get("state")
    kind = authority.name if authority is not None else None
    if state in _AFTER_COMMIT:
        recorded = (attempt.get("ownership") or {}).get("authority")
        if kind is not None and recorded not in (None, kind):
            raise _conflict(attempt, "its ownership authority", recorded, kind)
        return Change(unchanged_message="ownership is already committed to "
                                        f"{attempt.get('target_id')}",
                      result={"fencing_epoch": (attempt.get("ownership") or {})
                              .get("fencing_epoch")})
    if state != ACKNOWLEDGED or not (attempt.get("ack") or {}).get("matches"):
        if state == ABANDONED and isinstance(attempt.get("lost_to"), dict):
            lost = attempt["lost_to"]
            raise RefusedError(f"attempt {shown(restart_id)} lost its ownership transition to "
                               f"{shown(lost.get('owner_id'))} at fencing epoch "
                               f"{lost.get('fencing_epoch')}", code="attempt.state",
                               hint="the winner owns the goal; this target stays read-only")
        raise _state_error(attempt, "an ownership commit", (ACKNOWLEDGED,),
                           "commit only after a matching READY_READONLY ACK")
    current_owner = _registry.owner(registry)
    if attempt.get("source_id") != current_owner:
        raise RefusedError(f"{shown(attempt.get('source_id'))} no longer owns the goal's writes; "
                           f"{shown(current_owner)} does", code="attempt.not_owner",
                           hint="a competing transfer won; abandon this attempt")
    epoch = registry.get("fencing_epoch")
    epoch = epoch if type(epoch) is int and epoch >= 0 else 0
    now = utc_now()
    token = None
    if authority is not None:
        move = _authority.Transition(
            goal_id=str(_registry.policy_of(registry).get("goal_id")),
            source_id=attempt.get("source_id"), epoch=epoch,
            target_id=attempt.get("target_id"),
            checkpoint_digest=attempt.get("checkpoint_digest"), restart_id=restart_id, at=now)
        try:
            record = authority.transition(move)
        except _authority.AuthorityError as error:
            if error.code != "authority.lost" or error.winner is None:
                raise
            return _record_loss(registry, attempt, authority, error)
        token = record.token
        _registry.policy_of(registry).setdefault("authority", dict(authority.settings))
    epoch += 1
    registry["fencing_epoch"] = epoch
    ownership = {"committed_at": now, "fencing_epoch": epoch,
                 "from_id": attempt.get("source_id"), "to_id": attempt.get("target_id")}
    if kind is not None:
        ownership["authority"] = kind
    if token is not None:
        ownership["token"] = token
    attempt["ownership"] = ownership
    attempt["state"] = COMMITTED
    return Change(f"ownership committed to {attempt.get('target_id')} at fencing epoch {epoch}"
                  + (f" by the {kind} authority" if kind else "")
                  + "; the source never resumes implementation",
                  {"state": COMMITTED, "fencing_epoch": epoch, "authority": kind,
                   **({"token": token} if token is not None else {})})


def _record_loss(registry: dict, attempt: dict, authority, error) -> Change:
    """The loser's registry learns who won: the attempt is abandoned with ``lost_to``."""
    winner = error.winner
    attempt["state"] = ABANDONED
    attempt["lost_to"] = {"owner_id": winner.owner_id, "fencing_epoch": winner.fencing_epoch,
                          "restart_id": winner.restart_id, "authority": authority.name,
                          "read_at": utc_now()}
    attempt["note"] = (f"lost the ownership transition to {winner.owner_id} at fencing epoch "
                       f"{winner.fencing_epoch}")
    _registry.policy_of(registry).setdefault("authority", dict(authority.settings))
    return Change(attempt["note"], {"state": ABANDONED, "lost": error.to_dict(),
                                    "lost_to": attempt["lost_to"]})


def takeover(registry: dict, restart_id: str, *, target_id: str, fencing_epoch: int | None = None,
             source_retired: bool = False) -> Change:
    """The target read back committed ownership: it must name the committed target and the
    committed epoch, still the registry's current one. Without ``fencing_epoch`` the epoch is
    the one the attempt's ownership record holds, read here (AUT-090)."""
    attempt = find(registry, restart_id)
    state = attempt.get("state")
    ownership = attempt.get("ownership") or {}
    if state not in _AFTER_COMMIT:
        raise _state_error(attempt, "a takeover readback", (COMMITTED,),
                           "takeover follows the ownership commit")
    if fencing_epoch is None:
        fencing_epoch = ownership.get("fencing_epoch")
        if type(fencing_epoch) is not int or fencing_epoch < 0:
            raise RefusedError(f"attempt {shown(restart_id)} records no committed fencing epoch",
                               code="attempt.takeover_mismatch",
                               hint="pass --fencing-epoch with the epoch the ownership authority "
                                    "reports")
    wrong = []
    if target_id != ownership.get("to_id"):
        wrong.append(f"target {shown(target_id)} is not the committed {shown(ownership.get('to_id'))}")
    if fencing_epoch != ownership.get("fencing_epoch"):
        wrong.append(f"epoch {fencing_epoch} is not the committed {ownership.get('fencing_epoch')}")
    elif fencing_epoch != registry.get("fencing_epoch"):
        wrong.append(f"epoch {fencing_epoch} is no longer current "
                     f"({registry.get('fencing_epoch')})")
    if wrong:
        raise RefusedError("the takeover readback does not match: " + "; ".join(wrong),
                           code="attempt.takeover_mismatch",
                           hint="re-read the registry and report exactly what it shows")
    if state != COMMITTED:
        record = attempt.get("takeover") or {}
        if source_retired and not record.get("source_retired"):
            record["source_retired"] = True
            return Change("source release recorded", {"state": state})
        return Change(unchanged_message="this takeover is already recorded")
    attempt["takeover"] = {"readback_at": utc_now(), "verified": True,
                           "source_retired": source_retired}
    attempt["state"] = TAKEN_OVER
    return Change(f"{target_id} took over {restart_id} at fencing epoch {fencing_epoch}",
                  {"state": TAKEN_OVER})


def release(registry: dict, restart_id: str) -> Change:
    """The source was read back as retired (it no longer writes): archiving may follow."""
    attempt = find(registry, restart_id)
    if attempt.get("state") not in (TAKEN_OVER, COMPLETED):
        raise _state_error(attempt, "a source release", (TAKEN_OVER,),
                           "record the takeover readback first")
    record = attempt.get("takeover")
    if record.get("source_retired") is True:
        return Change(unchanged_message="the source release is already recorded")
    record["source_retired"] = True
    return Change("source release recorded", {"state": attempt.get("state")})


def archive(registry: dict, restart_id: str, *, result: str) -> Change:
    """The source archive's outcome: ``archived`` (read back; the attempt completes),
    ``pending`` (ARCHIVE_PENDING: not authorized, unsupported or failed) or ``unknown`` (read
    back before any retry). Only after takeover and a released source."""
    if result not in ARCHIVE_RESULTS:
        raise UsageError(f"archive result {shown(result)} is not one of {', '.join(ARCHIVE_RESULTS)}",
                         code="authoring.bad_value", hint="archived, pending or unknown")
    attempt = find(registry, restart_id)
    state = attempt.get("state")
    status = ARCHIVE_RESULTS[result]
    current = (attempt.get("archive") or {}).get("status")
    if state == COMPLETED:
        if status != current:
            raise _conflict(attempt, "its archive", current, status)
        return Change(unchanged_message="the source is already archived")
    if state != TAKEN_OVER:
        raise _state_error(attempt, "archiving", (TAKEN_OVER,),
                           "archive last: after the takeover readback")
    if not (attempt.get("takeover") or {}).get("source_retired"):
        raise RefusedError("the source was not read back as retired",
                           code="attempt.source_not_released",
                           hint="do not archive an unreleased source: record the release "
                                "with `passdown attempt release` first")
    if status == "ARCHIVED" and _registry.policy_of(registry).get("archive_consent") is not True:
        raise RefusedError("the policy does not record archive consent",
                           code="attempt.archive_not_authorized",
                           hint="record --result pending (ARCHIVE_PENDING); the target stays "
                                "owner")
    if status == current:
        return Change(unchanged_message=f"the archive is already {status}")
    attempt["archive"] = {"status": status, "updated_at": utc_now()}
    if status == "ARCHIVED":
        attempt["state"] = COMPLETED
    return Change(f"archive of {attempt.get('source_id')} recorded as {status}",
                  {"state": attempt["state"], "archive": status})


def abandon(registry: dict, restart_id: str, *, note: str) -> Change:
    """End an attempt before any ownership commit (the target, if any, stays read-only)."""
    attempt = find(registry, restart_id)
    state = attempt.get("state")
    if state == ABANDONED:
        return Change(unchanged_message="the attempt is already abandoned")
    if state == CREATION_UNKNOWN:
        raise RefusedError("the creation is unknown", code="attempt.reconcile_required",
                           hint="reconcile it first: a successor may exist")
    if state in _AFTER_COMMIT:
        raise RefusedError("ownership was committed to the target",
                           code="attempt.committed",
                           hint="a committed transfer is never rolled back; the target owns "
                                "the work")
    attempt["state"] = ABANDONED
    attempt["note"] = _identity(note, "note")
    return Change(f"attempt {restart_id} abandoned", {"state": ABANDONED})


def latest_live(registry: dict) -> dict | None:
    """The attempt still in progress (at most one can be), else None."""
    for attempt in reversed(_attempts(registry)):
        if isinstance(attempt, dict) and attempt.get("state") in (*_registry.LIVE_STATES,
                                                                   TAKEN_OVER):
            return attempt
    return None


def gate_input(registry: dict, attempt: dict | None) -> dict:
    """The restart gate's registry-derived observations for ``attempt`` (or for a source
    with no attempt): identity, policy and the transfer steps read back so far."""
    policy = _registry.policy_of(registry)
    values = {"schema": 1, "goal_id": policy.get("goal_id"), "mode": policy.get("mode"),
              "policy_authorized": policy.get("mode") in ("adaptive", "daily"),
              "archive_authorized": policy.get("archive_consent") is True}
    transfer = transfer_supported(registry, attempt)
    if transfer is not None:
        values["transfer_supported"] = transfer
    if attempt is None:
        values.update(source_id=_registry.owner(registry), creation_status="not_sent")
        return values
    creation = (attempt.get("creation") or {}).get("status")
    takeover_record = attempt.get("takeover") or {}
    archive_status = (attempt.get("archive") or {}).get("status")
    values.update(
        source_id=attempt.get("source_id"),
        target_id=attempt.get("target_id"),
        creation_status=creation,
        ack_matches=(attempt.get("ack") or {}).get("matches") is True,
        ownership_committed=attempt.get("ownership") is not None,
        target_takeover_readback=takeover_record.get("verified") is True,
        source_retired_readback=takeover_record.get("source_retired") is True,
        source_archived_readback=archive_status == "ARCHIVED",
    )
    if archive_status == "UNKNOWN":
        values["archive_status"] = "unknown"
    return values


def transfer_supported(registry: dict, attempt: dict | None) -> bool | None:
    """Whether the registry shows an authoritative ownership transfer (spec/authority.md):
    true with a ``git`` or ``etcd`` authority; with ``local`` (or none) true only when the
    source's and the target's session rows name one ``host_id``, false when they name two,
    None (unknown: left to the host) when either is not recorded."""
    settings = _registry.policy_of(registry).get("authority")
    kind = settings.get("kind") if isinstance(settings, dict) else _authority.LOCAL
    if kind in (_authority.GIT, _authority.ETCD):
        return True
    if attempt is None:
        return None
    hosts = {row.get("thread_id"): row.get("host_id") for row in registry.get("sessions") or ()
             if isinstance(row, dict)}
    source, target = hosts.get(attempt.get("source_id")), hosts.get(attempt.get("target_id"))
    if not (isinstance(source, str) and source and isinstance(target, str) and target):
        return None
    return source == target


# -- the file ------------------------------------------------------------------------------

#: Subcommand name -> change function of the later steps of one attempt.
STEPS = {
    "created": created,
    "reconcile": reconcile,
    "ack": acknowledge,
    "commit": commit,
    "takeover": takeover,
    "release": release,
    "archive": archive,
    "abandon": abandon,
}


def apply(registry_path, step: str, restart_id: str, *, expect_revision: int | None = None,
          validate: bool = True, timeout: float = _store.LOCK_TIMEOUT, **kwargs):
    """Run one step on the attempt ``restart_id`` of the registry at ``registry_path`` as a
    compare-and-swap step (see :func:`passdown.authoring._store.update`). Every step but the
    commit and the takeover is fenced by the registry's authority first
    (:func:`passdown.authoring._fence.guard`); the commit goes through that authority (or the
    one ``authority=`` names, with ``remote``, ``endpoint``, ``lease_ttl``) and the takeover
    reads it back."""
    from passdown.authoring import _fence

    step_function = STEPS[step]
    if step == "commit":
        registry = _store.read(registry_path, _store.REGISTRY)
        with _store.shape_guard(_store.REGISTRY, registry_path):
            kwargs["authority"] = _fence.chosen(
                registry, registry_path, kwargs.pop("authority", None),
                **{name: kwargs.pop(name, None) for name in ("remote", "endpoint", "lease_ttl")})
    elif step == "takeover":
        if kwargs.get("fencing_epoch") is None:
            kwargs["fencing_epoch"] = _committed_epoch(registry_path, restart_id)
        if kwargs["fencing_epoch"] is not None:
            _read_back_owner(registry_path, kwargs["target_id"], kwargs["fencing_epoch"])
    else:
        _fence.guard(registry_path)

    def change(registry):
        done = step_function(registry, restart_id, **kwargs)
        done.result["next"] = next_step(find(registry, restart_id))
        return done

    outcome = _store.update(registry_path, _store.REGISTRY, change,
                            command=f"attempt {step}", expect_revision=expect_revision,
                            validate=validate, timeout=timeout)
    lost = outcome.result.get("lost")
    if lost:
        raise _authority.AuthorityError(lost["message"], code=lost["code"], hint=lost.get("hint"))
    return outcome


def _committed_epoch(registry_path, restart_id: str) -> int | None:
    """The fencing epoch the attempt's ownership record holds (AUT-090), or None when it holds
    none (the takeover step then refuses, naming what it lacks)."""
    registry = _store.read(registry_path, _store.REGISTRY)
    with _store.shape_guard(_store.REGISTRY, registry_path):
        ownership = find(registry, restart_id).get("ownership")
    epoch = ownership.get("fencing_epoch") if isinstance(ownership, dict) else None
    return epoch if type(epoch) is int and epoch >= 0 else None


def _read_back_owner(registry_path, target_id: str, fencing_epoch: int) -> None:
    """A takeover is read back from the authority the policy names: it must name this
    target at this epoch (``authority.not_owner`` otherwise, naming the owner it shows)."""
    from passdown.authoring import _fence

    registry = _store.read(registry_path, _store.REGISTRY)
    with _store.shape_guard(_store.REGISTRY, registry_path):
        settings = _fence.settings_of(registry)
        if settings is None or settings.get("kind") == _authority.LOCAL:
            return
        authority = _fence.authority_of(registry, registry_path)
    _authority.require_owner(authority.read(), target_id, fencing_epoch, authority.what)


def next_step(attempt: dict) -> str:
    """The command that moves ``attempt`` on from its state (``NEXT_STEPS``)."""
    state = attempt.get("state")
    if state == TAKEN_OVER and (attempt.get("takeover") or {}).get("source_retired") is True:
        archived = (attempt.get("archive") or {}).get("status")
        state = "archive_pending" if archived == "ARCHIVE_PENDING" else "released"
    ownership = attempt.get("ownership") if isinstance(attempt.get("ownership"), dict) else {}
    words = {"id": attempt.get("restart_id"), "source": attempt.get("source_id") or "SOURCE",
             "target": attempt.get("target_id") or "TARGET",
             "epoch": ownership.get("fencing_epoch", "EPOCH")}
    return NEXT_STEPS.get(state, "passdown validate (the attempt's state is not one this "
                                 "version knows)").format_map(words)


def show(registry_path, restart_id: str | None = None) -> tuple:
    """``passdown attempt show``: attempt ``restart_id`` (or the latest live one) read from the
    registry at ``registry_path``, as an unchanged :class:`~passdown.authoring.Outcome`, and the
    restart gate's input that the registry implies."""
    registry = _store.read(registry_path, _store.REGISTRY)
    revision = _store.revision_of(registry, _store.REGISTRY, registry_path)
    with _store.shape_guard(_store.REGISTRY, registry_path):
        chosen = find(registry, restart_id) if restart_id else latest_live(registry)
        observations = gate_input(registry, chosen)
    result = {"attempt": chosen, "attempts": registry.get("attempts"), "gate_input": observations}
    if chosen:
        ownership = chosen.get("ownership") if isinstance(chosen.get("ownership"), dict) else None
        epoch = (f"{ownership.get('fencing_epoch')} (committed)" if ownership
                 else f"{registry.get('fencing_epoch')} (the registry's; none committed by this attempt)")
        message = "\n".join([f"attempt {chosen.get('restart_id')}: {chosen.get('state')} (revision {revision})",
                             f"  source: {chosen.get('source_id')}",
                             f"  target: {chosen.get('target_id') or '(not created yet)'}",
                             f"  fencing epoch: {epoch}"])
        result["next"] = next_step(chosen)
    else:
        message = "no attempt in progress"
        result["next"] = NEXT_STEPS[ABANDONED].format_map({"source": _registry.owner(registry) or "SOURCE"})
    outcome = _store.Outcome(command="attempt show", path=registry_path, changed=False,
                             message=message, revision=revision, previous_revision=revision,
                             result=result)
    return outcome, observations


def verify_ack(ack_path, *, packet_path, registry_path, checkpoint_path=None,
               workspace=None, clock_skew=None) -> dict:
    """The keyword arguments of the ``ack`` step for the ACK file at ``ack_path``: its digest,
    the codes of every rule a fresh readback of packet, registry, checkpoint (and, given
    ``workspace``, the git checkout) finds broken, and the parts not compared
    (:func:`passdown.workspace._readback.read_and_verify`)."""
    from passdown.formats import _digest
    from passdown.workspace import _readback

    # the authoring refusals first (a missing file, not an object), as every step gives them
    registry = _store.read(registry_path, _store.REGISTRY)
    _store.read(ack_path, "ack")
    checkpoint = _readback.checkpoint_for(registry, registry_path, checkpoint_path)
    if checkpoint is not None:
        _store.read(checkpoint, _store.CHECKPOINT)
    verdict = _readback.read_and_verify(ack_path, packet_path, registry_path,
                                        checkpoint_path=checkpoint_path, workspace=workspace,
                                        clock_skew=clock_skew)
    return {"ack_digest": _digest.digest_file(ack_path, form="jcs"),
            "failures": tuple(verdict.codes), "skipped": tuple(verdict.skipped)}
