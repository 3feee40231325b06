"""Output formats for a validation report, chosen by name.

Each format is a module with ``render(report, *, strict, color, quiet) -> str`` (the whole
output, final newline included; empty when there is nothing to print). Modules load on
first use.
"""

from __future__ import annotations

import importlib

_FORMATS = {
    "text": "baton.reporters._text",
    "json": "baton.reporters._json",
    "sarif": "baton.reporters._sarif",
    "github": "baton.reporters._github",
}


def printable(text: str) -> str:
    """``text`` with any lone surrogate (a file name that is not UTF-8, a value read from a
    ``\\ud800`` escape) spelled as an escape, so it can always be written out."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


#: ANSI styles of the text outputs, by what they mark.
STYLES = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "code": "\x1b[36m",
          "hint": "\x1b[2m", "ok": "\x1b[32m"}
_RESET = "\x1b[0m"


def paint(style: str, text: str, color: bool = True) -> str:
    """``text`` in the ANSI style ``style`` (a key of :data:`STYLES`), when ``color``."""
    return f"{STYLES[style]}{text}{_RESET}" if color else text


def use_color(choice: str, *, err: bool = False) -> bool:
    """Whether to colour output for ``--color choice`` on stdout (or stderr with ``err``)."""
    import os
    import sys

    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return (sys.stderr if err else sys.stdout).isatty()


def names() -> tuple[str, ...]:
    """The format names, the default first."""
    return tuple(_FORMATS)


def render(name: str, report, *, strict: bool = False, color: bool = False,
           quiet: bool = False) -> str:
    """``report`` in format ``name``; ``KeyError`` for an unknown name."""
    module = importlib.import_module(_FORMATS[name])
    return module.render(report, strict=strict, color=color, quiet=quiet)
