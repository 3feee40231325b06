"""Semantic rules of the continuation packet (spec/packet.md), for both of its forms: the text
form ``continuation.packet.txt`` (read with :mod:`passdown.formats._packet`, so findings carry line
numbers) and the JSON projection ``continuation.packet.json``.

The grammar's own problems (``packet.syntax``, ``packet.line_ending``, ``packet.control_char``)
come from :func:`passdown.formats._packet.parse` and the validator reports them; the rules here start
from the fields. Presence, emptiness and the forms of GOAL_ID, RESTART_ID and CHECKPOINT_DIGEST are
stated by the projection's schema, which the validator applies to both forms; the rules add
what a schema cannot see: unknown keys (a projection has no member for them), duplicates and
order (text form only), the size and word bounds, secrets, and digests in a known algorithm
with the wrong encoding. Paths name the projection member of the field concerned
(``$.restart_id``) in both forms.
"""

from __future__ import annotations

import re
from functools import lru_cache

from passdown.formats import _packet
from passdown._findings import WARNING
from passdown.rules import Artifact, Hit, rule
from passdown.rules._shared import (
    quoted,
    register_digest_rules,
    register_version_rules,
    top_level_version,
)

KIND = "packet"
#: The hard bound on a packet's size in bytes (UTF-8).
MAX_BYTES = 64 * 1024
#: Above this many words a packet is flagged: the protocol aims for one to two thousand.
WORD_BOUND = 2000

_KEY_SHAPE = re.compile(r"[^A-Z0-9]")


@lru_cache(maxsize=8)
def _parse_text(text: str) -> _packet.Parsed:
    return _packet.parse(text)


def read(artifact: Artifact) -> tuple[_packet.Parsed, bool]:
    """The packet's fields, and whether it came as the JSON projection."""
    if isinstance(artifact.data, dict) and _packet.is_projection(artifact.text):
        return _packet.from_projection(artifact.data), True
    if isinstance(artifact.text, str):
        return _parse_text(artifact.text), False
    return _packet.Parsed(()), False


def _path(key: str) -> tuple:
    member = _packet.MEMBER_BY_KEY.get(key)
    return (member,) if member else ()


def _at(parsed: _packet.Parsed, key: str) -> tuple[str | None, int | None]:
    field = parsed.first(key)
    return (field.value, field.line) if field else (None, None)


# Only the projection carries a version: the text form's twelve keys are the protocol itself.
register_version_rules(KIND, lambda artifact: top_level_version(artifact)
                       if read(artifact)[1] else None)


def _digests(artifact: Artifact):
    value, line = _at(read(artifact)[0], "CHECKPOINT_DIGEST")
    if value:
        yield ("checkpoint_digest",), value, line


@rule(KIND, "packet.unknown_field", requirement="PKT-004",
      summary="no keys other than the twelve",
      hint="move the text into the field it belongs to; the twelve keys are fixed")
def _unknown(artifact: Artifact):
    parsed, projection = read(artifact)
    if projection:
        return  # the projection's schema allows no other members
    known = {_KEY_SHAPE.sub("", key): key for key in _packet.KEYS}
    for field in parsed.fields:
        if field.key in _packet.MEMBER_BY_KEY:
            continue
        near = known.get(_KEY_SHAPE.sub("", field.key))
        hint = f"write the key exactly as `{near}`" if near else None
        yield Hit((), f"{quoted(field.key)} is not a packet field", hint=hint, line=field.line)


@rule(KIND, "packet.duplicate_field", requirement="PKT-009",
      summary="each field appears once",
      hint="merge the two values into one field")
def _duplicate(artifact: Artifact):
    parsed, _ = read(artifact)
    seen: dict[str, int | None] = {}
    for field in parsed.fields:
        if field.key in seen:
            where = f" (first at line {seen[field.key]})" if seen[field.key] else ""
            yield Hit(_path(field.key), f"{quoted(field.key)} appears again{where}", line=field.line)
        else:
            seen[field.key] = field.line


@rule(KIND, "packet.field_order", requirement="PKT-003",
      summary="the fields appear in the protocol's order, GOAL_ID first, CHECKPOINT_DIGEST last",
      hint="reorder the fields: " + ", ".join(_packet.KEYS))
def _order(artifact: Artifact):
    parsed, projection = read(artifact)
    if projection:
        return
    position = {key: index for index, key in enumerate(_packet.KEYS)}
    seen: set[str] = set()
    latest = None
    for field in parsed.fields:
        if field.key not in position or field.key in seen:
            continue
        seen.add(field.key)
        if latest is not None and position[field.key] < position[latest]:
            yield Hit(_path(field.key), f"{field.key} comes after {latest}", line=field.line)
        else:
            latest = field.key


register_digest_rules(KIND, _digests)


@rule(KIND, "packet.too_many_words", requirement="PKT-013", severity=WARNING,
      summary=f"the packet stays within {WORD_BOUND:,} words",
      hint="link large evidence instead of copying it; summarize long lists")
def _words(artifact: Artifact):
    parsed, _ = read(artifact)
    words = sum(len(field.value.split()) for field in parsed.fields)
    if words > WORD_BOUND:
        yield Hit((), f"the packet holds {words:,} words; the aim is at most {WORD_BOUND:,}")


@rule(KIND, "packet.too_large", requirement="PKT-014",
      summary=f"the packet is at most {MAX_BYTES:,} bytes",
      hint="cut the packet down: link evidence, never paste transcripts or logs")
def _size(artifact: Artifact):
    size = len(artifact.text.encode("utf-8", "surrogatepass")) if isinstance(artifact.text, str) else 0
    if size > MAX_BYTES:
        yield Hit((), f"the packet is {size:,} bytes; the bound is {MAX_BYTES:,}")


@rule(KIND, "packet.secret", requirement="PKT-015",
      summary="the packet holds no credentials, cookies, private keys or tokens",
      hint="remove the secret and rotate it; name where access comes from "
           "(a vault entry, an environment variable), never its value")
def _secret(artifact: Artifact):
    from passdown.formats._secrets import describe, find_secrets

    parsed, projection = read(artifact)
    if projection:
        from passdown.rules._shared import secret_hits

        yield from secret_hits(artifact.data)
        return
    starts = sorted((field.line, field.key) for field in parsed.fields if field.line)
    for secret in find_secrets(artifact.text):
        key = None
        for line, candidate in starts:
            if line <= secret.line:
                key = candidate
        yield Hit(_path(key) if key else (), f"line {secret.line} holds {describe(secret)}",
                  line=secret.line)
