"""``passdown observe HOST``: the restart gate's observation fields read off a real host session
(spec/hosts.md HST-100 to HST-108), each labelled ``measured``, ``estimated`` or ``unknown``
with its source; the path, the bytes read and the time taken said with them.

The host readers are a table (:data:`HOSTS`, one module per host format, each with the same
functions); this module only assembles what they read: the session file's head and tail
(:mod:`passdown.hosts._session_file`), the compactions the hooks counted
(:mod:`passdown.hosts._compactions`) and the fresh start-up estimate
(:mod:`passdown.hosts._startup`). It decides nothing: the gates stay pure.
"""

from __future__ import annotations

import os
import time

from passdown.authoring import CHECKPOINT_PATH, PACKET_NAME, calibration_factor
from passdown.formats._clock import parse_ms, utc_now
from passdown.hosts import _claude_transcript, _codex_rollout, _compactions, _startup
from passdown.hosts._session_file import SessionFile, SessionFileError

#: Host name -> the reader of its session files.
HOSTS = {"claude": _claude_transcript, "codex": _codex_rollout}
#: The observation fields, in the order they are printed.
FIELDS = ("current_input_tokens", "context_capacity_tokens", "compactions",
          "session_age_seconds", "fresh_input_tokens")
MEASURED, ESTIMATED, UNKNOWN = "measured", "estimated", "unknown"


class ObserveError(Exception):
    """The session cannot be observed: a stable ``code``, a message and a fix hint."""

    def __init__(self, code, message, hint):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


def value(value, basis, source):
    return {"value": value if basis != UNKNOWN else None, "basis": basis, "source": source}


def locate(host, *, transcript=None, session=None, project=None, environ=None):
    """The session file: ``transcript`` as given, else found by ``session`` or as the newest
    of ``project`` in the host's own folder of sessions."""
    reader = HOSTS[host]
    if transcript is not None:
        return os.fspath(transcript)
    found = reader.find(session=session, project=project, environ=environ)
    if found is None:
        where = f"session {session}" if session is not None else \
            f"the project {os.path.abspath(project or os.getcwd())}"
        raise ObserveError("observe.no_session", f"no {reader.NAME} session file found for {where}",
                           "pass the session file with --transcript FILE")
    return found


def _age(started, now_ms):
    start_ms = parse_ms(started) if isinstance(started, str) else None
    if start_ms is None:
        return None
    return max(0, (now_ms - start_ms) // 1000)


def observe(host, path, *, folder=".", workspace=None, context_capacity=None, registry=None,
            environ=None, now=None):
    """The observation of the session file at ``path`` as a JSON-ready dict."""
    reader = HOSTS[host]
    began = time.perf_counter()
    observed_at = now or utc_now()
    try:
        session_file = SessionFile(path)
    except SessionFileError as error:
        raise ObserveError(error.code, error.message, error.hint) from None
    with session_file:
        head = session_file.head()
        if not reader.recognised(head):
            raise ObserveError("observe.not_a_transcript",
                               f"{path}: the first {len(head)} records are not a {reader.NAME} "
                               f"session's", f"pass a {reader.NAME} session file "
                               f"(`passdown observe {'codex' if host == 'claude' else 'claude'}` "
                               f"reads the other host's)")
        tail = []
        latest = reader.latest_call(_remember(session_file.tail(), tail))
        capacity = latest[3] if isinstance(latest, tuple) else None
        exhausted = session_file.tail_exhausted
        session_id = next(filter(None, map(reader.session_of, head)), None) \
            or next(filter(None, map(reader.session_of, tail)), None)
        started = reader.started(head)
        first = reader.first_call(head)
        stats = {"file_bytes": session_file.size, "bytes_read": session_file.bytes_read,
                 "records_skipped": session_file.skipped}
    fields = {}
    if isinstance(latest, tuple):
        fields["current_input_tokens"] = value(
            latest[0], MEASURED, f"{reader.NAME} usage of the latest call "
                                 f"({latest[2]}), read from the session file's tail")
        model = value(latest[1], MEASURED if latest[1] else UNKNOWN,
                      "the latest call" if latest[1] else "not stated in the tail read")
    else:
        why = ("a compaction came after the latest call: no call since" if latest == "compacted"
               else f"no call within the last {session_file.tail_bytes} bytes" if exhausted
               else "no call yet")
        fields["current_input_tokens"] = value(None, UNKNOWN, why)
        model = value(None, UNKNOWN, why)
    if capacity is not None:
        fields["context_capacity_tokens"] = value(capacity, MEASURED,
                                                  "model_context_window of the latest token count")
    elif context_capacity is not None:
        fields["context_capacity_tokens"] = value(context_capacity, ESTIMATED,
                                                  "stated by --context-capacity")
    else:
        fields["context_capacity_tokens"] = value(None, UNKNOWN, f"the {reader.NAME} session file "
                                                  "does not state it: pass --context-capacity")
    counted = _compactions.count(folder, host, session_id) if session_id else None
    fields["compactions"] = value(counted, MEASURED if counted is not None else UNKNOWN,
                                  f"counted by Passdown's {_compactions.EVENTS[host]} hook "
                                  f"in {_compactions.path_of(folder)}" if counted is not None else
                                  "no compaction count recorded by a hook for this session")
    now_ms = parse_ms(observed_at)
    age = _age(started, now_ms)
    fields["session_age_seconds"] = value(age, MEASURED if age is not None else UNKNOWN,
                                          f"since the first record's timestamp {started}"
                                          if age is not None else "the head states no start")
    workspace = workspace or reader.working_folder(head) or folder
    factor, calibration = calibration_factor(registry) if registry is not None else (None, None)
    estimate = _startup.Estimate(_startup.inventory(
        reader, workspace=workspace if os.path.isdir(workspace) else folder, folder=folder,
        checkpoint_path=os.path.join(folder, CHECKPOINT_PATH),
        packet_path=os.path.join(folder, PACKET_NAME), environ=environ), factor, calibration)
    fields["fresh_input_tokens"] = value(
        estimate.tokens, ESTIMATED if estimate.tokens is not None else UNKNOWN,
        estimate.method if estimate.tokens is not None else
        f"a fragment's size is unknown (the known part is {estimate.partial_tokens} tokens)")
    elapsed = (time.perf_counter() - began) * 1000
    return {
        "host": host, "path": os.fspath(path), **stats,
        "elapsed_ms": round(elapsed, 3), "observed_at": observed_at,
        "session_id": value(session_id, MEASURED if session_id else UNKNOWN,
                            "the session file's records"),
        "started_at": value(started, MEASURED if started else UNKNOWN, "the first record"),
        "model": model,
        "startup_observed": value(first[0] if first else None, MEASURED if first else UNKNOWN,
                                  f"the first call ({first[1]}), read from the head" if first
                                  else "no call in the head"),
        "fields": fields,
        "startup": estimate.to_dict(),
    }


def _remember(records, kept, limit=64):
    """Pass the tail through, keeping its first ``limit`` records for a second look."""
    for record in records:
        if len(kept) < limit:
            kept.append(record)
        yield record


def gate_values(observation):
    """``(inputs, basis)``: the numeric gate inputs that were observed, and their labels."""
    inputs, basis = {}, {}
    for name, field in observation["fields"].items():
        if field["basis"] != UNKNOWN:
            inputs[name], basis[name] = field["value"], field["basis"]
    return inputs, basis


def text(observation):
    """The observation for a person: one line per field."""
    session = observation["session_id"]["value"] or "(unknown session)"
    lines = [f"{HOSTS[observation['host']].NAME} session {session}",
             f"  file: {observation['path']} ({observation['file_bytes']} bytes; read "
             f"{observation['bytes_read']} in {observation['elapsed_ms']:.1f} ms)"]
    rows = [(name, observation["fields"][name]) for name in FIELDS]
    rows += [("model", observation["model"]), ("started_at", observation["started_at"])]
    for name, field in rows:
        shown = "" if field["value"] is None else str(field["value"])
        lines.append(f"  {name:<24} {shown:>12}  {field['basis']:<9}  {field['source']}")
    startup = observation["startup"]
    lines.append(f"  fresh start-up inventory ({startup['method']}):")
    for fragment in startup["fragments"]:
        size = "unknown" if fragment["tokens"] is None else f"{fragment['tokens']} tokens"
        flag = "  OVERSIZED: split or summarise it" if fragment["oversized"] else ""
        where = f" {fragment['path']}" if fragment["path"] else ""
        lines.append(f"    {size:>14}  {fragment['purpose']}{where}{flag}")
    return "\n".join(lines)


