"""``passdown checkpoint from-transcript HOST``: a draft continue checkpoint reconstructed from the
tail of a session that died or ran out of usage without writing one (spec/hosts.md HST-120 to
HST-124).

From the session file's tail (the observer's bounds, :mod:`passdown.hosts._session_file`),
through the host reader's table (:data:`passdown.hosts._observe.HOSTS`): the latest todo list
the agent kept (Claude Code's ``TodoWrite``, Codex's ``update_plan``) as completed, running and
pending items, the last request of the person as the goal, the files the session wrote or
edited, and its last answer. Every item and narrative says it was reconstructed and is
unverified, so the successor checks it against the checkout before relying on it. Bounds:
:data:`MAX_ITEMS` items, :data:`MAX_TEXT` characters a text, :data:`MAX_FILES` files.
"""

from __future__ import annotations

import re

from passdown.formats import _clock
from passdown.formats._clock import utc_now
from passdown.hosts import _observe
from passdown.hosts._session_file import SessionFile, SessionFileError

MAX_ITEMS = 100
MAX_TEXT = 2000
MAX_TITLE = 300
MAX_FILES = 100
#: The host's todo status -> the xBRIEF item status.
STATUSES = {"completed": "completed", "in_progress": "running", "pending": "pending"}


def _cut(text, limit):
    text = text.strip()
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _title(text):
    first = next((line for line in text.splitlines() if line.strip()), text)
    return _cut(first, 120)


class Tail:
    """What the tail of a session says, newest first as it is read."""

    def __init__(self):
        self.plan = self.request = self.answer = None
        self.plan_at = None
        self.files = []

    def take(self, reader, record):
        if self.plan is None:
            found = reader.plan(record)
            if found is not None:
                self.plan, self.plan_at = found, record.get("timestamp")
        if self.request is None:
            self.request = reader.request_text(record)
        if self.answer is None:
            self.answer = reader.answer_text(record)
        for path in reversed(reader.written(record)):
            if path not in self.files:
                self.files.append(path)


def reconstruct(host, path, *, now=None):
    """``(document, summary)``: the draft checkpoint of the session file at ``path``."""
    reader = _observe.HOSTS[host]
    try:
        session_file = SessionFile(path)
    except SessionFileError as error:
        raise _observe.ObserveError(error.code, error.message, error.hint) from None
    with session_file:
        head = session_file.head()
        if not reader.recognised(head):
            raise _observe.ObserveError("observe.not_a_transcript",
                                        f"{path}: the first {len(head)} records are not a "
                                        f"{reader.NAME} session's",
                                        f"pass a {reader.NAME} session file")
        tail = Tail()
        for record in session_file.tail():
            tail.take(reader, record)
        session = next(filter(None, map(reader.session_of, head)), None) or "unknown"
        read, size = session_file.bytes_read, session_file.size
    now = now or utc_now()
    where = (f"{reader.NAME} session {session} ({path}; {read} of its {size} bytes read, "
             f"from the end)")
    provenance = f"reconstructed from the {reader.NAME} session {session}; unverified"
    items = []
    for number, (text, status) in enumerate((tail.plan or [])[:MAX_ITEMS], start=1):
        item = {"id": f"todo-{number}", "title": _cut(text, MAX_TITLE),
                "status": STATUSES.get(status, "pending"),
                "narrative": {"Provenance": provenance + (f" (todo list of {tail.plan_at})"
                                                          if tail.plan_at else "")}}
        if item["status"] == "completed":
            item["completed"] = tail.plan_at if _clock.parse_ms(tail.plan_at) is not None else now
        items.append(item)
    goal = tail.request or "unknown: the tail holds no request of the person"
    open_items = [item for item in items if item["status"] == "pending"]
    if not open_items:
        items.append({"id": "verify-and-continue",
                      "title": _cut(f"Verify the reconstructed state, then continue: {_title(goal)}",
                                    MAX_TITLE),
                      "status": "pending", "narrative": {"Provenance": provenance}})
        open_items = items[-1:]
    open_items[0]["narrative"]["ResumePoint"] = (
        "Check this reconstructed state against the checkout (git status, the files written "
        "below) before relying on it, then continue with this item.")
    files = tail.files[:MAX_FILES]
    more = len(tail.files) - len(files)
    narratives = {
        "Reconstruction": f"Draft checkpoint reconstructed by `passdown checkpoint from-transcript "
                          f"{host}` from the {where}, written {now}. Nothing here is verified: "
                          f"the session left no checkpoint.",
        "Goal": _cut(goal, MAX_TEXT),
        "LastAnswer": _cut(tail.answer or "unknown: the tail holds no answer", MAX_TEXT),
        "FilesWritten": ("\n".join(files) + (f"\n... and {more} more" if more else ""))
                        if files else "none found in the tail read",
        "Decisions": "unknown: decisions are not reconstructed from a transcript; read the "
                     "session's last answer and the checkout",
        "Hazards": "every item is reconstructed and unverified; the files written may hold "
                   "unfinished edits",
    }
    document = {
        "xBRIEFInfo": {"version": "0.8",
                       "description": f"Draft continue checkpoint reconstructed from the {where}",
                       "created": now, "updated": now},
        "plan": {"id": "reconstructed-" + re.sub(r"[^A-Za-z0-9-]", "-", session)[:64],
                 "title": _title(goal), "status": "running", "narratives": narratives,
                 "items": items},
    }
    summary = {"session_id": session, "bytes_read": read, "file_bytes": size,
               "items": len(items), "completed": sum(i["status"] == "completed" for i in items),
               "open": sum(i["status"] != "completed" for i in items), "files_written": len(tail.files),
               "plan_found": tail.plan is not None}
    return document, summary
