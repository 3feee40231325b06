"""Claude Code's session transcripts (spec/hosts.md, "Observing a session"): where they are
and what their two ends say.

A transcript is ``<projects>/<escaped working folder>/<session id>.jsonl`` under
``$CLAUDE_CONFIG_DIR/projects`` (default ``~/.claude/projects``), one JSON record a line. The
records read here, as real transcripts carry them (tests/data/hosts/MANIFEST.md):

- every conversation record: ``type``, ``sessionId``, ``timestamp``, ``isSidechain``;
- ``assistant`` records: ``message.model`` and ``message.usage`` with ``input_tokens``,
  ``cache_creation_input_tokens`` and ``cache_read_input_tokens``;
- ``system`` records with ``subtype`` ``compact_boundary`` (a compaction happened here);
- ``user`` records (``message.content`` a string, or blocks of ``text`` and ``tool_result``);
- ``TodoWrite`` tool calls (``input.todos`` of ``content``/``status``), ``Write``, ``Edit``,
  ``MultiEdit`` and ``NotebookEdit`` calls (``input.file_path`` / ``notebook_path``);
- the task tools Claude Code keeps its task list with from 2.1.16: ``TaskCreate`` calls
  (``input.subject``), whose result names the task's id (the record's
  ``toolUseResult.task.id``, else the result text ``Task #N created successfully: SUBJECT``),
  and ``TaskUpdate`` calls (``input.taskId``, ``status``, ``subject``); a result marked
  ``is_error`` (or ``toolUseResult.success`` false) undoes its call (:class:`TaskList`).

The context size of the latest main-thread call is the sum of the three input counts of the
last assistant record that is not a sidechain, found from the end before any
``compact_boundary`` (after a compaction with no call since, the size is unknown): the
observe gate's rule (:mod:`passdown.gates.observe`), whose functions this module uses.
"""

from __future__ import annotations

import glob
import os
import re

from passdown.gates import observe as _observe
from passdown.hosts._session_file import host_folder

HOST = "claude"
NAME = "Claude Code"
#: The usage counts that together are the input of one call.
INPUT_COUNTS = _observe.CLAUDE_INPUT_COUNTS
#: The instruction files Claude Code loads, looked for in the working folder and each folder
#: above it, and in the user's configuration folder.
INSTRUCTION_FILES = ("CLAUDE.md", "CLAUDE.local.md", os.path.join(".claude", "CLAUDE.md"))
USER_INSTRUCTION_FILES = ("CLAUDE.md",)
#: What a fresh session loads before any project file: the host's system prompt and its tool
#: definitions. Stated, not measured: the first call of a real fresh session with a short
#: project CLAUDE.md read 26,450 input tokens (tests/data/hosts/MANIFEST.md), of which this
#: allowance is the host's part. Calibration (PRC-101) corrects it.
PROMPT_ALLOWANCE_TOKENS = 20000
#: Tools whose ``input`` names a file the session wrote.
WRITE_TOOLS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path",
               "NotebookEdit": "notebook_path"}


def config_folder(environ=None):
    return host_folder(environ, "CLAUDE_CONFIG_DIR", ".claude")


def projects_folder(environ=None):
    return os.path.join(config_folder(environ), "projects")


def escaped(folder):
    """The names Claude Code may give the transcript folder of ``folder``: every character
    that is not a letter or digit as ``-``, and the older form with only ``/``, ``.``, space
    and ``~`` replaced."""
    absolute = os.path.abspath(folder)
    return list(dict.fromkeys([re.sub(r"[^A-Za-z0-9]", "-", absolute),
                               re.sub(r"[/. ~]", "-", absolute)]))


def find(*, session=None, project=None, environ=None):
    """The transcript of ``session`` (any project), or the newest of ``project``, by the
    files' modification times only (no file is read); ``None`` when there is none."""
    root = projects_folder(environ)
    if session is not None:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,128}", session):
            return None
        found = sorted(glob.glob(os.path.join(glob.escape(root), "*", session + ".jsonl")))
        return found[0] if found else None
    newest = None
    for name in escaped(project or os.getcwd()):
        for path in glob.glob(os.path.join(glob.escape(os.path.join(root, name)), "*.jsonl")):
            try:
                mtime = os.stat(path).st_mtime
            except OSError:
                continue
            if newest is None or mtime > newest[0]:
                newest = (mtime, path)
    return newest[1] if newest else None


#: The reading rules of the records (the observe gate's, spec/gates/observe.md).
call_size = _observe.claude_call
is_compaction = _observe.claude_is_compaction
session_of = _observe.claude_session
started = _observe.claude_started
latest_call = _observe.claude_latest


def recognised(records):
    """Whether the records are a Claude Code transcript's: some carry a ``sessionId``."""
    return _observe.HOSTS[HOST].recognised(records)


def first_call(records):
    """``(tokens, timestamp)`` of the first main-thread call among ``records`` (the head):
    the observed start-up of the session, or ``None``."""
    for record in records:
        size = call_size(record)
        if size is not None:
            return size[0], record.get("timestamp")
    return None


# -- what a dead session leaves: its latest plan, writes, request and answer ----------------

def _text_blocks(content):
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [block.get("text") for block in content
                if isinstance(block, dict) and block.get("type") == "text"
                and isinstance(block.get("text"), str)]
    return []


def _tool_calls(record):
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [block for block in content if isinstance(block, dict)
            and block.get("type") == "tool_use" and isinstance(block.get("input"), dict)]


#: The user records that are the host's, not the person's: command echoes and reminders.
_HOST_TEXT = ("<local-command-", "<command-name>", "<command-message>", "<system-reminder>",
              "<task-notification>", "Caveat: ")


def request_text(record):
    """The person's words in a main-thread ``user`` record, or None (tool results, meta
    records and the host's own echoes are not a request)."""
    if record.get("type") != "user" or record.get("isSidechain") is True \
            or record.get("isMeta") is True or record.get("isCompactSummary") is True:
        return None
    message = record.get("message")
    texts = [text.strip() for text in _text_blocks(message.get("content")
                                                   if isinstance(message, dict) else None)]
    texts = [text for text in texts if text and not text.startswith(_HOST_TEXT)]
    return "\n".join(texts) or None


def answer_text(record):
    if record.get("type") != "assistant" or record.get("isSidechain") is True:
        return None
    message = record.get("message")
    texts = [text.strip() for text in _text_blocks(message.get("content")
                                                   if isinstance(message, dict) else None)]
    return "\n".join(text for text in texts if text) or None


def plan(record):
    """The todo list of a main-thread ``TodoWrite`` call: ``[(text, status)]``, or None."""
    if record.get("isSidechain") is True:
        return None
    for call in reversed(_tool_calls(record)):
        if call.get("name") == "TodoWrite" and isinstance(call["input"].get("todos"), list):
            return [(todo.get("content"), todo.get("status")) for todo in call["input"]["todos"]
                    if isinstance(todo, dict) and isinstance(todo.get("content"), str)]
    return None


#: The task tools' statuses; ``deleted`` removes the task from the list.
TASK_STATUSES = ("pending", "in_progress", "completed", "deleted")
_CREATED = re.compile(r"Task #([A-Za-z0-9_-]{1,64}) created successfully(?:: (.*))?\Z", re.S)


def _last_call(record, names):
    """The position of the last tool call of ``names`` among the record's blocks, or -1."""
    return max((index for index, call in enumerate(_tool_calls(record))
                if call.get("name") in names), default=-1)


def todo_call_index(record):
    return _last_call(record, ("TodoWrite",))


def task_call_index(record):
    return _last_call(record, ("TaskCreate", "TaskUpdate"))


def _result_text(block):
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(_text_blocks(content))


def _task_id(value):
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    value = str(value).strip()
    return value if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", value) else None


def task_events(record):
    """The task-tool events of a main-thread record, in the record's order: ``("create",
    call, subject)``, ``("update", call, task_id, status, subject)``, ``("result", call, failed,
    created_id, created_subject)`` (a tool result that failed or names a created task: whose
    call it answers is known only when the list is folded)."""
    if record.get("isSidechain") is True:
        return []
    events = []
    for call in _tool_calls(record):
        arguments, call_id = call["input"], call.get("id")
        if call.get("name") == "TaskCreate" and isinstance(arguments.get("subject"), str):
            events.append(("create", call_id, arguments["subject"]))
        elif call.get("name") == "TaskUpdate":
            task = _task_id(arguments.get("taskId"))
            status = arguments.get("status")
            subject = arguments.get("subject")
            if task is not None:
                events.append(("update", call_id, task,
                               status if status in TASK_STATUSES else None,
                               subject if isinstance(subject, str) and subject.strip() else None))
    if record.get("type") != "user":
        return events
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    results = [block for block in content if isinstance(block, dict)
               and block.get("type") == "tool_result"] if isinstance(content, list) else []
    outcome = record.get("toolUseResult")
    # the record-level outcome is the result's only when the record holds one result
    outcome = outcome if isinstance(outcome, dict) and len(results) == 1 else {}
    for block in results:
        created = outcome.get("task") if isinstance(outcome.get("task"), dict) else {}
        task = _task_id(created.get("id"))
        subject = created.get("subject") if isinstance(created.get("subject"), str) else None
        found = _CREATED.match(_result_text(block).strip())
        if found and task is None:
            task = found.group(1)
        if found and subject is None and found.group(2):
            subject = found.group(2)
        failed = block.get("is_error") is True or outcome.get("success") is False
        # only a failure or a named creation changes the fold: the rest are not kept
        if failed or task is not None:
            events.append(("result", block.get("tool_use_id"), failed, task,
                           subject.strip() if subject and subject.strip() else None))
    return events


class Task:
    """One task of the list: its subject, status, id (once a result named it) and when its
    status last changed (the record's timestamp, or None)."""

    __slots__ = ("subject", "status", "task_id", "changed")

    def __init__(self, subject, changed):
        self.subject, self.status, self.task_id, self.changed = subject, "pending", None, changed


class TaskList:
    """The task list the task tools kept, folded from their events in file order.

    A create makes a pending task, its result gives the task its id; a result naming a created
    task whose call is not among the events (the read began after it) makes the task too,
    from the subject the result states; an update sets the status and subject of a task known
    by its id and ``deleted`` removes it. An update of an id no create or result named is not
    made into a task (its subject is not known): it is counted in ``unknown``, as a sign that
    the list is partial. A call whose result is an error changes nothing."""

    def __init__(self):
        self.tasks = []
        self.unknown = []
        self.creates = self.updates = self.failed = 0

    def fold(self, events):
        """``events``: ``(timestamp, event)`` in file order."""
        failed = {event[1] for _, event in events
                  if event[0] == "result" and event[2] and event[1] is not None}
        by_call, by_id = {}, {}
        for timestamp, event in events:
            kind, call = event[0], event[1]
            if kind != "result" and call is not None and call in failed:
                self.failed += 1
                continue
            if kind == "create":
                self.creates += 1
                task = Task(event[2], changed=timestamp)
                self.tasks.append(task)
                if call is not None:
                    by_call[call] = task
            elif kind == "result" and not event[2] and event[3] is not None:
                task = by_call.get(call)
                if task is None and event[4] is not None:
                    self.creates += 1
                    task = Task(event[4], changed=timestamp)
                    self.tasks.append(task)
                if task is not None:
                    task.task_id = event[3]
                    by_id[event[3]] = task
            elif kind == "update":
                self.updates += 1
                task = by_id.get(event[2])
                if task is None:
                    if event[2] not in self.unknown:
                        self.unknown.append(event[2])
                    continue
                if event[3] == "deleted":
                    self.tasks = [other for other in self.tasks if other is not task]
                    del by_id[event[2]]
                    continue
                if event[3] is not None and event[3] != task.status:
                    task.status, task.changed = event[3], timestamp
                if event[4] is not None:
                    task.subject = event[4]
        return self


def written(record):
    """The files a main-thread record's tool calls wrote or edited."""
    if record.get("isSidechain") is True:
        return []
    paths = []
    for call in _tool_calls(record):
        key = WRITE_TOOLS.get(call.get("name"))
        if key and isinstance(call["input"].get(key), str):
            paths.append(call["input"][key])
    return paths


def working_folder(records):
    for record in records:
        if isinstance(record.get("cwd"), str):
            return record["cwd"]
    return None
