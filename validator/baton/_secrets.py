"""Credential detection: where a text holds something that looks like a secret, and what kind.

Owns the list of secret shapes Baton refuses in handoff artifacts (private keys, access
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

# (label, pattern): the label says what the text looks like, never what it is.
_SHAPES = (
    ("a private key block", r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY[A-Z ]{0,10}-----"),
    ("a GitHub token", _EDGE + r"gh[pousr]_[A-Za-z0-9]{30,}"),
    ("a GitHub fine-grained token", _EDGE + r"github_pat_[A-Za-z0-9_]{20,}"),
    ("a Slack token", _EDGE + r"xox[abprs]-[A-Za-z0-9-]{10,}"),
    ("an API secret key", _EDGE + r"sk-[A-Za-z0-9_-]{20,}"),
    ("an AWS access key id", r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
    ("a JSON Web Token", _EDGE + r"eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"),
    ("a bearer credential", r"(?i:\bbearer)[ \t]+(?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{16,}=*"),
    ("a cookie header", r"(?i:(?<![a-z0-9-])(?:set-)?cookie[ \t]*:[ \t]*[^\s=;:]+=[^\s;]+)"),
    ("a password assignment",
     r"(?i:(?<![a-z0-9])(?:password|passwd|pwd|passphrase|api[_-]?key|secret[_-]?key|client[_-]?secret"
     r"|access[_-]?token|auth[_-]?token|private[_-]?key)[a-z0-9_]{0,20})[ \t]*[:=][ \t]*[\"']?"
     r"(?![$<{%*]|\[REDACTED\]|(?i:redacted|none|null|unset|empty|changeme)\b)[^\s\"'<>]{6,}"),
)
_PATTERNS = tuple((label, re.compile(pattern)) for label, pattern in _SHAPES)


@dataclass(frozen=True)
class Secret:
    """One match: what it looks like, and where (0-based offsets into the text, 1-based line)."""

    label: str
    start: int
    end: int
    line: int


def find_secrets(text: str) -> list[Secret]:
    """Every secret-shaped span in ``text``, in order of position; overlapping matches of
    different shapes are reported once, by the first shape that matched."""
    if not isinstance(text, str) or not text:
        return []
    found: list[Secret] = []
    for label, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(s.start < end and start < s.end for s in found):
                continue
            found.append(Secret(label, start, end, text.count("\n", 0, start) + 1))
    return sorted(found, key=lambda s: s.start)


def describe(secret: Secret) -> str:
    """A message fragment for ``secret`` that never contains it."""
    return f"{secret.label} ({REDACTED}, {secret.end - secret.start} characters)"
