"""How any text Baton shows is made safe and short: lone surrogates spelled as escapes, and
the one way a long value is cut to a number of characters. Used by the findings, the
reporters, the conformance runner and the CLI alike. Imports nothing."""


def printable(text: str) -> str:
    """``text`` with any lone surrogate (a file name that is not UTF-8, a value read from a
    ``\\ud800`` escape) spelled as an escape, so it can always be written out."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def cut(text: str, limit: int) -> str:
    """``text`` when it has at most ``limit`` characters, else its first ``limit - 3`` and
    ``...``: ``limit`` characters in all."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
