"""How an authoring command's :class:`~passdown.authoring._store.Outcome` reads as text: the
one message the CLI prints and the MCP tools answer with, so the two never differ."""

from __future__ import annotations


def outcome_text(outcome) -> str:
    """The outcome's message, with ``(revision N)`` after a one-line message (a longer one,
    such as ``checkpoint show``'s, names its revision in its first line), and on a line of its
    own the command to run next where the outcome names one (the ``attempt`` steps)."""
    text = outcome.message
    if outcome.revision is not None and "\n" not in text:
        text = f"{text} (revision {outcome.revision})"
    following = outcome.result.get("next") if isinstance(outcome.result, dict) else None
    return f"{text}\n  next: {following}" if following else text
