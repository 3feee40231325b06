"""Credential detection: where a text holds something that looks like a secret, and what kind.

Owns the list of secret shapes Passdown refuses in handoff artifacts (private keys, access
tokens, session cookies, bearer headers, password assignments). A match is reported by kind
and position only: nothing here returns or formats the matched text, so no finding can echo
a secret. The patterns are linear (no nested quantifiers) so hostile text cannot make them
slow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: What every message shows in place of a secret.
REDACTED = "[REDACTED]"

_EDGE = r"(?<![A-Za-z0-9_-])"  # a token starts where no token character precedes it

# (label, hints, pattern): the label says what the text looks like, never what it is; a
# pattern runs only when one of its lowercase hints occurs in the lowercased text, because
# almost every string in a handoff holds none of them and a substring test costs far less
# than a regular-expression scan. A hint only has to occur in every match, so few short
# hints beat one per spelling (every GitHub token prefix holds `gh`; the password words all
# hold `passw`, `passp`, `pwd`, `key`, `secret` or `token`).
_SHAPES = (
    ("a private key block", ("private key",),
     r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY[A-Z ]{0,10}-----"),
    ("a GitHub token", ("gh",),
     _EDGE + r"gh[pousr]_[A-Za-z0-9]{30,}"),
    ("a GitHub fine-grained token", ("github_pat_",), _EDGE + r"github_pat_[A-Za-z0-9_]{20,}"),
    ("a Slack token", ("xox",), _EDGE + r"xox[abprs]-[A-Za-z0-9-]{10,}"),
    ("an API secret key", ("sk-",), _EDGE + r"sk-[A-Za-z0-9_-]{20,}"),
    ("an AWS access key id", ("akia", "asia"),
     r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
    ("a JSON Web Token", ("eyj",),
     _EDGE + r"eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"),
    ("a bearer credential", ("bearer",),
     r"(?i:\bbearer)[ \t]+(?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{16,}=*"),
    ("a cookie header", ("cookie",),
     r"(?i:(?<![a-z0-9-])(?:set-)?cookie[ \t]*:[ \t]*[^\s=;:]+=[^\s;]+)"),
    ("a password assignment", ("passw", "passp", "pwd", "key", "secret", "token"),
     r"(?i:(?<![a-z0-9])(?:password|passwd|pwd|passphrase|api[_-]?key|secret[_-]?key|client[_-]?secret"
     r"|access[_-]?token|auth[_-]?token|private[_-]?key)[a-z0-9_]{0,20})[ \t]*[:=][ \t]*[\"']?"
     r"(?![$<{%*]|\[REDACTED\]|(?i:redacted|none|null|unset|empty|changeme)\b)[^\s\"'<>]{6,}"),
)
_PATTERNS = tuple((label, hints, re.compile(pattern)) for label, hints, pattern in _SHAPES)


@dataclass(frozen=True)
class Secret:
    """One match: what it looks like, and where (0-based offsets into the text, 1-based line)."""

    label: str
    start: int
    end: int
    line: int


def find_secrets(text: str) -> list[Secret]:
    """Every secret-shaped span in ``text``, in order of position; overlapping matches of
    different shapes are reported once, by the first shape that matched.

    No shape matches across a line feed, so a shape is scanned only on the lines that hold
    one of its hints: the answer is the whole-text scan's, at a fraction of the cost."""
    if not isinstance(text, str) or not text:
        return []
    lowered = text.lower()
    lines = None
    found: list[Secret] = []
    for label, hints, pattern in _PATTERNS:
        if not any(hint in lowered for hint in hints):
            continue
        if lines is None:  # lower() never makes or removes a line feed: the lines pair up
            lines, lowered_lines = text.split("\n"), lowered.split("\n")
            offsets, position = [], 0
            for line in lines:
                offsets.append(position)
                position += len(line) + 1
        for number, lowered_line in enumerate(lowered_lines):
            if not any(hint in lowered_line for hint in hints):
                continue
            for match in pattern.finditer(lines[number]):
                start, end = offsets[number] + match.start(), offsets[number] + match.end()
                if any(s.start < end and start < s.end for s in found):
                    continue
                found.append(Secret(label, start, end, number + 1))
    return sorted(found, key=lambda s: s.start)


def find_secrets_in_each(texts: list[str]) -> list[tuple[int, Secret]]:
    """``find_secrets`` over many texts in one scan: ``(index of the text, secret)`` pairs,
    in order. The texts are joined with a line feed, which no shape matches across, so the
    answer is the one each text gives alone (offsets and lines are the joined text's)."""
    from bisect import bisect_right

    found = find_secrets("\n".join(texts))
    if not found:  # the common answer: no offsets to map back
        return []
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + 1
    return [(bisect_right(starts, secret.start) - 1, secret) for secret in found]


def describe(secret: Secret) -> str:
    """A message fragment for ``secret`` that never contains it."""
    return f"{secret.label} ({REDACTED}, {secret.end - secret.start} characters)"
