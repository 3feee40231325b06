"""Where the packaged data lives: schemas, conformance fixtures and examples.

In an installed wheel they sit under ``passdown/_data/``; in a source checkout (editable
install, tests) they are the repository's own top-level folders. Nothing is ever fetched.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """``schemas``, ``conformance`` or ``examples``."""
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    checkout = _PACKAGE.parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"Passdown's {name} folder is missing from this installation")


def schema_path(relative: str) -> Path:
    """A schema file by its path under ``schemas/v1/`` (``"ack.schema.json"``)."""
    return data_dir("schemas") / "v1" / relative
