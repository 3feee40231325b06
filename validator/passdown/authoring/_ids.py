"""Identifiers Passdown mints: restart ids and incarnation ids.

The form is a ULID: 26 Crockford base-32 characters, a 48-bit millisecond timestamp then 80
random bits. Ids sort by creation time as plain strings, carry no host or user data, and fit
the restart-id grammar (letters and digits only).
"""

from __future__ import annotations

import secrets
import time

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_ulid(now_ms: int | None = None) -> str:
    """A new ULID; ``now_ms`` (milliseconds since the epoch) defaults to the clock."""
    stamp = int(time.time() * 1000) if now_ms is None else now_ms
    value = (stamp & ((1 << 48) - 1)) << 80 | secrets.randbits(80)
    return "".join(_ALPHABET[(value >> shift) & 31] for shift in range(125, -1, -5))
