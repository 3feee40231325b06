"""The continuation packet's grammar (spec/packet.md): text to ordered fields with their line
numbers and the problems met on the way, fields back to text, and the JSON projection.

Owns the field table (the twelve keys, their order and their projection names) and the line
grammar. The semantic rules (missing, out of order, secrets, bounds...) live in
:mod:`passdown.rules.packet`; the digest's canonical bytes live in :mod:`passdown.formats._digest`.

Grammar, in short: a field starts in column 0 as ``KEY: value`` (or ``KEY:`` when the value
starts on the next line); a value continues on lines indented by exactly two spaces; an empty
line inside a value is kept when a continuation line follows it; line feeds end lines.
Parsing never raises: anything else becomes a :class:`Problem`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

#: The twelve fields in their required order: (text key, projection member).
FIELDS = (
    ("GOAL_ID", "goal_id"),
    ("OUTCOME / ACCEPTANCE", "outcome_acceptance"),
    ("AUTHORITY", "authority"),
    ("POLICY", "policy"),
    ("SOURCE", "source"),
    ("WORKING_STATE", "working_state"),
    ("PROGRESS", "progress"),
    ("DECISIONS", "decisions"),
    ("LIVE_WORK", "live_work"),
    ("NEXT_SAFE_ACTION", "next_safe_action"),
    ("RESTART_ID", "restart_id"),
    ("CHECKPOINT_DIGEST", "checkpoint_digest"),
)
KEYS = tuple(key for key, _ in FIELDS)
MEMBER_BY_KEY = dict(FIELDS)
KEY_BY_MEMBER = {member: key for key, member in FIELDS}

#: The file names a packet is found under, text form first.
TEXT_NAME = "continuation.packet.txt"
JSON_NAME = "continuation.packet.json"
#: The list of every uncommitted path, written beside the packet when WORKING_STATE cannot
#: hold them all (PKT-021).
WORKING_STATE_NAME = "continuation.working-state.txt"
#: What a WORKING_STATE entry says changed (PKT-019), as ``git status`` tells them apart.
PATH_STATUSES = ("modified", "added", "deleted", "untracked", "conflicted")

INDENT = "  "

# A key line: upper-case words joined by `_`, optionally several joined by ` / ` (spaces
# around the slash are optional here so that near misses are reported as unknown keys with a
# hint rather than as unreadable lines), then `:` and either the end or a space.
_KEY_LINE = re.compile(r"([A-Z][A-Z0-9_]*(?:[ \t]*/[ \t]*[A-Z][A-Z0-9_]*)*):(?: (.*)|[ \t]*)\Z", re.S)
# C0 controls other than tab, DEL, C1 controls, and the bidirectional overrides and isolates
# that make text display in an order other than the one it is read in.
_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# A path written as it is: no character a line cannot show as itself (controls, line and
# paragraph separators, bidirectional and zero-width format characters, a backslash), no
# blank at either end, no opening double quote.
_PLAIN_PATH = re.compile("(?![\"\\s])[^\x00-\x1f\x7f-\x9f\\\\\u200b-\u200f\u2028-\u202e"
                         "\u2060-\u206f\ufeff]*(?<!\\s)\\Z")
# One WORKING_STATE entry (PKT-019): `- STATUS DIGEST PATH`, the path plain or a JSON string.
_ENTRY = re.compile(r"- ([a-z]+) (\S+) (.+)\Z", re.S)


@dataclass(frozen=True)
class Field:
    """One field as written: its key, its value (lines joined by LF) and its 1-based line."""

    key: str
    value: str
    line: int | None = None


@dataclass(frozen=True)
class Problem:
    """A grammar problem: a ``packet.*`` code, the 1-based line, what is wrong, the
    requirement it breaks and how to fix it. The validator reports each as a finding."""

    code: str
    line: int
    message: str
    requirement: str | None = None
    hint: str | None = None


# The grammar's problem codes: (requirement, hint).
GRAMMAR_CODES = {
    "packet.syntax": ("PKT-006", "start each field in column 0 as `KEY: value` and indent its "
                                 "further lines by exactly two spaces"),
    "packet.line_ending": ("PKT-007", "save the packet with LF line endings, no carriage returns"),
    "packet.control_char": ("PKT-008", "remove the control character: packets are plain text"),
}


def _problem(code: str, line: int, message: str) -> Problem:
    return Problem(code, line, message, *GRAMMAR_CODES[code])


@dataclass(frozen=True)
class Parsed:
    """A packet as read: its fields in the order written (duplicates kept) and its problems."""

    fields: tuple[Field, ...]
    problems: tuple[Problem, ...] = ()

    def first(self, key: str) -> Field | None:
        """The first field written under ``key``, or None."""
        return next((field for field in self.fields if field.key == key), None)

    def values(self) -> dict[str, str]:
        """``{key: value}`` for the known keys, first occurrence winning, in packet order."""
        out: dict[str, str] = {}
        for field in self.fields:
            if field.key in MEMBER_BY_KEY:
                out.setdefault(field.key, field.value)
        return out


def canonical_value(value: str) -> str:
    """``value`` as the grammar can carry it: LF line breaks, no spaces or tabs at line ends,
    no empty lines before the first or after the last line of text."""
    lines = [line.rstrip(" \t") for line in value.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


#: The last text parsed and its reading: the validator, the cross-file rules and the ACK
#: check each read the same packet text (the same string), which is parsed once. A
#: :class:`Parsed` is immutable, so every reader may hold it.
_last: tuple = (object(), None)


def parse(text: str) -> Parsed:
    """Read packet text into fields and problems. Never raises."""
    global _last
    last_text, parsed = _last
    if text is last_text:
        return parsed
    parsed = _parse(text)
    _last = (text, parsed)
    return parsed


def _parse(text: str) -> Parsed:
    if not isinstance(text, str):
        return Parsed((), (_problem("packet.syntax", 1, "the packet is not text"),))
    problems: list[Problem] = []
    if "\r" in text:
        line = text.count("\n", 0, text.index("\r")) + 1
        problems.append(_problem("packet.line_ending", line,
                                f"line {line} ends with a carriage return; packet lines end with LF only"))
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    fields: list[Field] = []
    key = None
    key_line = 0
    lines: list[str] = []
    blanks = 0

    def close():
        if key is not None:
            fields.append(Field(key, canonical_value("\n".join(lines)), key_line))

    for number, line in enumerate(text.split("\n"), start=1):
        bad = forbidden_char(line)
        if bad is not None:
            problems.append(_problem("packet.control_char", number,
                                    f"line {number} holds the control character U+{ord(bad):04X}"))
        if not line.strip(" \t"):
            blanks += 1
            continue
        if line.startswith(INDENT):
            if key is None:
                problems.append(_problem("packet.syntax", number,
                                        f"line {number} is indented but no field precedes it"))
            else:
                lines.extend([""] * blanks)
                lines.append(line[len(INDENT):].rstrip(" \t"))
            blanks = 0
            continue
        blanks = 0
        match = _KEY_LINE.match(line)
        if match is None:
            problems.append(_problem("packet.syntax", number, _unreadable(number, line)))
            continue
        close()
        key = match.group(1)
        key_line = number
        lines = [(match.group(2) or "").rstrip(" \t")]
    close()
    return Parsed(tuple(fields), tuple(problems))


def forbidden_char(text: str) -> str | None:
    """The first character ``text`` must not hold (a control character other than tab and line
    feed, or a bidirectional override), or None."""
    found = _FORBIDDEN.search(text)
    return found.group() if found else None


def _unreadable(number: int, line: str) -> str:
    if line[:1] in (" ", "\t"):
        return f"line {number} is indented, but not by exactly two spaces"
    return f"line {number} is neither `KEY: value` nor a continuation line indented by two spaces"


def render(fields) -> str:
    """Fields (``Field`` objects, ``(key, value)`` pairs or a ``{key: value}`` mapping) as
    packet text: one ``KEY: value`` line per field, continuation lines indented by two spaces,
    empty lines left empty, LF after every line. Values are put in canonical form first."""
    pairs = fields.items() if isinstance(fields, dict) else fields
    out: list[str] = []
    for entry in pairs:
        key, value = (entry.key, entry.value) if isinstance(entry, Field) else entry
        first, *rest = canonical_value(value).split("\n")
        out.append(f"{key}: {first}" if first else f"{key}:")
        out.extend(INDENT + line if line else "" for line in rest)
    return "".join(line + "\n" for line in out)


def projection(parsed: Parsed, *, passdown_version: str = "1.0") -> dict:
    """The JSON projection of a parsed packet: ``passdown_version``, ``kind`` and one member per
    known field present (first occurrence). Unknown keys have no member."""
    out: dict = {"passdown_version": passdown_version, "kind": "packet"}
    for key, value in parsed.values().items():
        out[MEMBER_BY_KEY[key]] = value
    return out


def from_projection(data) -> Parsed:
    """The fields a JSON projection holds, in the packet's order (a projection has no lines).
    Members that are not strings are left out; the schema reports them."""
    if not isinstance(data, dict):
        return Parsed(())
    fields = tuple(Field(key, data[member]) for key, member in FIELDS
                   if isinstance(data.get(member), str))
    return Parsed(fields)


def is_projection(text: str) -> bool:
    """Whether packet content is the JSON projection rather than the text form."""
    return isinstance(text, str) and text.lstrip(" \t\r\n").startswith("{")


def shown_path(path: str) -> str:
    """``path`` as a WORKING_STATE entry writes it (PKT-020): as it is when every character
    shows as itself, else as a JSON string with every non-ASCII character escaped."""
    import json

    return path if _PLAIN_PATH.match(path) else json.dumps(path, ensure_ascii=True)


def entry_line(status: str, digest: str, path: str) -> str:
    """One WORKING_STATE entry: ``- STATUS DIGEST PATH`` (PKT-019)."""
    return f"- {status} {digest} {shown_path(path)}"


def parse_entry(line: str) -> tuple[str, str, str] | None:
    """``(status, digest, path)`` of one WORKING_STATE entry line, or None when the line is
    not one (prose, a line naming the list file)."""
    match = _ENTRY.match(line)
    if match is None or match.group(1) not in PATH_STATUSES:
        return None
    status, digest, shown = match.groups()
    if not shown.startswith('"'):
        return status, digest, shown
    try:
        path = json.loads(shown)
    except ValueError:
        return None
    return (status, digest, path) if isinstance(path, str) else None
