"""How the guard reads a kill pattern (``pkill``, ``pgrep``, ``killall -r``, ``grep`` in a
``ps`` pipeline): an extended regular expression matched in time linear in the name, without
the ``re`` module, so that judging a kill by a pattern costs no more start-up than any other
call (spec/gates/guard.md GRD-070).

The dialect: literals and ``\\`` escapes, ``.``, bracket expressions (ranges, ``^`` negation,
``[:alpha:]``-style classes), ``\\w \\s \\d`` and their negations, ``*``, ``+``, ``?``,
``{m}``, ``{m,}``, ``{m,n}`` (at most 32), ``|``, groups, ``^`` and ``$``. A pattern outside it
raises :class:`ValueError`; the guard then asks.
"""

_MAX_REPEAT = 32
_MAX_NODES = 4096
_NAMED = {"w": "alnum_", "s": "space", "d": "digit"}
_POSIX = {"alpha", "digit", "alnum", "upper", "lower", "space", "punct", "xdigit", "print",
          "graph", "cntrl", "blank"}


def _in_class(name, ch):
    if name == "alnum_":
        return ch.isalnum() or ch == "_"
    if name == "xdigit":
        return ch in "0123456789abcdefABCDEF"
    if name == "blank":
        return ch in " \t"
    if name == "punct":
        return ch.isprintable() and not ch.isalnum() and not ch.isspace()
    if name == "print":
        return ch.isprintable()
    if name == "graph":
        return ch.isprintable() and not ch.isspace()
    if name == "cntrl":
        return ord(ch) < 32 or ord(ch) == 127
    return getattr(ch, "is" + name)()


class _Set:
    """Which characters one position accepts."""

    __slots__ = ("ranges", "classes", "negate")

    def __init__(self, ranges=(), classes=(), negate=False):
        self.ranges, self.classes, self.negate = list(ranges), list(classes), negate

    def accepts(self, ch, fold):
        chars = (ch, ch.lower(), ch.upper()) if fold else (ch,)
        hit = any(lo <= c <= hi for c in chars for lo, hi in self.ranges) or \
            any(_in_class(name, ch) for name in self.classes)
        return hit != self.negate


_ANY = _Set(negate=True)  # accepts every character


class _Parser:
    def __init__(self, pattern):
        self.text, self.i = pattern, 0

    def peek(self):
        return self.text[self.i] if self.i < len(self.text) else ""

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
            if c == "{":
                close = self.text.find("}", self.i)
                body = self.text[self.i + 1:close] if close > 0 else ""
                low, comma, high = body.partition(",")
                if not low.isdigit() or (high and not high.isdigit()):
                    break  # a brace that opens no bound is a literal
                low = int(low)
                high = int(high) if high else (None if comma else low)
                if low > _MAX_REPEAT or (high is not None and (high > _MAX_REPEAT or high < low)):
                    raise ValueError("a repeat bound is out of reach")
                self.i = close + 1
                atom = ("rep", atom, low, high)
            else:
                self.i += 1
                atom = ("rep", atom, {"*": 0, "+": 1, "?": 0}[c], 1 if c == "?" else None)
        return atom

    def atom(self):
        c = self.peek()
        self.i += 1
        if c == "(":
            inner = self.alternation()
            if self.peek() != ")":
                raise ValueError("a group is not closed")
            self.i += 1
            return inner
        if c == ".":
            return ("set", _ANY)
        if c in "^$":
            return ("anchor", c)
        if c == "[":
            return ("set", self.bracket())
        if c == "\\":
            e = self.peek()
            self.i += 1
            if not e:
                raise ValueError("a pattern ends in a backslash")
            if e.lower() in _NAMED:
                return ("set", _Set(classes=[_NAMED[e.lower()]], negate=e.isupper()))
            return ("set", _Set(ranges=[(e, e)]))
        if c in "*+?":
            raise ValueError("a repeat has nothing to repeat")
        return ("set", _Set(ranges=[(c, c)]))

    def bracket(self):
        found = _Set()
        if self.peek() == "^":
            found.negate = True
            self.i += 1
        first = True
        while True:
            c = self.peek()
            if not c:
                raise ValueError("a bracket expression is not closed")
            if c == "]" and not first:
                self.i += 1
                return found
            first = False
            if self.text.startswith("[:", self.i):
                close = self.text.find(":]", self.i + 2)
                name = self.text[self.i + 2:close] if close > 0 else ""
                if name not in _POSIX:
                    raise ValueError("an unknown character class")
                found.classes.append(name)
                self.i = close + 2
                continue
            self.i += 1
            if self.peek() == "-" and self.text[self.i + 1:self.i + 2] not in ("]", ""):
                high = self.text[self.i + 1]
                self.i += 2
                found.ranges.append((c, high))
            else:
                found.ranges.append((c, c))


def compile_pattern(pattern):
    """A pattern -> its program (a list of nodes). :class:`ValueError` outside the dialect."""
    parser = _Parser(pattern)
    tree = parser.alternation()
    if parser.i != len(pattern):
        raise ValueError("a group closes that never opened")
    nodes = []

    def emit(kind, data=None):
        if len(nodes) >= _MAX_NODES:
            raise ValueError("the pattern is too large")
        nodes.append([kind, data, None, None])
        return len(nodes) - 1

    def build(node, then):
        """Nodes that run ``node`` and continue at ``then``; returns the entry."""
        kind = node[0]
        if kind == "seq":
            for item in reversed(node[1]):
                then = build(item, then)
            return then
        if kind == "alt":
            entries = [build(branch, then) for branch in node[1]]
            entry = entries[-1]
            for other in reversed(entries[:-1]):
                split = emit("split")
                nodes[split][2], nodes[split][3] = other, entry
                entry = split
            return entry
        if kind == "rep":
            _, inner, low, high = node
            if high is None:
                loop = emit("split")
                body = build(inner, loop)
                nodes[loop][2], nodes[loop][3] = body, then
                then = loop
            else:
                for _ in range(high - low):
                    split = emit("split")
                    nodes[split][2], nodes[split][3] = build(inner, then), then
                    then = split
            for _ in range(low):
                then = build(inner, then)
            return then
        entry = emit(kind, node[1])
        nodes[entry][2] = then
        return entry

    end = emit("match")
    start = build(tree, end)
    return nodes, start


def search(program, text, fold=False, whole=False):
    """Whether the program matches somewhere in ``text`` (``whole``: all of it)."""
    nodes, start = program
    current = _closure(nodes, {start}, 0, len(text))
    for position, ch in enumerate(text):
        if not whole and any(nodes[s][0] == "match" for s in current):
            return True
        following = {nodes[s][2] for s in current if nodes[s][0] == "set" and nodes[s][1].accepts(ch, fold)}
        if not whole:
            following.add(start)
        current = _closure(nodes, following, position + 1, len(text))
    return any(nodes[s][0] == "match" for s in current)


def _closure(nodes, states, position, length):
    """The states reachable without reading a character; anchors hold only where they do."""
    found, seen, stack = set(), set(), list(states)
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        kind = nodes[state][0]
        if kind == "split":
            stack.extend((nodes[state][2], nodes[state][3]))
            continue
        if kind == "anchor":
            if (nodes[state][1] == "^" and position == 0) or (nodes[state][1] == "$" and position == length):
                stack.append(nodes[state][2])
            continue
        found.add(state)
    return found
