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

_CLASSES = {
    "alpha": str.isalpha, "digit": lambda c: c in "0123456789", "alnum": str.isalnum,
    "upper": str.isupper, "lower": str.islower, "space": str.isspace,
    "blank": lambda c: c in " \t", "punct": lambda c: c.isascii() and c.isprintable() and not c.isalnum() and c != " ",
    "print": str.isprintable, "graph": lambda c: c.isprintable() and c != " ",
    "cntrl": lambda c: ord(c) < 32 or ord(c) == 127, "xdigit": lambda c: c in "0123456789abcdefABCDEF",
}


def _is_word(c):
    return c.isalnum() or c == "_"


_ESCAPED_CLASSES = {
    "w": (False, _is_word), "W": (True, _is_word),
    "s": (False, str.isspace), "S": (True, str.isspace),
}
_ASSERTIONS = {"b": "word", "B": "not_word", "<": "word_start", ">": "word_end", "`": "bol", "'": "eol"}


class Unsupported(ValueError):
    """A pattern outside the dialect, or one that compiles too large to judge."""


class _Set:
    """A bracket expression or an escaped class: which characters one position accepts."""

    __slots__ = ("negated", "chars", "ranges", "tests")

    def __init__(self, negated=False, chars="", ranges=(), tests=()):
        self.negated = negated
        self.chars = frozenset(chars)
        self.ranges = tuple(ranges)
        self.tests = tuple(tests)

    def accepts(self, c, ignore_case=False):
        found = self._holds(c) or (ignore_case and (self._holds(c.lower()) or self._holds(c.upper())))
        return found != self.negated

    def _holds(self, c):
        return c in self.chars or any(low <= c <= high for low, high in self.ranges) or any(
            test(c) for test in self.tests)


# -- parsing: pattern text -> a tree of tuples ----------------------------------------------
# ("char", c) ("any",) ("set", _Set) ("assert", kind) ("cat", [nodes]) ("alt", [nodes])
# ("repeat", node, low, high or None)


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
        return branches[0] if len(branches) == 1 else ("alt", branches)

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
        return items[0] if len(items) == 1 else ("cat", items)

    def _quantified(self, atom):
        c = self.pattern[self.i]
        if atom[0] == "assert":
            raise Unsupported("a repeated anchor")
        self.i += 1
        if c == "*":
            return ("repeat", atom, 0, None)
        if c == "+":
            return ("repeat", atom, 1, None)
        if c == "?":
            return ("repeat", atom, 0, 1)
        close = self.pattern.find("}", self.i)
        if close < 0:
            raise Unsupported("an unclosed {")
        low_text, comma, high_text = self.pattern[self.i:close].partition(",")
        self.i = close + 1
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
            return ("any",)
        if c == "^":
            return ("assert", "bol")
        if c == "$":
            return ("assert", "eol")
        if c == "[":
            return ("set", self._bracket())
        if c in "*+?{":
            raise Unsupported("a repetition of nothing")
        if c == "\\":
            if self.i >= len(pattern):
                raise Unsupported("a trailing backslash")
            c = pattern[self.i]
            self.i += 1
            if c in _ESCAPED_CLASSES:
                negated, test = _ESCAPED_CLASSES[c]
                return ("set", _Set(negated, tests=(test,)))
            if c in _ASSERTIONS:
                return ("assert", _ASSERTIONS[c])
            if c.isdigit():
                raise Unsupported("a back-reference")
        return ("char", c)

    def _bracket(self):
        pattern, end = self.pattern, len(self.pattern)
        negated = self.i < end and pattern[self.i] == "^"
        self.i += negated
        chars, ranges, tests = [], [], []
        first = True
        while True:
            if self.i >= end:
                raise Unsupported("an unclosed [")
            c = pattern[self.i]
            if c == "]" and not first:
                self.i += 1
                return _Set(negated, "".join(chars), ranges, tests)
            first = False
            if pattern.startswith("[:", self.i):
                close = pattern.find(":]", self.i + 2)
                name = pattern[self.i + 2:close] if close >= 0 else ""
                if name not in _CLASSES:
                    raise Unsupported("an unknown character class")
                tests.append(_CLASSES[name])
                self.i = close + 2
                continue
            if pattern.startswith(("[.", "[="), self.i):
                raise Unsupported("a collating element")
            self.i += 1
            if self.i + 1 < end and pattern[self.i] == "-" and pattern[self.i + 1] != "]":
                high = pattern[self.i + 1]
                if high < c:
                    raise Unsupported("a range out of order")
                ranges.append((c, high))
                self.i += 2
            else:
                chars.append(c)


# -- compiling: tree -> instructions ----------------------------------------------------------
# ("test", _Set or char or None for any) ("split", a, b) ("jump", a) ("assert", kind) ("match",)


class _Compiler:
    def __init__(self, limit):
        self.code = []
        self.limit = limit

    def emit(self, instruction):
        if len(self.code) >= self.limit:
            raise Unsupported("the pattern compiles too large")
        self.code.append(instruction)
        return len(self.code) - 1

    def node(self, node):
        kind = node[0]
        if kind == "char":
            self.emit(("test", node[1]))
        elif kind == "any":
            self.emit(("test", None))
        elif kind == "set":
            self.emit(("test", node[1]))
        elif kind == "assert":
            self.emit(("assert", node[1]))
        elif kind == "cat":
            for item in node[1]:
                self.node(item)
        elif kind == "alt":
            self._alternation(node[1])
        else:
            self._repeat(node[1], node[2], node[3])

    def _alternation(self, branches):
        jumps = []
        for branch in branches[:-1]:
            split = self.emit(None)
            self.node(branch)
            jumps.append(self.emit(None))
            self.code[split] = ("split", split + 1, len(self.code))
        self.node(branches[-1])
        for jump in jumps:
            self.code[jump] = ("jump", len(self.code))

    def _repeat(self, atom, low, high):
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


def _holds(kind, subject, i):
    before = i > 0 and _is_word(subject[i - 1])
    after = i < len(subject) and _is_word(subject[i])
    if kind == "bol":
        return i == 0
    if kind == "eol":
        return i == len(subject)
    if kind == "word":
        return before != after
    if kind == "not_word":
        return before == after
    if kind == "word_start":
        return after and not before
    return before and not after  # word_end


def _accepts(test, c, ignore_case):
    if test is None:
        return True
    if isinstance(test, str):
        return c == test or (ignore_case and c.lower() == test.lower())
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
            if _holds(instruction[1], subject, i):
                stack.append(pc + 1)
        elif kind == "match":
            matched = True
        else:
            states.append(pc)
    return matched


def search(program, subject, ignore_case=False, whole=False):
    """Whether ``program`` matches somewhere in ``subject`` (``whole``: all of it)."""
    states, seen = [], set()
    matched = _closure(program, states, seen, 0, subject, 0)
    if matched and (not whole or not subject):
        return True
    for i, c in enumerate(subject):
        following, seen = [], set()
        matched = False
        for pc in states:
            if _accepts(program[pc][1], c, ignore_case):
                matched = _closure(program, following, seen, pc + 1, subject, i + 1) or matched
        if not whole:
            matched = _closure(program, following, seen, 0, subject, i + 1) or matched
            if matched:
                return True
        states = following
        if whole and not states and i + 1 < len(subject):
            return False
    return matched
