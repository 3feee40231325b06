"""Semantic rules of the relaunch receipt (``spec/relaunch-receipt.md``): what its schema
cannot say, plus the version, timestamp and digest rules every artifact shares. An uncertain receipt is settled by reading, never by launching again; the brief
goes once, to the session it is pinned to; the status, the settlement and the times agree.

Rules meet documents that may have failed the schema, so each reads defensively and yields
nothing for shapes it does not understand.
"""

from __future__ import annotations

from passdown.formats._clock import parse_ms
from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import (
    register_digest_rules,
    register_timestamp_rule,
    register_version_rules,
    top_level_version,
)

KIND = "receipt"

register_version_rules(KIND, top_level_version)
register_timestamp_rule(KIND)


def _brief(data):
    brief = data.get("brief")
    return brief if isinstance(brief, dict) else None


def _count(value):
    return value if type(value) is int else None


def _digests(artifact: Artifact):
    brief = _brief(artifact.fields)
    if brief and "digest" in brief:
        yield ("brief", "digest"), brief["digest"], None


register_digest_rules(KIND, _digests)


@rule(KIND, "receipt.launched_twice", requirement="RLN-104",
      summary="the launcher ran at most once under one receipt",
      hint="settle an uncertain receipt by reading the pane and the conversation; start a new "
           "relaunch, with a new receipt, only after this one is settled")
def _launched_twice(artifact):
    launches = _count(artifact.fields.get("launches"))
    if launches is not None and launches > 1:
        yield Hit(("launches",), f"the launcher ran {launches} times under this receipt")


@rule(KIND, "receipt.relaunched_unproven", requirement="RLN-103",
      summary="`relaunched` only after the signal and exactly one launch",
      hint="keep the outcome `uncertain` until the launcher is proven to have run in the pane")
def _relaunched_unproven(artifact):
    data = artifact.fields
    if data.get("outcome") != "relaunched":
        return
    if data.get("signalled_at") is None:
        yield Hit(("signalled_at",), "the receipt says relaunched, but the harness was never signalled")
    elif _count(data.get("launches")) == 0:
        yield Hit(("launches",), "the receipt says relaunched, but the launcher never ran")


@rule(KIND, "receipt.brief_resent", requirement="RLN-106",
      summary="the brief is sent at most once",
      hint="never send the brief again, even when its delivery did not confirm")
def _brief_resent(artifact):
    brief = _brief(artifact.fields)
    deliveries = _count(brief.get("deliveries")) if brief else None
    if deliveries is not None and deliveries > 1:
        yield Hit(("brief", "deliveries"), f"the brief was sent {deliveries} times")


@rule(KIND, "receipt.brief_wrong_session", requirement="RLN-105",
      summary="the brief goes only to the session it is pinned to",
      hint="pin the brief to the first session that binds through the receipt, and deliver it "
           "to that session only")
def _brief_wrong_session(artifact):
    brief = _brief(artifact.fields)
    if not brief:
        return
    pinned = brief.get("pinned_session_id")
    sent = (_count(brief.get("deliveries")) or 0) > 0 or brief.get("delivery") != "pending"
    if sent and pinned is None:
        yield Hit(("brief", "pinned_session_id"), "the brief was sent without being pinned to a session")
        return
    bound = artifact.fields.get("new_session_id")
    if pinned is not None and bound is not None and pinned != bound:
        yield Hit(("brief", "pinned_session_id"),
                  f"the brief is pinned to {pinned!r}, but {bound!r} bound through the receipt")


@rule(KIND, "receipt.delivery_mismatch", requirement="RLN-106",
      summary="the delivery state, count and time agree",
      hint="`pending` means 0 deliveries and no time; `confirmed` and `unconfirmed` mean 1 and a time")
def _delivery_mismatch(artifact):
    brief = _brief(artifact.fields)
    if not brief:
        return
    deliveries = _count(brief.get("deliveries"))
    pending = brief.get("delivery") == "pending"
    timed = brief.get("delivered_at") is not None
    if deliveries is None or deliveries > 1:
        return
    if pending != (deliveries == 0) or pending == timed:
        yield Hit(("brief", "delivery"),
                  f"delivery {brief.get('delivery')!r} with {deliveries} deliveries and "
                  f"{'a' if timed else 'no'} delivery time")


@rule(KIND, "receipt.status_mismatch", requirement="RLN-107",
      summary="a settled receipt has a settlement and a time; an open one has neither",
      hint="set `settled_at` and `settlement` together with `status: settled`, and only then")
def _status_mismatch(artifact):
    data = artifact.fields
    settled = data.get("status") == "settled"
    if settled and (data.get("settled_at") is None or data.get("settlement") is None):
        yield Hit(("status",), "the receipt is settled but has no settlement time or settlement")
    elif not settled and (data.get("settled_at") is not None or data.get("settlement") is not None):
        yield Hit(("status",), "the receipt is open but records a settlement")


@rule(KIND, "receipt.time_order", requirement="RLN-108",
      summary="written, then signalled, then settled; a brief is sent after the receipt is written",
      hint="record each time when its step happens")
def _time_order(artifact):
    data = artifact.fields
    brief = _brief(data)
    created = _time(data.get("created_at"))
    signalled = _time(data.get("signalled_at"))
    settled = _time(data.get("settled_at"))
    delivered = _time(brief.get("delivered_at")) if brief else None
    checks = (
        (("signalled_at",), signalled, created, "created_at"),
        (("settled_at",), settled, created if signalled is None else signalled,
         "created_at" if signalled is None else "signalled_at"),
        (("brief", "delivered_at"), delivered, created, "created_at"),
    )
    for path, moment, earliest, earlier in checks:
        if moment is not None and earliest is not None and moment < earliest:
            yield Hit(path, f"{'.'.join(path)} is earlier than {earlier}")


@rule(KIND, "receipt.bound_without_session", requirement="RLN-109",
      summary="a receipt settled by a binding names the session that bound",
      hint="record the new session's id in `new_session_id`")
def _bound_without_session(artifact):
    settlement = artifact.fields.get("settlement")
    if isinstance(settlement, dict) and settlement.get("by") == "session_bound" \
            and artifact.fields.get("new_session_id") is None:
        yield Hit(("new_session_id",), "the receipt was settled by a binding but names no new session")


@rule(KIND, "receipt.same_session", requirement="RLN-110",
      summary="the new session is not the ended one",
      hint="a session that bound with the ended session's id is not a relaunch: settle by reading")
def _same_session(artifact):
    data = artifact.fields
    new = data.get("new_session_id")
    if new is not None and new == data.get("ended_session_id"):
        yield Hit(("new_session_id",), "the new session is the session that was ended")


@rule(KIND, "receipt.brief_unavailable_notice", requirement="RLN-111",
      summary="a receipt without a kept brief settles with the brief_unavailable notice",
      hint="settle with `notice: brief_unavailable`, so the new session knows no brief is coming")
def _brief_unavailable_notice(artifact):
    data = artifact.fields
    settlement = data.get("settlement")
    if not isinstance(settlement, dict):
        return
    has_brief = data.get("brief") is not None
    notice = settlement.get("notice")
    if not has_brief and notice != "brief_unavailable":
        yield Hit(("settlement", "notice"), "the receipt has no kept brief but settled without a notice")
    elif has_brief and notice == "brief_unavailable":
        yield Hit(("settlement", "notice"), "the receipt kept a brief but settled as if it had none")


def _time(value):
    return parse_ms(value) if isinstance(value, str) else None
