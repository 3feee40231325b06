"""The guard's pattern matcher: the patterns of ``pkill``, ``pgrep`` and ``killall -r``.

Those tools read their pattern as a POSIX extended regular expression (ERE) and kill every
process whose name (or, with ``-f``, whose command line) it matches. The guard asks the same
question of the host's own names, so it needs the same reading of the pattern, not a literal
comparison. This module compiles the dialect of ``spec/gates/guard.md`` to a small automaton
and runs it as a set of states over the subject (Thompson's construction, no backtracking):
time is the program's size times the subject's length, whatever the pattern. It imports
nothing, so the gate's start-up stays cheap.

A pattern outside the dialect raises :class:`Unsupported`; the guard then counts it as
matching, so what it cannot read is denied, never allowed.
"""

#: Most states a pattern may compile to, as a multiple of its length (plus a little): a
#: bounded repetition such as ``a{1000}`` that would expand past it is outside the dialect.
MAX_STATES_PER_CHAR = 4
MAX_STATES_FLOOR = 64
#: Deepest nesting of groups the parser follows.
MAX_GROUP_DEPTH = 32
#: Largest repetition count of ``{m,n}``.
MAX_REPEAT = 255
#: Most repetitions applied one after the other to one atom (``a*?+``).
MAX_STACKED_REPEATS = 4

# The classes, word characters and case folding of the POSIX locale: ASCII only, so that every
# implementation reads a pattern alike. Any other character is in no class and has no other case.
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_DIGIT = "0123456789"
_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_GRAPH = _UPPER + _LOWER + _DIGIT + _PUNCT
_CLASSES = {
    "alpha": _UPPER + _LOWER, "digit": _DIGIT, "alnum": _UPPER + _LOWER + _DIGIT,
    "upper": _UPPER, "lower": _LOWER, "space": " \t\n\v\f\r", "blank": " \t",
    "punct": _PUNCT, "print": " " + _GRAPH, "graph": _GRAPH,
    "cntrl": "".join(map(chr, range(32))) + "\x7f", "xdigit": _DIGIT + "ABCDEFabcdef",
}
_WORD = frozenset(_CLASSES["alnum"] + "_")
_OTHER_CASE = dict(zip(_UPPER + _LOWER, _LOWER + _UPPER))
_TO_LOWER = str.maketrans(_UPPER, _LOWER)


def fold_case(text):
    """``text`` with A-Z as a-z and every other character as it is (GRD-056)."""
    return text.translate(_TO_LOWER)


def _word_before(subject, i):
    return i > 0 and subject[i - 1] in _WORD


def _word_after(subject, i):
    return i < len(subject) and subject[i] in _WORD


#: ``\x`` escapes that stand for a class: whether the class is negated, and its members.
_ESCAPED_CLASSES = {"w": (False, _WORD), "W": (True, _WORD),
                    "s": (False, _CLASSES["space"]), "S": (True, _CLASSES["space"])}


def _at_start(subject, i):
    return i == 0


def _at_end(subject, i):
    return i == len(subject)


#: The anchors ``^`` and ``$``, and the ``\x`` escapes that assert: ``subject, position ->
#: whether the assertion holds there``.
_ANCHORS = {"^": _at_start, "$": _at_end}
_ESCAPED_ASSERTIONS = {
    "`": _at_start, "'": _at_end,
    "b": lambda subject, i: _word_before(subject, i) != _word_after(subject, i),
    "B": lambda subject, i: _word_before(subject, i) == _word_after(subject, i),
    "<": lambda subject, i: _word_after(subject, i) and not _word_before(subject, i),
    ">": lambda subject, i: _word_before(subject, i) and not _word_after(subject, i),
}


class Unsupported(ValueError):
    """A pattern outside the dialect, or one that compiles too large to judge."""


class _Set:
    """A bracket expression or an escaped class: which characters one position accepts."""

    __slots__ = ("negated", "chars", "ranges")

    def __init__(self, negated, chars, ranges=()):
        self.negated = negated
        self.chars = frozenset(chars)
        self.ranges = tuple(ranges)

    def accepts(self, c, ignore_case):
        found = self._holds(c) or (ignore_case and self._holds(_OTHER_CASE.get(c, c)))
        return found != self.negated

    def _holds(self, c):
        return c in self.chars or any(low <= c <= high for low, high in self.ranges)


# -- parsing: pattern text -> a tree of tuples ----------------------------------------------
# ("test", a character, a _Set or None for any) ("assert", holds) ("cat", [nodes]) ("alt", [nodes])
# ("repeat", node, low, high or None); a "test" or "assert" node is also its instruction.

#: The repetition operators that are not intervals: ``(low, high or None)``.
_REPEATS = {"*": (0, None), "+": (1, None), "?": (0, 1)}


class _Parser:
    def __init__(self, pattern):
        self.pattern = pattern
        self.i = 0

    def parse(self):
        node = self._alternation(0)
        if self.i < len(self.pattern):
            raise Unsupported("an unmatched )")
        return node

    def _alternation(self, depth):
        if depth > MAX_GROUP_DEPTH:
            raise Unsupported("groups nest too deeply")
        branches = [self._concatenation(depth)]
        while self.i < len(self.pattern) and self.pattern[self.i] == "|":
            self.i += 1
            branches.append(self._concatenation(depth))
        return branches.pop() if len(branches) == 1 else ("alt", branches)

    def _concatenation(self, depth):
        items = []
        pattern = self.pattern
        while self.i < len(pattern) and pattern[self.i] not in "|)":
            atom = self._atom(depth)
            stacked = 0
            while self.i < len(pattern) and pattern[self.i] in "*+?{":
                stacked += 1
                if stacked > MAX_STACKED_REPEATS:
                    raise Unsupported("repetitions stacked too deeply")
                atom = self._quantified(atom)
            items.append(atom)
        return items.pop() if len(items) == 1 else ("cat", items)

    def _quantified(self, atom):
        if atom[0] == "assert":
            raise Unsupported("a repeated anchor")
        c = self.pattern[self.i]
        self.i += 1
        if c in _REPEATS:
            return ("repeat", atom, *_REPEATS[c])
        body, closed, _ = self.pattern[self.i:].partition("}")
        if not closed:
            raise Unsupported("an unclosed {")
        self.i += len(body) + 1
        low_text, comma, high_text = body.partition(",")
        if not all(part.isdigit() and part.isascii() for part in (low_text or "0", high_text or "0")):
            raise Unsupported("a bad repetition count")
        low = int(low_text or "0")
        high = (int(high_text) if high_text else None) if comma else low
        if low > MAX_REPEAT or (high is not None and (high > MAX_REPEAT or high < low)):
            raise Unsupported("a repetition count out of range")
        return ("repeat", atom, low, high)

    def _atom(self, depth):
        pattern = self.pattern
        c = pattern[self.i]
        self.i += 1
        if c == "(":
            node = self._alternation(depth + 1)
            if self.i >= len(pattern) or pattern[self.i] != ")":
                raise Unsupported("an unclosed (")
            self.i += 1
            return node
        if c == ".":
            return ("test", None)
        if c in _ANCHORS:
            return ("assert", _ANCHORS[c])
        if c == "[":
            return ("test", self._bracket())
        if c in "*+?{":
            raise Unsupported("a repetition of nothing")
        if c == "\\":
            if self.i >= len(pattern):
                raise Unsupported("a trailing backslash")
            c = pattern[self.i]
            self.i += 1
            if c in _ESCAPED_CLASSES:
                return ("test", _Set(*_ESCAPED_CLASSES[c]))
            if c in _ESCAPED_ASSERTIONS:
                return ("assert", _ESCAPED_ASSERTIONS[c])
            if c.isdigit():
                raise Unsupported("a back-reference")
        return ("test", c)

    def _bracket(self):
        pattern, end = self.pattern, len(self.pattern)
        negated = self.i < end and pattern[self.i] == "^"
        self.i += negated
        chars, ranges = [], []
        first = True
        while True:
            if self.i >= end:
                raise Unsupported("an unclosed [")
            c = pattern[self.i]
            if c == "]" and not first:
                self.i += 1
                return _Set(negated, "".join(chars), ranges)
            first = False
            if pattern.startswith("[:", self.i):
                # Without its ":]" the class runs to the end, and the bracket is unclosed.
                name = pattern[self.i + 2:].partition(":]")[0]
                if name not in _CLASSES:
                    raise Unsupported("an unknown character class")
                chars.append(_CLASSES[name])
                self.i += len(name) + 4
                continue
            if pattern.startswith(("[.", "[="), self.i):
                raise Unsupported("a collating element")
            self.i += 1
            # A "-" between two members makes a range; before "]" or the end it is itself.
            dash, high = pattern[self.i:self.i + 1], pattern[self.i + 1:self.i + 2]
            if dash == "-" and high not in ("", "]"):
                if high < c:
                    raise Unsupported("a range out of order")
                ranges.append((c, high))
                self.i += 2
            else:
                chars.append(c)


# -- compiling: tree -> instructions ----------------------------------------------------------
# ("test", character, _Set or None) ("assert", holds) ("split", a, b) ("jump", a) ("match",)


class _Compiler:
    def __init__(self, limit):
        self.code = []
        self.limit = limit
        self.compilers = {"test": self.emit, "assert": self.emit, "cat": self._concatenation,
                          "alt": self._alternation, "repeat": self._repeat}

    def emit(self, instruction):
        if len(self.code) >= self.limit:
            raise Unsupported("the pattern compiles too large")
        self.code.append(instruction)
        return len(self.code) - 1

    def node(self, node):
        self.compilers[node[0]](node)

    def _concatenation(self, node):
        for item in node[1]:
            self.node(item)

    def _alternation(self, node):
        *firsts, last = node[1]
        jumps = []
        for branch in firsts:
            split = self.emit(None)
            self.node(branch)
            jumps.append(self.emit(None))
            self.code[split] = ("split", split + 1, len(self.code))
        self.node(last)
        for jump in jumps:
            self.code[jump] = ("jump", len(self.code))

    def _repeat(self, node):
        _, atom, low, high = node
        for _ in range(low):
            self.node(atom)
        if high is None:
            split = self.emit(None)
            self.node(atom)
            self.emit(("jump", split))
            self.code[split] = ("split", split + 1, len(self.code))
            return
        holes = []
        for _ in range(high - low):
            holes.append(self.emit(None))
            self.node(atom)
        for hole in holes:
            self.code[hole] = ("split", hole + 1, len(self.code))


def compile_pattern(pattern):
    """Pattern text -> a program for :func:`search`; :class:`Unsupported` outside the dialect."""
    tree = _Parser(pattern).parse()
    compiler = _Compiler(MAX_STATES_PER_CHAR * len(pattern) + MAX_STATES_FLOOR)
    compiler.node(tree)
    compiler.emit(("match",))
    return tuple(compiler.code)


# -- running: every state at once, one character at a time -----------------------------------


def _accepts(test, c, ignore_case):
    if test is None:
        return True
    if isinstance(test, str):
        return c == test or (ignore_case and _OTHER_CASE.get(c) == test)
    return test.accepts(c, ignore_case)


def _closure(program, states, seen, start, subject, i):
    """Add ``start`` and every state reached from it without reading a character.
    Returns True when the match state is among them."""
    stack = [start]
    matched = False
    while stack:
        pc = stack.pop()
        if pc in seen:
            continue
        seen.add(pc)
        instruction = program[pc]
        kind = instruction[0]
        if kind == "split":
            stack.append(instruction[2])
            stack.append(instruction[1])
        elif kind == "jump":
            stack.append(instruction[1])
        elif kind == "assert":
            if instruction[1](subject, i):
                stack.append(pc + 1)
        elif kind == "match":
            matched = True
        else:
            states.append(pc)
    return matched


def search(program, subject, ignore_case, whole):
    """Whether ``program`` matches somewhere in ``subject`` (``whole``: all of it), with
    ``ignore_case`` folding A-Z and a-z."""
    states = []
    matched = _closure(program, states, set(), 0, subject, 0)
    i = 0
    # A whole match stops reading once no state is left: none can reach the end any more.
    while i < len(subject) and (states or not whole):
        if matched and not whole:
            return True
        c = subject[i]
        following, seen = [], set()
        matched = False
        for pc in states:
            if _accepts(program[pc][1], c, ignore_case):
                matched = _closure(program, following, seen, pc + 1, subject, i + 1) or matched
        if not whole:
            matched = _closure(program, following, seen, 0, subject, i + 1) or matched
        states = following
        i += 1
    return matched and i == len(subject)
