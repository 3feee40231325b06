"""The command line that starts a fresh session of a harness with its first message
(spec/procedure.md, PRC-066): printed for the launcher, never run here.

Owns the table of harnesses and how each one's command-line interface starts a new, fresh
conversation with an initial prompt, as its documentation states: Claude Code
``claude "query"`` (``-p`` to print one answer and exit; ``--session-id UUID`` gives the new
session an id chosen beforehand), Codex CLI ``codex "prompt"`` (``codex exec`` without its
terminal interface). Neither resumes nor forks an earlier conversation (``claude -c``/``-r``,
``codex resume``): the successor starts fresh. Every word is quoted for a POSIX shell, so
the printed line runs the argv it shows whatever the prompt and the folder hold.
"""

from __future__ import annotations

import re
import shlex

from passdown.errors import UsageError

#: A session id Claude Code accepts for ``--session-id``.
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")


def _claude(prompt, *, target_id, model, headless):
    argv = ["claude"]
    if headless:
        argv.append("-p")
    if target_id is not None:
        if not _UUID.match(target_id):
            raise UsageError(f"Claude Code takes a UUID as a new session's id, not "
                             f"{target_id!r}", code="authoring.bad_value",
                             hint="leave out --target-id and record the id Claude Code shows "
                                  "(`attempt created`), or give a UUID")
        argv += ["--session-id", target_id]
    if model is not None:
        argv += ["--model", model]
    return [*argv, prompt]


def _codex(prompt, *, target_id, model, headless):
    if target_id is not None:
        raise UsageError("Codex CLI chooses a new session's id itself: --target-id cannot be "
                         "given to it", code="authoring.bad_value",
                         hint="leave out --target-id; record the thread id Codex CLI reports "
                              "with `passdown attempt created`")
    argv = ["codex", "exec"] if headless else ["codex"]
    if model is not None:
        argv += ["--model", model]
    return [*argv, prompt]


#: The harnesses a command line is printed for: name -> the argv builder.
HARNESSES = {"claude": _claude, "codex": _codex}


def argv(harness: str, prompt: str, *, target_id: str | None = None, model: str | None = None,
         headless: bool = False) -> list[str]:
    """The argv that starts a fresh ``harness`` session with ``prompt``."""
    return HARNESSES[harness](prompt, target_id=target_id, model=model, headless=headless)


def command_line(folder: str, words: list[str]) -> str:
    """``cd FOLDER && WORDS``, every word quoted for a POSIX shell."""
    return f"cd {shlex.quote(folder)} && {shlex.join(words)}"
