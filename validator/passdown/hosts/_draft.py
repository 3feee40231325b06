"""``passdown checkpoint from-transcript HOST``: a draft continue checkpoint reconstructed from the
tail of a session that died or ran out of usage without writing one (spec/hosts.md HST-120 to
HST-124).

From the session file's tail (the observer's bounds, :mod:`passdown.hosts._session_file`),
through the host reader's table (:data:`passdown.hosts._observe.HOSTS`): the agent's task list
as completed, running and pending items, the last request of the person as the goal, the files
the session wrote or edited, and its last answer. The task list is the latest todo list
(Claude Code's ``TodoWrite``, Codex's ``update_plan``), or, when Claude Code's task tools
(``TaskCreate``/``TaskUpdate``) were called later than ``TodoWrite``, the fold of every
task-tool call in the tail read (:class:`passdown.hosts._claude_transcript.TaskList`), said to
be possibly partial when an update names a task whose creation was not read or the read
stopped at its bound. Every item and narrative says it was reconstructed and is unverified,
so the successor checks it against the checkout before relying on it. Bounds:
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
        self.records = 0
        #: ``(record number from the end, call's place in the record)`` of the newest todo
        #: list and of the newest task-tool event: which of the two is later.
        self.plan_seen = self.tasks_seen = None
        #: The task-tool events of each record, newest record first: ``(timestamp, events)``.
        self.task_records = []

    def take(self, reader, record):
        number = self.records
        self.records += 1
        if self.plan is None:
            found = reader.plan(record)
            if found is not None:
                self.plan, self.plan_at = found, record.get("timestamp")
                self.plan_seen = (number, reader.todo_call_index(record)
                                  if hasattr(reader, "todo_call_index") else 0)
        events = reader.task_events(record) if hasattr(reader, "task_events") else []
        if events:
            self.task_records.append((record.get("timestamp"), events))
            # a failed result alone (any tool's) is not a sign the task tools were used
            used = any(event[0] != "result" or event[3] is not None for event in events)
            if self.tasks_seen is None and used:
                self.tasks_seen = (number, reader.task_call_index(record))
        if self.request is None:
            self.request = reader.request_text(record)
        if self.answer is None:
            self.answer = reader.answer_text(record)
        for path in reversed(reader.written(record)):
            if path not in self.files:
                self.files.append(path)

    def tasks_win(self):
        """Whether the task tools, not the todo list, hold the latest task list: they were
        used, and later (a smaller number from the end; in one record, a later call)."""
        if self.tasks_seen is None:
            return False
        if self.plan_seen is None:
            return True
        return (self.tasks_seen[0], -self.tasks_seen[1]) < (self.plan_seen[0], -self.plan_seen[1])

    def task_list(self, reader):
        events = [(timestamp, event) for timestamp, record_events in reversed(self.task_records)
                  for event in record_events]
        return reader.TaskList().fold(events)


def _item_ids(tasks):
    """``task-<id>`` for a task whose id is known and unique, else ``task-new-<n>``."""
    counts = {}
    for task in tasks:
        counts[task.task_id] = counts.get(task.task_id, 0) + 1
    return [f"task-{task.task_id}" if task.task_id is not None and counts[task.task_id] == 1
            else f"task-new-{number}" for number, task in enumerate(tasks, start=1)]


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
        cut_short = session_file.tail_exhausted
    now = now or utc_now()
    where = (f"{reader.NAME} session {session} ({path}; {read} of its {size} bytes read, "
             f"from the end)")
    provenance = f"reconstructed from the {reader.NAME} session {session}; unverified"
    items = []
    task_list = tail.task_list(reader) if tail.tasks_win() else None
    if task_list is None:
        for number, (text, status) in enumerate((tail.plan or [])[:MAX_ITEMS], start=1):
            item = {"id": f"todo-{number}", "title": _cut(text, MAX_TITLE),
                    "status": STATUSES.get(status, "pending"),
                    "narrative": {"Provenance": provenance + (f" (todo list of {tail.plan_at})"
                                                              if tail.plan_at else "")}}
            if item["status"] == "completed":
                item["completed"] = tail.plan_at if _clock.parse_ms(tail.plan_at) is not None else now
            items.append(item)
    else:
        tasks = task_list.tasks[:MAX_ITEMS]
        for item_id, task in zip(_item_ids(tasks), tasks):
            named = f"task #{task.task_id}" if task.task_id is not None else \
                "a task whose id no result in the tail names"
            item = {"id": item_id, "title": _cut(task.subject, MAX_TITLE),
                    "status": STATUSES.get(task.status, "pending"),
                    "narrative": {"Provenance": f"{provenance} ({named}, folded from the "
                                                f"TaskCreate and TaskUpdate calls read)"}}
            if item["status"] == "completed":
                item["completed"] = task.changed if _clock.parse_ms(task.changed) is not None else now
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
    partial = False
    if task_list is not None:
        narratives["TaskList"], partial = _task_list_narrative(task_list, cut_short)
        if partial:
            narratives["Hazards"] += "; the task list may be partial (see TaskList)"
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
               "plan_found": tail.plan is not None or task_list is not None,
               "plan_source": ("task tools" if task_list is not None
                               else "todo list" if tail.plan is not None else None),
               "plan_partial": partial}
    return document, summary


def _task_list_narrative(task_list, cut_short):
    """``(text, partial)``: where the items came from and whether the list may lack tasks."""
    text = (f"The items are the task list folded from the {task_list.creates} task creations "
            f"and {task_list.updates} task updates (TaskCreate, TaskUpdate) in the part of the "
            f"session file read, in the order the tasks were created; deleted tasks are left "
            f"out" + (f", and {task_list.failed} calls whose result was an error changed "
                      f"nothing." if task_list.failed else "."))
    reasons = []
    if task_list.unknown:
        shown = ", ".join(f"#{task}" for task in task_list.unknown[:10])
        more = len(task_list.unknown) - 10
        reasons.append(f"updates name tasks whose creation is not in the part read ({shown}"
                       + (f" and {more} more" if more > 0 else "") + "); they are not listed, "
                       f"their subjects being unknown")
    if cut_short:
        reasons.append("the read stopped at its bound before the start of the session file, "
                       "so tasks created earlier are missing")
    if not reasons:
        return text, False
    return (text + " The list may be partial: " + "; ".join(reasons) + ". Find the missing "
            "tasks in the earlier part of the session file or in the host's task list before "
            "relying on this one."), True
