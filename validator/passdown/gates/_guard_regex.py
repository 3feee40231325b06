"""How the guard reads a kill pattern (``pkill``, ``pgrep``, ``killall -r``, ``grep`` in a
``ps`` pipeline): an extended regular expression matched without the ``re`` module, so that
judging a kill by a pattern costs no more start-up than any other call (spec/gates/guard.md
GRD-070). The matcher carries the set of positions each part of the pattern can end at, so
its time grows with the pattern's size times the name's length, never exponentially.

The dialect: literals and ``\\`` escapes, ``.``, bracket expressions (ranges, ``^`` negation,
``[:alpha:]``-style classes), ``\\w \\s \\d`` and their negations, ``*``, ``+``, ``?``,
``{m}``, ``{m,}``, ``{m,n}`` (at most 32), ``|``, groups, ``^`` and ``$``. A pattern outside it
raises :class:`ValueError`; the guard then asks.
"""

_MAX_REPEAT = 32
#: The largest pattern read, counting each bounded repeat's body as many times as it repeats.
_MAX_SIZE = 4096
_CLASSES = {
    "alnum_": lambda ch: ch.isalnum() or ch == "_", "space": str.isspace, "digit": str.isdigit,
    "alpha": str.isalpha, "alnum": str.isalnum, "upper": str.isupper, "lower": str.islower,
    "xdigit": lambda ch: ch in "0123456789abcdefABCDEF", "blank": lambda ch: ch in " \t",
    "punct": lambda ch: ch.isprintable() and not ch.isalnum() and not ch.isspace(),
    "print": str.isprintable, "graph": lambda ch: ch.isprintable() and not ch.isspace(),
    "cntrl": lambda ch: ord(ch) < 32 or ord(ch) == 127,
}
_NAMED = {"w": "alnum_", "s": "space", "d": "digit"}


class _Parser:
    """Pattern -> tree: ``("lit", c)``, ``("set", (ranges, classes, negate))``, ``("anchor",
    c)``, ``("seq", items)``, ``("alt", branches)``, ``("rep", inner, low, high)``."""

    def __init__(self, pattern):
        self.text, self.i, self.size, self.last = pattern, 0, 0, 0

    def peek(self):
        return self.text[self.i:self.i + 1]

    def alternation(self):
        branches = [self.sequence()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence())
        return ("alt", branches) if len(branches) > 1 else branches[0]

    def sequence(self):
        items = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.repeat())
        return ("seq", items)

    def repeat(self):
        atom = self.atom()
        while self.peek() in ("*", "+", "?", "{"):
            c = self.peek()
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}.get(c, (None, None))
            close = self.i + 1
            if c == "{":
                close = self.text.find("}", self.i)
                low, comma, high = self.text[self.i + 1:close].partition(",") if close > 0 else ("", "", "")
                if not low.isdigit() or (high and not high.isdigit()):
                    break  # a brace that opens no bound is a literal
                low, high = int(low), int(high) if high else (None if comma else int(low))
                if low > _MAX_REPEAT or (high is not None and not low <= high <= _MAX_REPEAT):
                    raise ValueError("a repeat bound is out of reach")
                close += 1
                self.size += self.last * ((low + 1 if high is None else high) - 1)
                if self.size > _MAX_SIZE:
                    raise ValueError("the pattern is too large")
            self.i = close
            atom = ("rep", atom, low, high)
        return atom

    def atom(self):
        c = self.peek()
        self.i += 1
        self.size += 1
        if c == "(":
            before = self.size
            inner = self.alternation()
            if self.peek() != ")":
                raise ValueError("a group is not closed")
            self.i += 1
            self.last = self.size - before + 1
            return inner
        self.last = 1
        if c in ".^$":
            return ("set", ((), (), True)) if c == "." else ("anchor", c)
        if c == "[":
            return ("set", self.bracket())
        if c in "*+?":
            raise ValueError("a repeat has nothing to repeat")
        if c == "\\":
            c = self.peek()
            self.i += 1
            if not c:
                raise ValueError("a pattern ends in a backslash")
            if c.lower() in _NAMED:
                return ("set", ((), (_NAMED[c.lower()],), c.isupper()))
        return ("lit", c)

    def bracket(self):
        ranges, classes, negate = [], [], self.peek() == "^"
        self.i += negate
        first = True
        while True:
            c = self.peek()
            if not c:
                raise ValueError("a bracket expression is not closed")
            if c == "]" and not first:
                self.i += 1
                return ranges, classes, negate
            first = False
            if self.text.startswith("[:", self.i):
                close = self.text.find(":]", self.i + 2)
                name = self.text[self.i + 2:close] if close > 0 else ""
                if name not in _CLASSES or name == "alnum_":
                    raise ValueError("an unknown character class")
                classes.append(name)
                self.i = close + 2
            elif self.text[self.i + 1:self.i + 2] == "-" and self.text[self.i + 2:self.i + 3] not in ("]", ""):
                ranges.append((c, self.text[self.i + 2]))
                self.i += 3
            else:
                ranges.append((c, c))
                self.i += 1


def compile_pattern(pattern):
    """A pattern -> its tree. :class:`ValueError` outside the dialect."""
    parser = _Parser(pattern)
    tree = parser.alternation()
    if parser.i != len(pattern):
        raise ValueError("a group closes that never opened")
    return tree


def search(program, text, fold=False, whole=False):
    """Whether the pattern matches somewhere in ``text`` (``whole``: all of it)."""
    ends = _Match(text, fold).step(program, {0} if whole else set(range(len(text) + 1)))
    return len(text) in ends if whole else bool(ends)


class _Match:
    def __init__(self, text, fold):
        self.raw, self.n, self.fold = text, len(text), fold
        self.text = text.lower() if fold else text

    def step(self, node, starts):
        """The positions ``node`` can end at, starting at any of ``starts``."""
        kind, text = node[0], self.text
        if not starts:
            return starts
        if kind == "lit":
            c = node[1].lower() if self.fold else node[1]
            return {p + 1 for p in starts if text[p:p + 1] == c}
        if kind == "set":
            return {p + 1 for p in starts if p < self.n and self.accepts(node[1], self.raw[p])}
        if kind == "anchor":
            return {p for p in starts if p == (0 if node[1] == "^" else self.n)}
        if kind == "seq":
            for item in node[1]:
                starts = self.step(item, starts)
            return starts
        if kind == "alt":
            return set().union(*(self.step(branch, starts) for branch in node[1]))
        _, inner, low, high = node
        for _ in range(low):
            starts = self.step(inner, starts)
        if inner == ("set", ((), (), True)) and high is None:  # ``.*``: every later position
            return set(range(min(starts), self.n + 1)) if starts else starts
        found, frontier = set(starts), starts
        for _ in range(self.n + 1 if high is None else high - low):
            frontier = self.step(inner, frontier) - found
            if not frontier:
                break
            found |= frontier
        return found

    def accepts(self, members, ch):
        ranges, classes, negate = members
        chars = (ch, ch.lower(), ch.upper()) if self.fold else (ch,)
        hit = any(lo <= c <= hi for c in chars for lo, hi in ranges) or \
            any(_CLASSES[name](ch) for name in classes)
        return hit != negate
