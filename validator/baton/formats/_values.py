"""Value tests shared by the artifact formats and the gates: identifiers and clean text, as
``defs.schema.json`` states them. Imports nothing, so the gates' start-up stays cheap."""

#: Identifiers (session ids, incarnations) are at most this many characters.
MAX_ID_LENGTH = 512


def is_id(value, max_length=MAX_ID_LENGTH):
    """An identifier as ``defs.schema.json`` defines it (1 to ``max_length`` characters, not
    only white space or U+FEFF, no C0 or C1 control character), and Unicode text: no lone
    surrogate."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= max_length
        and is_clean_text(value, "")
        and not any(0x7F <= ord(char) <= 0x9F for char in value)
        and not all(char.isspace() or char == "\ufeff" for char in value)
    )


def is_clean_text(value, allowed_controls):
    """No control character (U+0000-U+001F, U+007F) but those in ``allowed_controls``,
    and no lone surrogate (the text encodes as UTF-8)."""
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
