"""How an authoring command's :class:`~passdown.authoring._store.Outcome` reads as text: the
one message the CLI prints and the MCP tools answer with, so the two never differ."""

from __future__ import annotations


def outcome_text(outcome) -> str:
    """The outcome's message, with ``(revision N)`` after a one-line message (a longer one,
    such as ``checkpoint show``'s, names its revision in its first line)."""
    if outcome.revision is None or "\n" in outcome.message:
        return outcome.message
    return f"{outcome.message} (revision {outcome.revision})"
