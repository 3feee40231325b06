"""The ``observe`` gate: which records of a host's session file give the context size of the
latest call, the session's id, start and model, and the context capacity
(``spec/gates/observe.md``).

Owns the reading rule of each host's records, as a table of small functions per host
(:data:`HOSTS`): Claude Code transcripts and Codex CLI rollouts. ``passdown observe`` and the
hooks read a real file's head and tail with these same functions
(:mod:`passdown.hosts._claude_transcript`, :mod:`passdown.hosts._codex_rollout`); the gate
takes the text of the tail (and optionally of the head) as JSON, so that any implementation can
be shown to read the same tail the same way. Every value is labelled ``measured`` or
``unknown``: the gate never estimates.
"""

from passdown.formats._fastjson import JSONError, loads
from passdown.formats._values import is_blank
from passdown.gates._inputs import count, decide_or_refuse, invalid_input
from passdown.gates._table import Decision, Invalid, run_strict

NAME = "observe"
VERSION = "1.0.0"
SUMMARY = "Read the context size, session, start, model and capacity off a host session's tail."
SPEC = "spec/gates/observe.md"
INPUT_SCHEMA = "gates/observe.input.schema.json"
OUTPUT_SCHEMA = "gates/observe.output.schema.json"
#: A tail of up to 16 MiB (the observer's bound, HST-101), escaped as JSON text.
MAX_INPUT_BYTES = 64 * 1024 * 1024

OUTCOMES = ("measured", "compacted", "no_call", "not_a_session", "invalid_input")
MEASURED, UNKNOWN = "measured", "unknown"
#: The exit status of each outcome.
EXIT = {"measured": 0, "compacted": 0, "no_call": 0, "not_a_session": 1}
COMPACTED = "compacted"


def _text(value):
    return value if isinstance(value, str) and not is_blank(value) else None


# -- Claude Code transcripts ------------------------------------------------------------------

#: The usage counts that together are the input of one call.
CLAUDE_INPUT_COUNTS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
#: The model Claude Code writes on a message of its own (an API error, a usage limit): no call.
CLAUDE_SYNTHETIC = "<synthetic>"


def claude_call(record):
    """``(tokens, model)`` of a main-thread assistant record with usable usage, else None."""
    if record.get("type") != "assistant" or record.get("isSidechain") is True:
        return None
    message = record.get("message")
    if not isinstance(message, dict) or not isinstance(message.get("usage"), dict):
        return None
    model = message.get("model") if isinstance(message.get("model"), str) else None
    if model == CLAUDE_SYNTHETIC:
        return None
    counts = [count(message["usage"].get(name, 0)) for name in CLAUDE_INPUT_COUNTS]
    if None in counts:
        return None
    return sum(counts), model


def claude_is_compaction(record):
    return record.get("type") == "system" and record.get("subtype") == "compact_boundary"


def claude_session(record):
    return _text(record.get("sessionId"))


def claude_started(records):
    """The first record's timestamp, as it is written."""
    for record in records:
        if isinstance(record.get("timestamp"), str):
            return record["timestamp"]
    return None


def claude_latest(tail):
    """From the tail (last record first): ``(tokens, model, timestamp, capacity)`` of the
    latest main-thread call (Claude Code states no capacity: None), ``"compacted"`` when a
    compaction came after it, or ``None``."""
    for record in tail:
        if claude_is_compaction(record):
            return COMPACTED
        size = claude_call(record)
        if size is not None:
            return size[0], size[1], record.get("timestamp"), None
    return None


# -- Codex CLI rollouts -----------------------------------------------------------------------

def payload_of(record, kind):
    """``record``'s payload when the record is of ``kind`` and its payload an object."""
    payload = record.get("payload")
    return payload if record.get("type") == kind and isinstance(payload, dict) else None


def codex_meta(records):
    for record in records:
        payload = payload_of(record, "session_meta")
        if payload is not None:
            return payload
    return None


def codex_session(record):
    payload = payload_of(record, "session_meta")
    return _text(payload.get("id")) if payload else None


def codex_started(records):
    meta = codex_meta(records)
    if meta is not None and isinstance(meta.get("timestamp"), str):
        return meta["timestamp"]
    return claude_started(records)


def codex_usage(record):
    """The ``info`` of a token count that reports a call: its ``last_token_usage`` has a
    count of input tokens, and input or output tokens above zero (Codex writes an all-zero
    count around a compaction, which is no call); else None."""
    payload = payload_of(record, "event_msg")
    if payload is None or payload.get("type") != "token_count":
        return None
    info = payload.get("info")
    last = info.get("last_token_usage") if isinstance(info, dict) else None
    tokens = count(last.get("input_tokens")) if isinstance(last, dict) else None
    if tokens is None or (tokens == 0 and not count(last.get("output_tokens"))):
        return None
    return info


def codex_model(record):
    payload = payload_of(record, "turn_context")
    return payload.get("model") if payload and isinstance(payload.get("model"), str) else None


def codex_latest(tail):
    """From the tail (last record first): ``(tokens, model, timestamp, capacity)`` of the
    latest call's token count, ``"compacted"`` when a compaction came after it, or ``None``.
    The model is the one of the latest ``turn_context`` before that count (None if the tail
    holds none), the capacity that count's ``model_context_window``."""
    found = None
    for record in tail:
        if found is None:
            if record.get("type") == "compacted":
                return COMPACTED
            info = codex_usage(record)
            if info is not None:
                found = [count(info["last_token_usage"]["input_tokens"]), None,
                         record.get("timestamp"), count(info.get("model_context_window"))]
        else:
            model = codex_model(record)
            if model is not None:
                found[1] = model
                break
    return tuple(found) if found else None


class Host:
    """One host's reading rules: the functions above, by what they read."""

    __slots__ = ("session", "recognised", "started", "latest")

    def __init__(self, session, recognised, started, latest):
        self.session, self.recognised, self.started, self.latest = \
            session, recognised, started, latest


#: Host name -> its reading rules.
HOSTS = {
    "claude": Host(claude_session, lambda records: any(map(claude_session, records)),
                   claude_started, claude_latest),
    "codex": Host(codex_session, lambda records: codex_meta(records) is not None,
                  codex_started, codex_latest),
}


# -- the gate ---------------------------------------------------------------------------------

def _reject_constant(name):
    raise JSONError(f"{name} is not JSON")


def records(text):
    """``(records, skipped)``: each line of ``text`` that is a JSON object, in order, and how
    many other lines that are not empty or white space only (a line cut by the tail read, a
    torn last line) were passed over."""
    found, skipped = [], 0
    for line in text.split("\n"):
        if not line.strip(" \t\r"):
            continue
        try:
            value = loads(line, parse_constant=_reject_constant)
        except (JSONError, RecursionError):
            value = None
        if isinstance(value, dict):
            found.append(value)
        else:
            skipped += 1
    return found, skipped


def _field(value):
    return {"value": value, "basis": MEASURED if value is not None else UNKNOWN}


def observe(host, tail_text, head_text=None):
    """The gate's answer for ``tail_text`` (and the head, which defaults to the tail)."""
    rules = HOSTS[host]
    tail, skipped = records(tail_text)
    head = tail if head_text is None else records(head_text)[0]
    if not rules.recognised(head):
        return {"outcome": "not_a_session", "host": host, "records": len(tail),
                "skipped_lines": skipped}
    latest = rules.latest(tail[::-1])
    measured = isinstance(latest, tuple)
    session = next(filter(None, map(rules.session, head)), None) \
        or next(filter(None, map(rules.session, tail)), None)
    return {
        "outcome": "measured" if measured else latest or "no_call",
        "host": host,
        "current_input_tokens": _field(latest[0] if measured else None),
        "call_at": _field(latest[2] if measured and isinstance(latest[2], str) else None),
        "model": _field(latest[1] if measured else None),
        "context_capacity_tokens": _field(latest[3] if measured else None),
        "session_id": _field(session),
        "started_at": _field(rules.started(head)),
        "records": len(tail),
        "skipped_lines": skipped,
    }


def _decide(value):
    if not isinstance(value, dict):
        raise Invalid("$")
    if not isinstance(value.get("host"), str) or value["host"] not in HOSTS:
        raise Invalid("$.host")
    if not isinstance(value.get("tail"), str):
        raise Invalid("$.tail")
    if value.get("head") is not None and not isinstance(value["head"], str):
        raise Invalid("$.head")
    output = observe(value["host"], value["tail"], value.get("head"))
    return Decision(output, output["outcome"], EXIT[output["outcome"]])


def decide(value):
    """A parsed input value -> :class:`Decision`; never raises."""
    return decide_or_refuse(_decide, value)


def run(raw):
    """Bytes -> :class:`Decision`; unreadable input answers ``invalid_input`` (exit 2)."""
    return run_strict(raw, MAX_INPUT_BYTES, decide, invalid_input)
