"""Codex CLI's session rollout files (spec/hosts.md, "Observing a session"): where they are
and what their two ends say. The same reader interface as
:mod:`passdown.hosts._claude_transcript`, so observers, hooks and the draft checkpoint read
either host through one table.

A rollout is ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`` (default
``~/.codex/sessions``), one ``{"timestamp", "type", "payload"}`` record a line. The records
read here, as real rollouts carry them (tests/data/hosts/MANIFEST.md):

- ``session_meta`` (the first record): ``payload.id``, ``payload.timestamp``, ``payload.cwd``;
- ``turn_context``: ``payload.model``;
- ``event_msg`` with ``payload.type`` ``token_count``: ``payload.info.last_token_usage``
  (``input_tokens``, the input of the latest call, cached part included) and
  ``payload.info.model_context_window``; ``info`` is ``null`` before the first call, and an
  all-zero count around a compaction is no call (the observe gate's rules,
  :mod:`passdown.gates.observe`, whose functions this module uses);
- ``compacted`` (a compaction replaced the history here);
- ``event_msg`` ``user_message`` / ``agent_message`` (``payload.message``);
- ``response_item`` ``function_call`` ``update_plan`` (``arguments``: a JSON text with
  ``plan`` of ``step``/``status``) and ``custom_tool_call`` ``apply_patch`` (``input``: the
  patch, whose ``*** Add File:`` / ``*** Update File:`` lines name the files written).
"""

from __future__ import annotations

import glob
import json
import os
import re

from passdown.gates import observe as _observe
from passdown.hosts._session_file import host_folder

HOST = "codex"
NAME = "Codex CLI"
INSTRUCTION_FILES = ("AGENTS.override.md", "AGENTS.md")
USER_INSTRUCTION_FILES = ("AGENTS.override.md", "AGENTS.md")
#: The host's base instructions and tool definitions: a real rollout's session_meta carries
#: its base instructions (21,335 characters), and its first call read 18,703 input tokens
#: (tests/data/hosts/MANIFEST.md). Stated, not measured; calibration corrects it.
PROMPT_ALLOWANCE_TOKENS = 12000
#: The most rollout files whose first line is read to find a project's newest session.
MAX_CANDIDATES = 200
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update) File: (.+)$", re.MULTILINE)


def config_folder(environ=None):
    return host_folder(environ, "CODEX_HOME", ".codex")


def sessions_folder(environ=None):
    return os.path.join(config_folder(environ), "sessions")


def _first_record(path):
    try:
        with open(path, "rb") as handle:
            line = handle.readline(1 << 20)
        value = json.loads(line)
    except (OSError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def find(*, session=None, project=None, environ=None):
    """The rollout of ``session``, or the newest one whose ``session_meta`` names
    ``project`` as its working folder: candidates newest first by modification time, only
    their first line read, at most :data:`MAX_CANDIDATES`; ``None`` when there is none."""
    root = glob.escape(sessions_folder(environ))
    if session is not None:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,128}", session):
            return None
        found = sorted(glob.glob(os.path.join(root, "*", "*", "*", f"rollout-*{session}.jsonl")))
        return found[-1] if found else None
    folder = os.path.abspath(project or os.getcwd())
    candidates = []
    for path in glob.glob(os.path.join(root, "*", "*", "*", "rollout-*.jsonl")):
        try:
            candidates.append((os.stat(path).st_mtime, path))
        except OSError:
            continue
    for _, path in sorted(candidates, reverse=True)[:MAX_CANDIDATES]:
        record = _first_record(path)
        payload = record.get("payload") if record else None
        if isinstance(payload, dict) and isinstance(payload.get("cwd"), str) \
                and os.path.abspath(payload["cwd"]) == folder:
            return path
    return None


#: The reading rules of the records (the observe gate's, spec/gates/observe.md).
_payload = _observe.payload_of
_meta = _observe.codex_meta
session_of = _observe.codex_session
started = _observe.codex_started
_usage = _observe.codex_usage
latest_call = _observe.codex_latest


def recognised(records):
    """Whether the records are a Codex rollout's: one is its ``session_meta``."""
    return _meta(records) is not None


def first_call(records):
    for record in records:
        info = _usage(record)
        if info is not None:
            return info["last_token_usage"]["input_tokens"], record.get("timestamp")
    return None


# -- what a dead session leaves ---------------------------------------------------------------

def request_text(record):
    payload = _payload(record, "event_msg")
    if payload and payload.get("type") == "user_message" and isinstance(payload.get("message"), str):
        return payload["message"].strip() or None
    return None


def answer_text(record):
    payload = _payload(record, "event_msg")
    if payload and payload.get("type") == "agent_message" and isinstance(payload.get("message"), str):
        return payload["message"].strip() or None
    return None


def plan(record):
    payload = _payload(record, "response_item")
    if not payload or payload.get("type") != "function_call" or payload.get("name") != "update_plan":
        return None
    try:
        arguments = json.loads(payload.get("arguments") or "")
    except (TypeError, ValueError, RecursionError):
        return None
    steps = arguments.get("plan") if isinstance(arguments, dict) else None
    if not isinstance(steps, list):
        return None
    return [(step.get("step"), step.get("status")) for step in steps
            if isinstance(step, dict) and isinstance(step.get("step"), str)]


def written(record):
    payload = _payload(record, "response_item")
    if not payload or payload.get("type") != "custom_tool_call" or payload.get("name") != "apply_patch":
        return []
    text = payload.get("input")
    return [name.strip() for name in _PATCH_FILE.findall(text)] if isinstance(text, str) else []


def working_folder(records):
    meta = _meta(records)
    return meta.get("cwd") if meta and isinstance(meta.get("cwd"), str) else None
