"""Values every gate that reads identifiers reads alike (spec/index.md GEN-003, GEN-016,
GEN-017): the characters at each edge of the identifier rule, stated by hand. Each gate's
builder turns them into cases of its own input."""

#: (case name, identifier, what it shows): identifiers every gate accepts.
VALID_IDS = (
    ("id_inner_space", "a b", "a space inside an identifier is allowed"),
    ("id_tilde", "boot~1", "U+007E, the last character before DEL, is allowed"),
    ("id_inner_no_break_space", "a\u00a0b", "U+00A0, the first character after the C1 controls, is allowed"),
    ("id_before_surrogates", "a\ud7ff", "U+D7FF, the last character before the surrogates, is allowed"),
    ("id_after_surrogates", "a\ue000", "U+E000, the first character after the surrogates, is allowed"),
)
#: (case name, identifier, what it shows): identifiers every gate refuses.
INVALID_IDS = (
    ("id_unit_separator", "a\x1f", "U+001F, the last C0 control, is refused"),
    ("id_first_c1", "a\x80", "U+0080, the first C1 control, is refused"),
    ("id_last_c1", "a\x9f", "U+009F, the last C1 control, is refused"),
    ("id_last_surrogate", "a\udfff", "a lone U+DFFF is refused"),
    ("id_first_surrogate", "a\ud800", "a lone U+D800 is refused"),
)


def padded(entry, size):
    """A case ``entry`` whose ``input_text`` the runner pads with spaces to ``size`` bytes
    (the fixture member ``input_padded_to``): a size bound without a file of that size."""
    padded_entry = {}
    for key, value in entry.items():
        padded_entry[key] = value
        if key == "input_text":
            padded_entry["input_padded_to"] = size
    return padded_entry
