"""How the commands the guard knows read their options, the way ``getopt`` reads them.

One reader serves every table of the guard (wrappers, shells, interpreters, kill tools,
``systemctl``): grouped short flags (``-iu root``), values attached to their letter
(``-Sreboot``, ``-u#0``) or in the next word, ``--name=value`` and ``--name value``, ``--``
ending the options, and either stopping at the first operand (a wrapper: what follows is the
wrapped command) or reading options anywhere (``pkill node -f``). Reading is linear: each word
is looked at once.
"""


class Options:
    """One command's option table.

    ``values``: short letters that take a value (attached or the next word); ``rest``: short
    letters whose value is only the rest of their word (``perl -Mstrict``); ``digits``: short
    letters that may carry attached digits (``perl -l0e`` is ``-l0`` then ``-e``); ``payload``: short
    letters whose value the command runs (``-c`` of ``su``); ``long_values`` /
    ``long_payload``: the same for long names; ``flag_payload``: a short letter that makes the
    first operand the payload (``sh -c``); ``permute``: options may follow operands;
    ``attached``: a value may be attached to its letter (``node -pe`` is two flags);
    ``plus``: ``+o``-style options exist (shells)."""

    __slots__ = ("values", "rest", "digits", "payload", "long_values", "long_payload",
                 "flag_payload", "permute", "attached", "plus")

    def __init__(self, values="", rest="", digits="", payload="", long_values=(), long_payload=(),
                 flag_payload="", permute=False, attached=True, plus=False):
        self.values = values
        self.rest = rest
        self.digits = digits
        self.payload = payload
        self.long_values = frozenset(long_values)
        self.long_payload = frozenset(long_payload)
        self.flag_payload = flag_payload
        self.permute = permute
        self.attached = attached
        self.plus = plus


class Parsed:
    """What :func:`parse` read: ``first`` (index of the first operand; with ``permute``,
    ``operands`` lists every operand's index), ``payloads`` (the value of each payload option
    given, in order: ``perl -e A -e B`` runs both) and ``seen`` (every option name met, as
    ``-x`` or ``--name``)."""

    __slots__ = ("first", "operands", "payloads", "seen")

    def __init__(self, first, operands, payloads, seen):
        self.first = first
        self.operands = operands
        self.payloads = payloads
        self.seen = seen

    def payload(self, separator="\n"):
        """Every payload value as one text, or ``None`` when no payload option was given."""
        return separator.join(self.payloads) if self.payloads else None


def parse(words, start, options):
    """Read the options of ``words[start:]`` by ``options``."""
    seen, payloads, operands = set(), [], []
    i, end = start, len(words)
    while i < end:
        word = words[i]
        if word == "--":
            i += 1
            break
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            seen.add(name)
            if name in options.long_values or name in options.long_payload:
                if not equals:
                    i += 1
                    value = words[i] if i < end else None
                if name in options.long_payload and value is not None:
                    payloads.append(value)
            i += 1
            continue
        if len(word) > 1 and (word[0] == "-" or (options.plus and word[0] == "+")):
            value, i = _cluster(words, i, options, seen)
            if value is not None:
                payloads.append(value)
            continue
        if not options.permute:
            break
        operands.append(i)
        i += 1
    if options.permute:
        operands.extend(range(i, end))
        first = operands[0] if operands else end
    else:
        first, operands = i, None
    if not payloads and options.flag_payload and ("-" + options.flag_payload) in seen and first < end:
        payloads.append(words[first])
    return Parsed(first, operands, payloads, seen)


def _cluster(words, i, options, seen):
    """Read the grouped short options of ``words[i]``: (a payload option's value, next index)."""
    word = words[i]
    j = 1
    while j < len(word):
        letter = word[j]
        seen.add("-" + letter)
        j += 1
        if letter in options.rest:
            return None, i + 1
        if letter in options.digits:
            while j < len(word) and word[j] in "0123456789":
                j += 1
        elif letter in options.values or letter in options.payload:
            value = word[j:] if options.attached else ""
            if not value:
                i += 1
                value = words[i] if i < len(words) else None
            return (value if letter in options.payload else None), i + 1
    return None, i + 1
