"""Text helpers shared by the generated pages: Markdown table cells and code spans."""

from __future__ import annotations

import html
import re

_CODE_SPAN = re.compile(r"(`+[^`]*?`+)")


def cell(text: str) -> str:
    """Prose for a table cell: one line; outside code spans, pipes and HTML are escaped."""
    pieces = _CODE_SPAN.split(" ".join(str(text).split()))
    return "".join(piece if piece.startswith("`") else html.escape(piece, quote=False).replace("|", "\\|")
                   for piece in pieces)


def code(text) -> str:
    """A Markdown code span holding any text (backticks included), on one line."""
    text = str(text).replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"
