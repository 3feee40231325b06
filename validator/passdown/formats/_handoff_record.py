"""The handoff record and the pending confirmation, as the handoff gate and the validator's
rules read them: their shape (the same rules as ``handoff.schema.json`` and
``handoff-pending.schema.json``, checked without a schema library), their cross-field rules,
their digest and the order in which a replay wakes sessions. ``spec/handoff-record.md``
defines both artifacts.
"""

from passdown.formats._clock import parse_ms
from passdown.formats._values import integer, is_blank, is_clean_text, is_id

RECORD_KIND = "handoff"
PENDING_KIND = "handoff_pending"
#: The ``passdown_version`` values this reader knows; anything else is refused, never guessed.
KNOWN_VERSIONS = ("1.0",)

MAX_TOKEN_LENGTH = 128
MAX_REASON_LENGTH = 500
MAX_PROMPT_LENGTH = 16384
MAX_SESSIONS = 1000
MAX_TTL_MS = 86_400_000
MAX_PENDING_TTL_MS = 3_600_000

_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_TOKEN_CHARS = _ALNUM | frozenset("._:-")

_RECORD_REQUIRED = ("passdown_version", "kind", "handoff_id", "created_at", "ttl_ms",
                    "writer_incarnation", "requested_by", "reason", "continue_prompt",
                    "sessions", "subagents", "digest")
_RECORD_KEYS = frozenset(_RECORD_REQUIRED + ("consumed",))
_PENDING_REQUIRED = ("passdown_version", "kind", "token", "plan", "created_at", "expires_at",
                     "writer_incarnation")
_PENDING_KEYS = frozenset(_PENDING_REQUIRED + ("spent_at",))
_PLAN_ORDER = ("requested_by", "reason", "continue_prompt")
_PLAN_KEYS = frozenset(_PLAN_ORDER)
#: Members the record's digest does not cover: the digest itself, and the consumed marker
#: written after the digest (both outside the bytes they describe).
DIGEST_EXCLUDED = ("digest", "consumed")


def is_token(value):
    """A confirmation token: 8-128 characters from ``A-Za-z0-9._:-``, the first a letter
    or digit."""
    return (isinstance(value, str) and 8 <= len(value) <= MAX_TOKEN_LENGTH
            and value[0] in _ALNUM and set(value) <= _TOKEN_CHARS)


def is_text(value, limit, *, multiline):
    """Human text: 1 to ``limit`` characters (code points), not only white space (GEN-017),
    no C0 control character (tab and line feed allowed in ``multiline`` text) or DEL, no lone
    surrogate."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= limit
        and not is_blank(value)
        and is_clean_text(value, "\t\n" if multiline else "")
    )


def is_timestamp(value):
    return parse_ms(value) is not None


def _is_ms(value, low, high):
    number = integer(value)
    return number is not None and low <= number <= high


def is_digest_string(value):
    """The digest grammar (``algorithm:encoded``, the schema's pattern, HND-144); the digest
    module decides the rest when it verifies (HND-146)."""
    from passdown.formats import _digest

    return _digest.fits_grammar(value)


def _member_problem(value, keys, tests):
    """The path (a tuple, relative to ``value``) of the deepest part of an object that breaks
    its rule: the object itself, a missing or unknown member, or a member's value; ``None``
    when every rule holds."""
    if not isinstance(value, dict):
        return ()
    for key in keys:
        if key not in value:
            return (key,)
    for key in value:
        if key not in keys:
            return (key,)
    for key, test in zip(keys, tests):
        if not test(value[key]):
            return (key,)
    return None


_PLAN_TESTS = (
    is_id,
    lambda text: is_text(text, MAX_REASON_LENGTH, multiline=False),
    lambda text: is_text(text, MAX_PROMPT_LENGTH, multiline=True),
)


def plan_problem(plan):
    """Where the warned plan breaks its rules (a relative path), or ``None``."""
    return _member_problem(plan, _PLAN_ORDER, _PLAN_TESTS)


def _list_problem(items, keys, least):
    if not isinstance(items, list) or not least <= len(items) <= MAX_SESSIONS:
        return ()
    for index, item in enumerate(items):
        problem = _member_problem(item, keys, (is_id,) * len(keys))
        if problem is not None:
            return (index, *problem)
    return None


def sessions_problem(sessions):
    """Where a ``sessions`` list breaks its rules (a relative path), or ``None``."""
    return _list_problem(sessions, ("id",), 1)


def subagents_problem(subagents):
    """Where a ``subagents`` list breaks its rules (a relative path), or ``None``."""
    return _list_problem(subagents, ("id", "parent_id"), 0)


def plan_ok(plan):
    return plan_problem(plan) is None


def sessions_ok(sessions):
    return sessions_problem(sessions) is None


def subagents_ok(subagents):
    return subagents_problem(subagents) is None


def record_shape_ok(record):
    """The record matches ``handoff.schema.json`` (the schema's rules, checked by hand)."""
    if not isinstance(record, dict) or not set(record) <= _RECORD_KEYS:
        return False
    if any(key not in record for key in _RECORD_REQUIRED):
        return False
    consumed = record.get("consumed")
    return (
        record["passdown_version"] in KNOWN_VERSIONS
        and record["kind"] == RECORD_KIND
        and is_token(record["handoff_id"])
        and is_timestamp(record["created_at"])
        and _is_ms(record["ttl_ms"], 1, MAX_TTL_MS)
        and is_id(record["writer_incarnation"])
        and is_id(record["requested_by"])
        and is_text(record["reason"], MAX_REASON_LENGTH, multiline=False)
        and is_text(record["continue_prompt"], MAX_PROMPT_LENGTH, multiline=True)
        and sessions_ok(record["sessions"])
        and subagents_ok(record["subagents"])
        and is_digest_string(record["digest"])
        and (
            "consumed" not in record
            or (isinstance(consumed, dict) and set(consumed) == {"at", "by_incarnation"}
                and is_timestamp(consumed["at"]) and is_id(consumed["by_incarnation"]))
        )
    )


def pending_shape_ok(pending):
    """The pending record matches ``handoff-pending.schema.json``."""
    if not isinstance(pending, dict) or not set(pending) <= _PENDING_KEYS:
        return False
    if any(key not in pending for key in _PENDING_REQUIRED):
        return False
    return (
        pending["passdown_version"] in KNOWN_VERSIONS
        and pending["kind"] == PENDING_KIND
        and is_token(pending["token"])
        and plan_ok(pending["plan"])
        and is_timestamp(pending["created_at"])
        and is_timestamp(pending["expires_at"])
        and is_id(pending["writer_incarnation"])
        and ("spent_at" not in pending or is_timestamp(pending["spent_at"]))
    )


def expiry_in_order(pending):
    """``expires_at`` is later than ``created_at``, in milliseconds (HND-021); True where
    either is no timestamp (the shape check's to judge)."""
    created, expires = parse_ms(pending.get("created_at")), parse_ms(pending.get("expires_at"))
    return created is None or expires is None or expires > created


def session_problems(requested_by, sessions, subagents):
    """The cross-field rules of the session lists, as ``(code, path, message)``: ids
    unique, the requester among the sessions, every subagent's parent resumed, no cycle."""
    problems = []
    seen = set()
    for group, members in (("sessions", sessions), ("subagents", subagents)):
        for index, member in enumerate(members):
            if member["id"] in seen:
                problems.append(("handoff.duplicate_session", (group, index, "id"),
                                 f"the session {member['id']!r} is listed twice"))
            seen.add(member["id"])
    if requested_by not in {s["id"] for s in sessions}:
        problems.append(("handoff.requester_not_resumed", ("requested_by",),
                         f"the requesting session {requested_by!r} is not among the sessions"))
    for index, sub in enumerate(subagents):
        if sub["parent_id"] not in seen:
            problems.append(("handoff.subagent_parent_unknown", ("subagents", index, "parent_id"),
                             f"the parent {sub['parent_id']!r} is neither a session nor a subagent"))
    if not problems and len(wake_order(sessions, subagents)) < len(sessions) + len(subagents):
        problems.append(("handoff.subagent_cycle", ("subagents",),
                         "subagent parents form a cycle: no order wakes a parent first"))
    return problems


def wake_order(sessions, subagents):
    """Sessions in their listed order, then subagents top-down: a subagent only after its
    parent, otherwise in listed order. Members of a cycle are left out."""
    order = [{"id": s["id"], "parent_id": None, "kind": "session"} for s in sessions]
    woken = {s["id"] for s in sessions}
    waiting = list(subagents)
    progress = True
    while waiting and progress:
        progress = False
        still = []
        for sub in waiting:
            if sub["parent_id"] in woken and sub["id"] not in woken:
                order.append({"id": sub["id"], "parent_id": sub["parent_id"], "kind": "subagent"})
                woken.add(sub["id"])
                progress = True
            else:
                still.append(sub)
        waiting = still
    return order


def covered(record):
    """The record without the members its digest does not cover."""
    return {key: value for key, value in record.items() if key not in DIGEST_EXCLUDED}


def digest_of(record, algorithm="blake3"):
    """The digest string a writer stores in ``record["digest"]``."""
    from passdown.formats import _digest

    return _digest.digest_bytes(_digest.canonical_json(covered(record)), algorithm)


def digest_problem(record):
    """``None`` when the stored digest matches the record, else the digest code
    (``digest.mismatch``, ``digest.malformed``, ``digest.unknown_algorithm``, or the code of
    a value the canonical form cannot hold)."""
    from passdown.formats import _digest

    try:
        canonical = _digest.canonical_json(covered(record))
    except _digest.DigestError as error:
        return error.code
    return _digest.check_digest(record["digest"], canonical)
