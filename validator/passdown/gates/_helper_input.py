"""How the published restart and title helpers read their input (``json.loads`` on the raw
bytes), for the two gates that are byte-compatible with them (spec/gates/restart.md RST-008):
the encoding guessed as ``json.detect_encoding`` guesses it, lone surrogates decoded, ``NaN``
and ``Infinity`` accepted, the last of repeated keys kept. Every other gate reads its input
with :func:`passdown.gates._table.parse_input`; this module stays off their start-up.
"""

import sys
from _thread import allocate_lock

from passdown.formats._fastjson import JSONError, loads
from passdown.gates._table import InputError

#: The byte order marks, in the order ``json.detect_encoding`` tests them.
_MARKS = (
    (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\xfe\xff", "utf-16"), (b"\xff\xfe", "utf-16"), (b"\xef\xbb\xbf", "utf-8-sig"),
)
_MARK_LEADS = frozenset(mark[:1] for mark, _ in _MARKS)


def guess_encoding(raw):
    """The encoding ``json.loads(raw)`` decodes ``raw`` with (``json.detect_encoding``, after
    RFC 4627 section 3): a UTF-32, UTF-16 or UTF-8 byte order mark; else the zero bytes of
    the first four (or of exactly two) bytes; else UTF-8."""
    if raw[:1] in _MARK_LEADS:
        for mark, encoding in _MARKS:
            if raw.startswith(mark):
                return encoding
    if len(raw) >= 4:
        if not raw[0]:
            return "utf-16-be" if raw[1] else "utf-32-be"
        if not raw[1]:
            return "utf-16-le" if raw[2] or raw[3] else "utf-32-le"
    elif len(raw) == 2:
        if not raw[0]:
            return "utf-16-be"
        if not raw[1]:
            return "utf-16-le"
    return "utf-8"


#: Extra recursion the parser of :func:`parse_like_json_loads` may use. The C scanner counts
#: nesting against the interpreter's recursion limit, less the frames already on the stack;
#: a few more frames than the published helper's must not make the gate refuse a nesting
#: the helper reads (RST-008). The lock keeps concurrent parses from restoring each other's
#: raised limit.
_NESTING_HEADROOM = 64
_recursion_lock = allocate_lock()


def parse_like_json_loads(raw, limit):
    """Bytes -> a JSON value exactly as ``json.loads(raw)`` reads them, with a size bound:
    the encoding guessed by :func:`guess_encoding`, lone surrogates decoded
    (``surrogatepass``), ``NaN`` and ``Infinity`` accepted, the last of repeated keys kept.

    Raises :class:`InputError` for anything over ``limit`` bytes, bytes that do not decode,
    invalid JSON, and nesting too deep to read."""
    if len(raw) > limit:
        raise InputError(f"input larger than {limit} bytes")
    encoding = guess_encoding(raw)
    if encoding == "utf-8-sig":  # what that codec does, without importing it
        raw, encoding = raw[3:], "utf-8"
    try:
        text = raw.decode(encoding, "surrogatepass")
    except UnicodeDecodeError as error:
        raise InputError(f"invalid {encoding} at byte {error.start}") from None
    try:
        return _scan(text)
    except RecursionError:
        pass
    # Rare: read again with some headroom, so that this call's own frames never refuse a
    # nesting the helper reads.
    with _recursion_lock:
        recursion_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(recursion_limit + _NESTING_HEADROOM)
        try:
            return _scan(text)
        except RecursionError:
            raise InputError("nesting too deep") from None
        finally:
            sys.setrecursionlimit(recursion_limit)


def _scan(text):
    try:
        # A U+FEFF left at the start (a second mark) is invalid JSON either way.
        return loads(text)
    except JSONError as error:
        raise InputError(f"invalid JSON: {error.located(text)}") from None
