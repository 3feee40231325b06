"""Semantic rules of the handoff record and the pending confirmation (spec/handoff-record.md),
on top of their schemas: session ids unique, the requester resumed, every subagent's parent
known and no cycle, the record's own digest, real timestamps, an expiry after the warning, no
secrets in the replayed text, and the spec version. The checks themselves are the handoff
gate's (:mod:`passdown.formats._handoff_record`), so the validator and the gate never disagree.
"""

from __future__ import annotations

from passdown.formats import _handoff_record as records
from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import (
    ends_in_at,
    register_digest_rules,
    register_timestamp_rule,
    register_version_rules,
    secret_hits,
    top_level_version,
)

KIND = "handoff"
PENDING_KIND = "handoff_pending"


def _is_timestamp_key(key: str) -> bool:
    return ends_in_at(key) or key == "at"  # consumed.at


for _kind, _requirement in ((KIND, "HND-007"), (PENDING_KIND, "HND-024")):
    register_version_rules(_kind, top_level_version)
    register_timestamp_rule(_kind, _is_timestamp_key, requirement=_requirement)


def _digests(artifact: Artifact):
    data = artifact.data
    if isinstance(data, dict) and "digest" in data:
        yield ("digest",), data["digest"], None


register_digest_rules(KIND, _digests)


def _session_problems(artifact: Artifact, code: str):
    data = artifact.data
    if not isinstance(data, dict):
        return
    sessions, subagents = data.get("sessions"), data.get("subagents", [])
    requested_by = data.get("requested_by")
    if not (records.sessions_ok(sessions) and records.subagents_ok(subagents)
            and isinstance(requested_by, str)):
        return  # the schema reports the shape; these rules judge well-formed lists only
    for found, path, message in records.session_problems(requested_by, sessions, subagents):
        if found == code:
            yield Hit(path, message)


#: The cross-field rules of the session lists: code, requirement, summary, hint.
_SESSION_RULES = (
    ("handoff.duplicate_session", "HND-003", "every id appears once across sessions and subagents",
     "list each session once: a session is either running or a subagent"),
    ("handoff.requester_not_resumed", "HND-004", "the requesting session is one of the sessions",
     "the session that asked for the restart was running: add it to sessions"),
    ("handoff.subagent_parent_unknown", "HND-005",
     "every subagent's parent is a session or another subagent",
     "add the parent to sessions or subagents, or leave the orphan out"),
    ("handoff.subagent_cycle", "HND-006", "subagent parents form no cycle",
     "every chain of parents must end at a session"),
)


def _register_session_rule(code, requirement, summary, hint):
    @rule(KIND, code, requirement=requirement, summary=summary, hint=hint)
    def _check(artifact: Artifact):
        yield from _session_problems(artifact, code)


for _entry in _SESSION_RULES:
    _register_session_rule(*_entry)


@rule(KIND, "handoff.digest_mismatch", requirement="HND-008",
      summary="the digest matches the record without its digest and consumed members",
      hint="the record changed after it was written: never repair it; write a new one")
def _digest(artifact: Artifact):
    data = artifact.data
    if not isinstance(data, dict) or not isinstance(data.get("digest"), str):
        return
    from passdown.formats._digest import DigestError, parse_digest

    try:
        parse_digest(data["digest"])
    except DigestError:
        return  # malformed or unverifiable: the shared digest rules report it
    problem = records.digest_problem(data)
    if problem == "digest.mismatch":
        yield Hit(("digest",), "the digest does not match the record's canonical form")
    elif problem is not None:
        yield Hit(("digest",), f"the record has no canonical form to verify ({problem})")


@rule(KIND, "handoff.secret", requirement="HND-015",
      summary="the replayed text holds no secret",
      hint="remove the secret and rotate it; name where access comes from instead")
def _secret(artifact: Artifact):
    yield from _text_secrets(artifact.data, ())


@rule(PENDING_KIND, "handoff_pending.expiry_order", requirement="HND-021",
      summary="expires_at is later than created_at",
      hint="a warning expires after it was given: expires_at = created_at + the pending TTL")
def _expiry(artifact: Artifact):
    if isinstance(artifact.data, dict) and not records.expiry_in_order(artifact.data):
        yield Hit(("expires_at",), "expires_at is not later than created_at")


@rule(PENDING_KIND, "handoff_pending.secret", requirement="HND-015",
      summary="the warned plan holds no secret",
      hint="remove the secret and rotate it; name where access comes from instead")
def _pending_secret(artifact: Artifact):
    data = artifact.data
    yield from _text_secrets(data.get("plan") if isinstance(data, dict) else None, ("plan",))


def _text_secrets(holder, prefix):
    if isinstance(holder, dict):
        texts = {key: holder[key] for key in ("reason", "continue_prompt")
                 if isinstance(holder.get(key), str)}
        for hit in secret_hits(texts):
            yield Hit(prefix + hit.path, hit.message)
