"""Output formats for a validation report, chosen by name.

Each format is a module with ``render(report, *, strict, color, quiet) -> str`` (the whole
output, final newline included; empty when there is nothing to print). Modules load on
first use.
"""

from __future__ import annotations

import importlib

from passdown._text import STYLES, paint  # noqa: F401  (the reporters' styles, shared with every layer)

_FORMATS = {
    "text": "passdown.reporters._text",
    "json": "passdown.reporters._json",
    "sarif": "passdown.reporters._sarif",
    "github": "passdown.reporters._github",
}


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
