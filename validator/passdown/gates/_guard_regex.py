"""How the guard reads a kill pattern (``pkill``, ``pgrep``, ``killall -r``, ``grep`` after ``ps``) without
the ``re`` module, whose import costs more than the rest of the hook (GRD-070). The dialect, POSIX extended:
literals, ``\\`` before anything but an ASCII letter or digit or ``<>`'``, ``.``, brackets (ranges, ``^``,
classes such as ``[:alpha:]``), ``\\w \\s \\d`` and their capitals, ``* + ?``, ``{m}``, ``{m,}``,
``{m,n}`` (at most 32), ``|``, groups, ``^``, ``$``. Anything else (``\\1``, ``\\b``, ``\\<``, ``(?i)``)
or a pattern too large raises :class:`ValueError`, and the guard asks.

A pattern becomes a program, a list of instructions ``(kind, argument)``: ``"set"`` reads a character in
its ``(ranges, classes, negate)``; ``""`` (always), ``"^"`` (at the text's start) and ``"$"`` (at its end)
read nothing and go on by each of their offsets, relative so that a repeat copies its body as it is."""

_MAX_REPEAT, _MAX_GROWTH = 32, 4096  # the largest bound; the most instructions that repeats may add
_MAX_NESTING = 64  # groups in groups: the parser recurses once a group
_CLASSES = {"alpha": str.isalpha, "alnum": str.isalnum, "digit": str.isdigit, "space": str.isspace,
            "upper": str.isupper, "lower": str.islower, "print": str.isprintable, "blank": " \t".__contains__,
            "xdigit": "0123456789abcdefABCDEF".__contains__, "cntrl": lambda ch: ord(ch) < 32 or ch == "\x7f",
            "punct": lambda ch: ch.isprintable() and not ch.isalnum() and not ch.isspace(),
            "graph": lambda ch: ch.isprintable() and not ch.isspace()}
_ESCAPES = {"w": ((("_", "_"),), ("alnum",)), "s": ((), ("space",)), "d": ((), ("digit",))}  # capitals negate
_REPEATS = {"*": (0, None), "+": (1, None), "?": (0, 1)}
_SPECIAL = {".": ("set", ((), (), True)), "^": ("^", (1,)), "$": ("$", (1,))}


class _Parser:
    """Reads a pattern from ``i`` on, counting the instructions that repeats add (``growth``)."""

    def __init__(self, pattern):
        self.text, self.i, self.growth, self.depth = pattern, 0, 0, 0

    def group(self, closing):
        """The alternatives from the cursor to past ``closing`` (``)``, or ``""``: the pattern's end)."""
        code, branches, self.depth = [], [], self.depth + 1
        if self.depth > _MAX_NESTING:
            raise ValueError("groups nest too deeply")
        while self.text[self.i:self.i + 1] not in ("", ")"):
            c, self.i = self.text[self.i], self.i + 1
            if c == "|":
                code, branches = [], branches + [code]
            else:
                code += self.repeat(self.group(")") if c == "(" else self.atom(c))
        if self.text[self.i:self.i + 1] != closing:
            raise ValueError("a group is not closed" if closing else "a group closes that never opened")
        self.i, self.depth = self.i + 1, self.depth - 1
        for branch in reversed(branches):  # into this branch or past it; after it, past the others
            code = [("", (1, len(branch) + 2))] + branch + [("", (len(code) + 1,))] + code
        return code

    def repeat(self, body):
        while True:
            c = self.text[self.i:self.i + 1]
            close = self.text.find("}", self.i) if c == "{" else -1
            low, comma, high = self.text[self.i + 1:close].partition(",") if close > 0 else ("", "", "")
            if c in _REPEATS:
                (low, high), close = _REPEATS[c], self.i
            elif not low.isdigit() or (high and not high.isdigit()):
                return body  # a brace that opens no bound is a literal
            else:
                low, high = int(low), int(high) if high else (None if comma else int(low))
                if low > _MAX_REPEAT or (high is not None and not low <= high <= _MAX_REPEAT):
                    raise ValueError("a repeat bound is out of reach")
            self.i, loop = close + 1, [("", (-len(body), 1))]  # after the last copy: round again, or on
            if high is None:
                code = body * low + loop if low else [("", (1, len(body) + 2))] + body + loop
            else:
                code = body * low + ([("", (1, len(body) + 1))] + body) * (high - low)
            self.growth += len(code) - len(body) if c == "{" else 0  # the rest add a move or two
            if self.growth > _MAX_GROWTH:
                raise ValueError("the pattern is too large")
            body = code

    def atom(self, c):
        if c in _REPEATS:
            raise ValueError("a repeat has nothing to repeat")
        if c == "[":
            return [("set", self.bracket())]
        if c == "\\":
            c, self.i = self.text[self.i:self.i + 1], self.i + 1
            if c.lower() in _ESCAPES:
                return [("set", _ESCAPES[c.lower()] + (c.isupper(),))]
            if not c or (c.isascii() and c.isalnum()) or c in "<>`'":  # GNU reads \1, \b, \< otherwise
                raise ValueError("a backslash ends the pattern or starts an escape outside the dialect")
        elif c in _SPECIAL:
            return [_SPECIAL[c]]
        return [("set", (((c, c),), (), False))]

    def bracket(self):
        negate = self.text.startswith("^", self.i)
        ranges, classes, self.i = [], [], self.i + negate
        first = self.i
        while not self.text.startswith("]", self.i) or self.i == first:  # a "]" first is a member
            span = self.text[self.i:self.i + 3]
            if span[:2] == "[:":
                close = self.text.find(":]", self.i + 2)
                classes.append(self.text[self.i + 2:close])
                if close < 0 or classes[-1] not in _CLASSES:
                    raise ValueError("an unknown character class")
                self.i = close + 2
            elif not span:
                raise ValueError("a bracket expression is not closed")
            else:
                is_range = len(span) == 3 and span[1] == "-" and span[2] != "]"
                ranges.append((span[0], span[2] if is_range else span[0]))
                self.i += 3 if is_range else 1
        self.i += 1
        return ranges, classes, negate


def compile_pattern(pattern):
    """A pattern -> its program. :class:`ValueError` outside the dialect or too large."""
    return _Parser(pattern).group("") + [("end", ())]


def search(program, text, fold=False, whole=False):
    """Whether the pattern matches somewhere in ``text`` (``whole``: all of it). Each step takes the set of
    instructions alive at one position to the next, each once: no backtracking, so time is bounded by the
    program's size times the text's length. A step is remembered for its set, character and place."""
    steps, alive = {}, frozenset()
    for at in range(len(text) + 1):
        ch = text[at - 1:at]  # the character just read; none at the start
        key = (alive, ch, at == 0, at == len(text))
        if key not in steps:
            todo = [pc + 1 for pc in alive if program[pc][0] == "set" and _member(*program[pc][1], ch, fold)]
            todo += [0] if at == 0 or not whole else []
            moves, reached = {"": True, "^": at == 0, "$": at == len(text)}, set()
            while todo:
                pc = todo.pop()
                if pc not in reached:
                    kind, argument = program[pc]
                    todo += [pc + offset for offset in argument] if moves.get(kind) else []
                reached.add(pc)
            steps[key] = frozenset(reached)
        alive = steps[key]
        if len(program) - 1 in alive and (at == len(text) or not whole):
            return True
    return False


def _member(ranges, classes, negate, ch, fold):
    chars = (ch, ch.lower(), ch.upper()) if fold else (ch,)
    return negate != (any(lo <= c <= hi for c in chars for lo, hi in ranges) or
                      any(_CLASSES[name](ch) for name in classes))
