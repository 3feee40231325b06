"""Value tests shared by the artifact formats and the gates: identifiers, clean text, white
space and integers, as ``spec/index.md`` (GEN-003, GEN-016 to GEN-019) and
``defs.schema.json`` state them. Imports nothing, so the gates' start-up stays cheap."""

#: Identifiers (session ids, incarnations) are at most this many characters (code points).
MAX_ID_LENGTH = 512
#: The largest integer every JSON reader holds exactly (an IEEE 754 double's 2^53 - 1).
MAX_SAFE_INTEGER = 2**53 - 1
#: White space as ECMA-262 defines ``\s`` (WhiteSpace and LineTerminator), the set the schema
#: patterns use; U+0085 and U+180E are not in it, U+FEFF is.
WHITE_SPACE = frozenset("\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                        "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")


def is_blank(value):
    """Whether the string ``value`` holds only white space (:data:`WHITE_SPACE`), or nothing."""
    return all(char in WHITE_SPACE for char in value)


def words(value):
    """The string ``value`` split at every run of white space (:data:`WHITE_SPACE`), with
    none at either end: what two texts compared "once white space is folded" must share."""
    out, start = [], None
    for index, char in enumerate(value):
        if char in WHITE_SPACE:
            if start is not None:
                out.append(value[start:index])
                start = None
        elif start is None:
            start = index
    if start is not None:
        out.append(value[start:])
    return out


def is_id(value, max_length=MAX_ID_LENGTH):
    """An identifier as ``defs.schema.json`` defines it (1 to ``max_length`` code points, not
    only white space, no C0 or C1 control character), and Unicode text: no lone surrogate."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= max_length
        and is_clean_text(value, "")
        and (value.isascii() or not any(0x80 <= ord(char) <= 0x9F for char in value))
        and not is_blank(value)
    )


def is_clean_text(value, allowed_controls):
    """No control character (U+0000-U+001F, U+007F) but those in ``allowed_controls``,
    and no lone surrogate (the text encodes as UTF-8)."""
    if value.isascii() and "\x7f" not in value and (not value or min(value) >= " "):
        return True  # the common case, decided in C: no character below the space, no DEL
    for char in value:
        code = ord(char)
        if (code < 0x20 or code == 0x7F) and char not in allowed_controls:
            return False
        if 0xD800 <= code <= 0xDFFF:
            return False
    return True


def is_relative_path(value):
    """A path that names one file inside a folder on every platform: relative, with ``/``
    separators, without an empty, ``.`` or ``..`` segment, a backslash or a drive letter."""
    if not isinstance(value, str) or not value:
        return False
    parts = value.split("/")
    return not (value.startswith("/") or "\\" in value or (len(value) > 1 and value[1] == ":")
                or ".." in parts or "" in parts or "." in parts)


def integer(value):
    """``value`` as an ``int`` when it is a JSON number whose value is a whole number within
    +/-(2^53 - 1) (``5``, ``5.0``, ``-0``, ``5e0``), else ``None`` (a boolean, ``5.5``, a
    non-finite number, anything larger). JSON Schema's ``integer`` is a value, not a spelling."""
    if type(value) is int:
        number = value
    elif type(value) is float and value.is_integer():
        number = int(value)
    else:
        return None
    return number if -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER else None
