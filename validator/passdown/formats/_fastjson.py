"""JSON in and out without importing the ``json`` package, and mostly without ``_json``.

``json`` imports ``re`` (about 7 ms), which alone would break the start-up budget of
``passdown gate`` in hooks. This module owns Passdown's JSON reading and writing for plain
data: :func:`loads` accepts and rejects exactly what ``json.loads`` does (same values, same
hooks called with the same arguments, the same error message and position as
:class:`JSONError`), and :func:`dumps` writes exactly what ``json.dumps`` writes for plain
data (dict, list, str, int, float, bool, None).

Even ``_json``, the C accelerator ``json`` drives, costs about 0.2 ms to load (a dlopen from
``lib-dynload``): a tenth of what a hook adds to a bare interpreter before every tool call. So
it loads only at first need. A small text (``_PURE_MAX_CHARS``, counted over the process) is
first read by :func:`_read`, a reader in Python that is exact when it succeeds and gives up on
anything it does not fully handle (any syntax error, a control character in a string, nesting
past ``_PURE_MAX_DEPTH``, a value or hook that raises, ...); the C scanner then reads the same
text, for the exact value or error ``json.loads`` gives. A string of printable ASCII without
``"`` or ``\\`` is written without ``_json``; any other goes to its ``encode_basestring_ascii``.
"""

import sys

_JSON_WS = " \t\n\r"
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


class JSONError(ValueError):
    """The text is not one JSON value (message says why; ``pos`` where known)."""

    def __init__(self, message, pos=None):
        super().__init__(message)
        self.pos = pos

    def located(self, text):
        """The message with the line and column it names (both 1-based), as a reader wants
        it: ``Unterminated string starting at line 1, column 7``."""
        message = str(self)
        if self.pos is None:
            return message
        line, column = position(text, self.pos)
        joint = " " if message.endswith(" at") else " at "
        return f"{message}{joint}line {line}, column {column}"


def position(text, pos):
    """``(line, column)``, both 1-based, of the character at index ``pos`` of ``text``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


class _Context:
    # The attributes the C scanner reads; the same defaults json.JSONDecoder has.
    strict = True
    object_hook = None
    parse_float = float
    parse_int = int

    def __init__(self, object_pairs_hook, parse_constant, parse_int=int, parse_float=float):
        self.object_pairs_hook = object_pairs_hook
        self.parse_constant = parse_constant
        self.parse_int = parse_int
        self.parse_float = parse_float


def _default_constant(name):
    return _CONSTANTS[name]


#: The characters :func:`_read` may read in a process, at most. What it saves is fixed: not
#: loading ``_json`` (0.19 ms, 0.11 ms net of this module's larger size and a cold parse, on a
#: hook call). What it costs grows with the text: on code sent to a Write tool the saving
#: falls to nothing at about 8 KiB, where leaving the text to the C scanner costs 0.06 ms
#: more than before this reader was (the larger module). Counted over the process, so that
#: a reader of many small texts (the observe gate's lines) pays it once; and once ``_json``
#: is loaded there is nothing left to save, and ``_pure_left`` falls to 0.
_PURE_MAX_CHARS = 8 << 10
_pure_left = _PURE_MAX_CHARS
#: The most commas and ``\u`` escapes a text may hold for :func:`_read` (each value and each
#: ``\u`` escape costs it about 0.3 to 1 microsecond, the C scanner a twentieth of that): a
#: text of little numbers or escapes goes to the C scanner at once.
_PURE_MAX_COMMAS = 128
_PURE_MAX_U_ESCAPES = 64
#: The deepest nesting :func:`_read` reads; deeper texts go to the C scanner, whose
#: ``RecursionError`` depends on the stack it runs on.
_PURE_MAX_DEPTH = 128
#: The frames a stack must have left below the recursion limit for :func:`_read` to run: its
#: nesting, the C scanner's own levels and a hook's frames, so that a text the C scanner would
#: refuse as too deep on this stack is never read in Python instead.
_STACK_ROOM = _PURE_MAX_DEPTH + 128

_getframe = sys._getframe
_getrecursionlimit = sys.getrecursionlimit
_default_scanner = None


def _scanner(object_pairs_hook, parse_constant, parse_int, parse_float):
    """The C scanner of ``_json`` for these hooks; ``_json`` loads here, at first need."""
    global _default_scanner, _pure_left
    import _json

    _pure_left = 0  # loaded: the pure reader has nothing left to save
    if (object_pairs_hook, parse_constant, parse_int, parse_float) == (None, None, None, None):
        if _default_scanner is None:
            _default_scanner = _json.make_scanner(_Context(None, _default_constant))
        return _default_scanner
    return _json.make_scanner(
        _Context(object_pairs_hook, parse_constant or _default_constant,
                 parse_int or int, parse_float or float)
    )


def loads(text, *, object_pairs_hook=None, parse_constant=None, parse_int=None,
          parse_float=None):
    """Parse ``text`` (a str) exactly as ``json.loads`` would; raise :class:`JSONError`.

    Nesting too deep for the C scanner raises :class:`RecursionError`, which callers turn
    into their own "too deep" outcome. An exception a hook raises that is not a
    ``ValueError`` passes through unchanged. A small text is read by :func:`_read` first,
    and by the C scanner where that gives up (see the module's docstring)."""
    global _pure_left
    if isinstance(text, str) and len(text) <= _pure_left:
        try:
            _getframe(_getrecursionlimit() - _STACK_ROOM)
        except ValueError:  # the stack is that shallow: the C scanner would not run out
            _pure_left -= len(text)
            try:
                return _read(text, object_pairs_hook, parse_constant or _default_constant,
                             parse_int or int, parse_float or float)
            except Exception:  # anything it does not read exactly: the C scanner decides
                pass
    # The C scanner runs in this frame, as it always has: its RecursionError comes at the
    # same depth.
    scanner = _scanner(object_pairs_hook, parse_constant, parse_int, parse_float)
    if text.startswith("\ufeff"):
        raise JSONError("Unexpected UTF-8 BOM", 0)
    start = len(text) - len(text.lstrip(_JSON_WS))
    try:
        value, end = scanner(text, start)
    except StopIteration as stop:
        raise JSONError("Expecting value", stop.value) from None
    except ValueError as error:  # json.JSONDecodeError from inside the scanner
        raise JSONError(getattr(error, "msg", str(error)), getattr(error, "pos", None)) from None
    except SystemError:
        # The C scanner raises json.decoder.JSONDecodeError, a class it looks up only in
        # sys.modules: before anything imported json.decoder it fails with no exception
        # set. Load it (invalid input only) and read again for the real error.
        if "json.decoder" in sys.modules:
            raise JSONError("invalid JSON") from None
        import json.decoder  # noqa: F401

        return loads(text, object_pairs_hook=object_pairs_hook, parse_constant=parse_constant,
                     parse_int=parse_int, parse_float=parse_float)
    rest = text[end:]
    if rest.strip(_JSON_WS):
        raise JSONError("Extra data", end + len(rest) - len(rest.lstrip(_JSON_WS)))
    return value


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
            "t": "\t"}
_CONTROLS = ("\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f"
             "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f")


def _read(s, pairs_hook, parse_constant, parse_int, parse_float):
    r"""The value of the JSON text ``s`` as the C scanner reads it with these hooks, each hook
    called with the same arguments in the same order (an object's ``pairs_hook`` as it
    closes, innermost first). Raises (``ValueError``, ``IndexError``, ``KeyError`` or what a
    hook raises) on anything else: a syntax error, a control character in a string, nesting
    past ``_PURE_MAX_DEPTH``, an integer ``int`` refuses, ...

    A loop with a stack, not recursion. A string is a slice between quotes found by
    ``str.find``: in a text with a backslash, each ``\\`` (paired from the left, as the
    scanner pairs them) first becomes NUL and each ``\"`` left becomes SOH, so that every
    quote left starts or ends a string. A JSON text holds neither control character, and
    :func:`_string` puts them back."""
    if s.count(",") > _PURE_MAX_COMMAS:
        raise ValueError
    escaped = "\\" in s
    if escaped:
        if "\0" in s or "\1" in s or s.count("\\u") > _PURE_MAX_U_ESCAPES:
            raise ValueError
        s = s.replace("\\\\", "\0").replace('\\"', "\1")
    ws = _JSON_WS
    n = len(s)
    i = n - len(s.lstrip(ws))
    stack = []  # the containers around the open one, each with its kind and member name
    top = None  # the open container: a list of items or of (name, value) pairs, or a dict
    is_object = want_key = False
    key = None
    while True:
        c = s[i]
        if c in ws:
            i = _past_blanks(s, i + 1)
            c = s[i]
        if c == '"':
            j = s.find('"', i + 1)
            if j < 0:
                raise ValueError
            value = s[i + 1:j]
            if not value.isprintable() or escaped and "\\" in value:
                value = _string(value, escaped)
            i = j + 1
            if want_key:  # a member's name: its value follows a colon
                want_key = False
                key = value
                c = s[i]
                if c in ws:
                    i = _past_blanks(s, i + 1)
                    c = s[i]
                if c != ":":
                    raise ValueError
                i += 1
                continue
        elif want_key:
            raise ValueError
        elif c == "{" or c == "[":
            i += 1
            d = s[i]
            if d in ws:
                i = _past_blanks(s, i + 1)
                d = s[i]
            if c == "{" and d == "}":
                i += 1
                value = {} if pairs_hook is None else pairs_hook([])
            elif c == "[" and d == "]":
                i += 1
                value = []
            else:
                if len(stack) >= _PURE_MAX_DEPTH:
                    raise ValueError
                stack.append((top, is_object, key))
                is_object = want_key = c == "{"
                top = {} if is_object and pairs_hook is None else []
                continue
        elif c in "-0123456789":
            if c == "-" and s.startswith("-Infinity", i):
                value = parse_constant("-Infinity")
                i += 9
            else:
                j = i + 1
                while j < n and s[j] in "0123456789+-.eE":
                    j += 1
                number = s[i:j]
                digits = number[1:] if c == "-" else number
                if digits.isdigit() and (digits[0] != "0" or len(digits) == 1):
                    value = parse_int(number)
                else:
                    _check_float(digits)
                    value = parse_float(number)
                i = j
        elif c == "t" and s.startswith("true", i):
            value = True
            i += 4
        elif c == "f" and s.startswith("false", i):
            value = False
            i += 5
        elif c == "n" and s.startswith("null", i):
            value = None
            i += 4
        elif c == "N" and s.startswith("NaN", i):
            value = parse_constant("NaN")
            i += 3
        elif c == "I" and s.startswith("Infinity", i):
            value = parse_constant("Infinity")
            i += 8
        else:
            raise ValueError
        # A value ends here: it fills its container, and may close it and those around it.
        while True:
            if top is None:
                if i < n and s[i:].lstrip(ws):
                    raise ValueError
                return value
            c = s[i]
            if c in ws:
                i = _past_blanks(s, i + 1)
                c = s[i]
            if is_object:
                if pairs_hook is None:
                    top[key] = value
                else:
                    top.append((key, value))
                if c == ",":
                    want_key = True
                    i += 1
                    break
                if c != "}":
                    raise ValueError
                value = top if pairs_hook is None else pairs_hook(top)
            else:
                top.append(value)
                if c == ",":
                    i += 1
                    break
                if c != "]":
                    raise ValueError
                value = top
            i += 1
            top, is_object, key = stack.pop()


def _past_blanks(s, i):
    """The index of the first character from ``i`` that is not JSON white space (IndexError at
    the text's end: :func:`_read` then gives up)."""
    while s[i] in _JSON_WS:
        i += 1
    return i


def _string(text, escaped):
    """The value of a string whose characters between the quotes are ``text``, which holds
    :func:`_read`'s sentinels if ``escaped``; raises on a control character."""
    bare = text.replace("\0", "").replace("\1", "") if escaped else text
    if not bare.isprintable():  # a control character, or only a character print hides
        for control in _CONTROLS:
            if control in bare:
                raise ValueError
    if not escaped:
        return text
    if "\\u" in text:  # rare: read escape by escape, the sentinels back as they were
        return _unescaped(text.replace("\0", "\\\\").replace("\1", '\\"'))
    if "\\" in text:  # replaced in bulk, the commonest first, until every one is read
        left = text.count("\\")
        for escape, char in (("\\n", "\n"), ("\\t", "\t"), ("\\/", "/"), ("\\r", "\r"),
                             ("\\b", "\b"), ("\\f", "\f")):
            shorter = text.replace(escape, char)
            left -= len(text) - len(shorter)
            text = shorter
            if not left:
                break
        else:
            raise ValueError  # an escape JSON does not have
    if "\0" in text:
        text = text.replace("\0", "\\")
    if "\1" in text:
        text = text.replace("\1", '"')
    return text


def _unescaped(raw):
    """``raw``, a string's characters between its quotes, with its escapes decoded as json's
    scanner does: a high surrogate escape followed by a low one joined, lone ones kept."""
    parts = []
    pos = 0
    backslash = raw.find("\\")
    while backslash >= 0:
        parts.append(raw[pos:backslash])
        escape = raw[backslash + 1]
        if escape == "u":
            pos = backslash + 6
            code = _hex4(raw[backslash + 2:pos])
            if 0xD800 <= code <= 0xDBFF and raw.startswith("\\u", pos):
                low = _hex4(raw[pos + 2:pos + 6])
                if 0xDC00 <= low <= 0xDFFF:
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    pos += 6
            parts.append(chr(code))
        else:
            parts.append(_ESCAPES[escape])  # KeyError: an escape JSON does not have
            pos = backslash + 2
        backslash = raw.find("\\", pos)
    parts.append(raw[pos:])
    return "".join(parts)


def _hex4(digits):
    if len(digits) != 4 or digits.strip("0123456789abcdefABCDEF"):
        raise ValueError
    return int(digits, 16)


def _check_float(digits):
    r"""Raise ``ValueError`` unless ``digits``, a number after its sign that is no plain
    integer, is ``(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`` with a fraction or an
    exponent (ASCII digits only: they come from ``_read``'s number characters)."""
    e = digits.find("e")
    if e < 0:
        e = digits.find("E")
    mantissa = digits
    if e >= 0:
        mantissa, exponent = digits[:e], digits[e + 1:]
        if exponent[:1] in ("+", "-"):
            exponent = exponent[1:]
        if not exponent.isdigit():
            raise ValueError
    whole, dot, fraction = mantissa.partition(".")
    if not whole.isdigit() or (whole[0] == "0" and len(whole) > 1):
        raise ValueError
    if dot and not fraction.isdigit() or not dot and e < 0:
        raise ValueError


#: ``_json.encode_basestring_ascii``, loaded at the first string that needs it.
_encode_ascii = None


def _encode_string(s):
    """``s`` as json.dumps writes it (``ensure_ascii``): printable ASCII without ``"`` or
    ``\\`` as it is, between quotes; anything else through ``_json``."""
    global _encode_ascii, _pure_left
    if type(s) is str and s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        return '"' + s + '"'
    if _encode_ascii is None:
        import _json

        _encode_ascii = _json.encode_basestring_ascii
        _pure_left = 0
    return _encode_ascii(s)


def _float(value):
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return float.__repr__(value)


def dumps(value, *, sort_keys=False, separators=(", ", ": ")):
    """``json.dumps(value, sort_keys=..., separators=...)`` for plain data."""
    item_sep, key_sep = separators
    parts = []
    append = parts.append

    def emit(node):
        if isinstance(node, str):
            append(_encode_string(node))
        elif node is None:
            append("null")
        elif node is True:
            append("true")
        elif node is False:
            append("false")
        elif isinstance(node, int):
            append(int.__repr__(node))
        elif isinstance(node, float):
            append(_float(node))
        elif isinstance(node, dict):
            if not node:
                append("{}")
                return
            append("{")
            keys = sorted(node) if sort_keys else node
            first = True
            for key in keys:
                if not first:
                    append(item_sep)
                first = False
                append(_encode_string(key))
                append(key_sep)
                emit(node[key])
            append("}")
        elif isinstance(node, (list, tuple)):
            if not node:
                append("[]")
                return
            append("[")
            first = True
            for item in node:
                if not first:
                    append(item_sep)
                first = False
                emit(item)
            append("]")
        else:
            raise TypeError(f"Object of type {type(node).__name__} is not JSON serializable")

    emit(value)
    return "".join(parts)


def shown(value, limit=60):
    """A value as short JSON for a message (``null``, ``true``, ``["a", null]``; never a
    Python repr), cut to ``limit`` characters with ``...``. Control characters and non-ASCII
    text come out escaped, so a message stays one printable line."""
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # cut before encoding: a long string is never copied whole
    try:
        text = dumps(value, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = "(a value JSON cannot hold)"
    from passdown._text import cut  # messages only: the gates' start-up skips it

    return cut(text, limit)


def shown_from_difference(text, other, limit=80, context=24):
    """``text`` as :func:`shown` for a message that sets it against ``other``, with runs of
    white space read as one space. A long text is shown from a few words before where it
    first differs from ``other`` (with the character it starts from), so two cut texts never
    look the same."""
    if not isinstance(text, str):
        return shown(text, limit)
    words = " ".join(text.split())
    others = " ".join(other.split()) if isinstance(other, str) else ""
    same = next((i for i, (a, b) in enumerate(zip(words, others)) if a != b),
                min(len(words), len(others)))
    start = words.rfind(" ", 0, max(0, same - context)) + 1
    if start == 0:
        return shown(words, limit)
    return f"{shown(words[start:], limit)} (from character {start + 1})"
