"""Checks shared by several artifact kinds, each registered per kind by the kind's module:
the spec-version rule (spec/versioning.md), timestamps (real date-times with an explicit
offset), digest strings (spec/index.md), secrets, and safe walking of untrusted data.

Every helper here accepts any value (the schema check may have failed) and never raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from passdown._findings import WARNING
from passdown._text import cut
from passdown.formats import _clock
from passdown.rules import Artifact, Hit, rule

#: The spec version this implementation reads and writes.
SUPPORTED_VERSION = (1, 0)

_VERSION = re.compile(r"(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})\Z")
_EXTENSION_KEY = re.compile(r"x-[a-z0-9-]+/")
# The schema's digest pattern (defs.schema.json): what passes it is the rules' to judge.
_DIGEST_GRAMMAR = re.compile(r"[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+\Z")
_DIGEST_MAX = 1024


# -- showing values ------------------------------------------------------------------------

def quoted(text) -> str:
    """A value as a message shows it: as text, quoted, escaped, and cut to 60 characters."""
    return repr(cut(str(text), 60))


# -- walking ---------------------------------------------------------------------------------

def walk(value, path: tuple = (), *, skip: Callable[[str], bool] = lambda key: False
         ) -> Iterator[tuple[tuple, object, object]]:
    """Every ``(path, key, value)`` below ``value`` (``key`` is the member name or index),
    parents before their children, without recursion; members whose name ``skip`` accepts
    are left out, with everything below them."""
    stack = [(path, value)]
    while stack:
        here, node = stack.pop()
        if isinstance(node, dict):
            children = [(here + (key,), key, child) for key, child in node.items()
                        if not (isinstance(key, str) and skip(key))]
        elif isinstance(node, list):
            children = [(here + (index,), index, child) for index, child in enumerate(node)]
        else:
            continue
        yield from children
        stack.extend((child_path, child) for child_path, _, child in reversed(children))


def members(value, *, skip: Callable[[str], bool] = lambda key: False) -> Iterator[tuple]:
    """Every ``(key, value)`` pair below ``value``, as :func:`walk` finds them but without
    their paths, one at a time (nothing is collected: a registry holds hundreds of thousands):
    the cheap first pass of a rule that almost never finds anything (the rule walks again,
    with paths, only when this pass shows a hit)."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                if isinstance(key, str) and skip(key):
                    continue
                yield key, child
                if isinstance(child, (dict, list)):
                    stack.append(child)
        elif isinstance(node, list):
            for index, child in enumerate(node):
                yield index, child
                if isinstance(child, (dict, list)):
                    stack.append(child)


def strings(value) -> list[str]:
    """Every string below ``value``, member names included, in no particular order: the
    cheap first pass of a text scan that almost never finds anything (it skips no member:
    what it finds is a superset of what the scan itself reads)."""
    found, stack = [], [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                if isinstance(key, str):
                    found.append(key)
                if isinstance(child, str):
                    found.append(child)
                elif isinstance(child, (dict, list)):
                    stack.append(child)
        elif isinstance(node, list):
            for child in node:
                if isinstance(child, str):
                    found.append(child)
                elif isinstance(child, (dict, list)):
                    stack.append(child)
    return found


def repeated(entries: Iterator[tuple], field: str) -> Iterator[tuple]:
    """``(where, value, first)`` for each entry whose string ``field`` an earlier entry already
    holds; ``entries`` yields ``(where, entry)`` pairs, ``first`` is the earlier entry's where."""
    seen: dict = {}
    for where, entry in entries:
        value = entry.get(field) if isinstance(entry, dict) else None
        if not isinstance(value, str):
            continue
        if value in seen:
            yield where, value, seen[value]
        else:
            seen[value] = where


def is_foreign_extension(key: str, own: str = "x-passdown/") -> bool:
    """Whether ``key`` names another tool's extension block (never validated by Passdown)."""
    # The prefix test first: it settles almost every name without the pattern.
    return key.startswith("x-") and bool(_EXTENSION_KEY.match(key)) and not key.startswith(own)


def blank(value) -> bool:
    """Whether ``value`` is missing, not a string, or only white space."""
    return not isinstance(value, str) or not value.strip()


# -- versions --------------------------------------------------------------------------------

def parse_version(value) -> tuple[int, int] | None:
    """``"1.0"`` -> ``(1, 0)``; None for anything that is not ``MAJOR.MINOR``."""
    if not isinstance(value, str):
        return None
    match = _VERSION.match(value)
    return (int(match.group(1)), int(match.group(2))) if match else None


def register_version_rules(kind: str, locate: Callable[[Artifact], tuple[tuple, object] | None],
                           requirement_minor: str = "VER-004",
                           requirement_major: str = "VER-005") -> None:
    """Register the two version rules for ``kind``. ``locate(artifact)`` returns the path and
    value of the artifact's ``passdown_version``, or None where the artifact carries none (the
    schema reports a missing one)."""

    def versions(artifact: Artifact):
        found = locate(artifact)
        if found is None:
            return None
        path, value = found
        version = parse_version(value)
        return (path, value, version) if version else None

    @rule(kind, "version.newer_minor", requirement=requirement_minor, severity=WARNING,
          summary="a newer minor spec version is read, with a warning",
          hint="upgrade Passdown to read every field of this newer minor version; "
               "fields it does not know are kept but not checked")
    def _newer_minor(artifact: Artifact):
        found = versions(artifact)
        if found and found[2][0] == SUPPORTED_VERSION[0] and found[2][1] > SUPPORTED_VERSION[1]:
            yield Hit(found[0], f"passdown_version {found[1]} is newer than the "
                                f"{_format(SUPPORTED_VERSION)} this validator knows")

    @rule(kind, "version.unsupported_major", requirement=requirement_major,
          summary="another major spec version is refused",
          hint="use a Passdown release for that major version, or rewrite the artifact "
               f"for {_format(SUPPORTED_VERSION)}")
    def _other_major(artifact: Artifact):
        found = versions(artifact)
        if found and found[2][0] != SUPPORTED_VERSION[0]:
            yield Hit(found[0], f"passdown_version {found[1]} is major version {found[2][0]}; "
                                f"this validator reads major version {SUPPORTED_VERSION[0]} only")


def _format(version: tuple[int, int]) -> str:
    return f"{version[0]}.{version[1]}"


def top_level_version(artifact: Artifact) -> tuple[tuple, object] | None:
    """``locate`` for artifacts that carry ``passdown_version`` at the top level."""
    data = artifact.data
    if isinstance(data, dict) and "passdown_version" in data:
        return ("passdown_version",), data["passdown_version"]
    return None


# -- timestamps ------------------------------------------------------------------------------

#: Timestamp strings already read: ``text -> [problem, instant or _UNREAD]``. The same
#: string is read by several rules (the timestamp rule, then the procedure rules compare it)
#: and a folder's checkpoints share many; the bound keeps a hostile walk from growing it.
_READ: dict[str, list] = {}
_READ_MAX = 4096
_UNREAD = object()


def _reading(text: str) -> list:
    found = _READ.get(text)
    if found is None:
        if len(_READ) >= _READ_MAX:
            _READ.clear()
        found = _READ[text] = [_clock.problem(text), _UNREAD]
    return found


def timestamp_problem(value) -> str | None:
    """What is wrong with ``value`` as a timestamp (a phrase such as "has no offset..."), or
    None when it is a real date-time with an explicit offset: the gates' own reading
    (:func:`passdown.formats._clock.problem`). Non-strings are the schema's to report (None). The
    phrase never repeats the value."""
    return _reading(value)[0] if isinstance(value, str) else None


def moment(value):
    """``value``'s instant (exact seconds since the epoch, every fraction digit kept) when it
    is a timestamp naming a real moment, else None: the form for comparing two timestamps of
    a file."""
    if not isinstance(value, str):
        return None
    found = _reading(value)
    if found[1] is _UNREAD:
        found[1] = None if found[0] is not None else _clock.parse_exact(value)
    return found[1]


def _unreal(value) -> bool:
    """Whether ``value`` has the timestamp form (the schema's pattern and length: the form is
    the schema's to report) but names no real moment."""
    return isinstance(value, str) and timestamp_problem(value) not in (None, *_clock.FORM_PROBLEMS)


def timestamp_hits(data, is_timestamp_key: Callable[[str], bool],
                   skip: Callable[[str], bool] = lambda key: False) -> Iterator[Hit]:
    """A hit for every member whose name ``is_timestamp_key`` accepts and whose string value
    has the timestamp form (with an offset) but names no real moment. The form itself is the
    schema's to report, so it is never reported twice."""

    def suspect(key, value):
        return isinstance(key, str) and is_timestamp_key(key) and _unreal(value)

    if not any(suspect(key, value) for key, value in members(data, skip=skip)):
        return
    for path, key, value in walk(data, skip=skip):
        if suspect(key, value):
            yield Hit(path, f"{key} {timestamp_problem(value)}")


def timestamp_hits_at(places: Iterator[tuple[tuple, object]]) -> Iterator[Hit]:
    """:func:`timestamp_hits` for a kind that names its timestamp members by place: a hit for
    every ``(path, value)`` whose value has the timestamp form but names no real moment."""
    for path, value in places:
        if _unreal(value):
            yield Hit(path, f"{path[-1]} {timestamp_problem(value)}")


def ends_in_at(key: str) -> bool:
    """Passdown's own timestamp members are named ``*_at`` (and ``last_readback``, ``since``)."""
    return key.endswith("_at") or key in ("last_readback", "since")


def register_timestamp_rule(kind: str, is_timestamp_key: Callable[[str], bool] = ends_in_at,
                            skip: Callable[[str], bool] = lambda key: False, *,
                            places: Callable[[Artifact], Iterator[tuple[tuple, object]]] | None = None,
                            requirement: str = "GEN-004") -> None:
    """Register ``<kind>.timestamp`` for ``kind``: timestamps name real moments (GEN-004; the
    schemas state the form and the offset). The timestamps are the members whose name
    ``is_timestamp_key`` accepts, or, given ``places(artifact)``, the ``(path, value)`` pairs it
    yields. The reading is the gates' own (:mod:`passdown.formats._clock`), so that the validator
    and a gate never disagree."""

    @rule(kind, f"{kind}.timestamp", requirement=requirement,
          summary="every timestamp is a real calendar date and time",
          hint="write a real date and time in RFC 3339, e.g. 2026-10-14T09:15:00+02:00")
    def _timestamps(artifact: Artifact):
        if places is not None:
            yield from timestamp_hits_at(places(artifact))
        else:
            yield from timestamp_hits(artifact.data, is_timestamp_key, skip)


# -- digests ---------------------------------------------------------------------------------

def digest_problem(value) -> tuple[str, str] | None:
    """``("malformed" | "unverifiable", message)`` for a digest string, or None when it is a
    verifiable digest. Non-strings and strings outside the digest grammar are the schema's to
    report (None), so no digest is reported twice; the algorithms Passdown knows are
    :mod:`passdown.formats._digest`'s."""
    if not isinstance(value, str) or len(value) > _DIGEST_MAX or not _DIGEST_GRAMMAR.match(value):
        return None
    from passdown.formats._digest import DigestError, parse_digest

    try:
        parse_digest(value)
    except DigestError as error:
        algorithm = value.partition(":")[0]
        if error.code == "digest.unknown_algorithm":
            return "unverifiable", f"uses the algorithm {algorithm!r}, which Passdown cannot verify"
        return "malformed", f"is not the 64 lowercase hex characters a {algorithm} digest is"
    return None


def register_digest_rules(kind: str, locate: Callable[[Artifact], Iterator[tuple]],
                          requirement_form: str = "GEN-006",
                          requirement_unknown: str = "GEN-007") -> None:
    """Register ``<kind>.digest_malformed`` and ``<kind>.digest_unverifiable``;
    ``locate(artifact)`` yields ``(path, value, line)`` for every digest string it holds."""

    def hits(artifact: Artifact, wanted: str):
        for path, value, line in locate(artifact):
            problem = digest_problem(value)
            if problem and problem[0] == wanted:
                yield Hit(path, f"the digest {problem[1]}", line=line)

    @rule(kind, f"{kind}.digest_malformed", requirement=requirement_form,
          summary="`blake3` and `sha256` digests carry 64 lowercase hex characters",
          hint="recompute the digest with `passdown digest` and copy it whole")
    def _malformed(artifact: Artifact):
        yield from hits(artifact, "malformed")

    @rule(kind, f"{kind}.digest_unverifiable", requirement=requirement_unknown,
          severity=WARNING,
          summary="a digest in an algorithm Passdown cannot compute is reported unverifiable",
          hint="use blake3 (or sha256) so that readers can verify the digest")
    def _unverifiable(artifact: Artifact):
        yield from hits(artifact, "unverifiable")


# -- secrets ---------------------------------------------------------------------------------

def canonical_hits(value, path: tuple, what: str) -> Iterator[Hit]:
    """The first value below ``value`` (at ``path``) with no canonical bytes, as a hit saying
    that ``what`` (``the registry``) therefore has no digest, as ``passdown digest`` refuses it."""
    from passdown.formats._digest import canonical_problem

    problem = canonical_problem(value)
    if problem is not None:
        yield Hit((*path, *problem.parts), f"the value {problem.what}, so {what} has no canonical "
                                           f"bytes and `passdown digest` refuses it ({problem.code})",
                  hint=None if problem.code == "digest.integer_range" else problem.hint)


def secret_hits(data, *, skip: Callable[[str], bool] = lambda key: False) -> Iterator[Hit]:
    """A hit per secret-shaped span in any string (member names included) below ``data``;
    the message names the kind of secret, never its text."""
    from passdown.formats._secrets import describe, find_secrets_in_each

    if not find_secrets_in_each(strings(data)):  # the common answer, without paths
        return
    places, texts = [], []
    for path, key, value in walk(data, skip=skip):
        for text, where in ((key, "the member name"), (value, "the value")):
            if isinstance(text, str):
                places.append((path, where))
                texts.append(text)
    for index, secret in find_secrets_in_each(texts):
        path, where = places[index]
        yield Hit(path, f"{where} holds {describe(secret)}")


