"""How the guard reads command text: shell text of the POSIX, PowerShell or ``cmd`` dialect into
commands, evaluating nothing (spec/gates/guard.md, "Reading commands").

A command is its words (quotes removed, escapes decoded, variables kept as written), whether
its standard input is the previous command's output, the text fed to it by here-documents and
here-strings, the files it writes by redirection, and the commands its substitutions run. Text
that cannot be read (an unclosed quote or substitution, nesting past the bound) raises
:class:`Unreadable`: the guard then asks, never allows silently.
"""

#: Deepest nesting of substitutions and payloads the guard reads.
MAX_DEPTH = 8
#: Longest command text the guard reads.
MAX_COMMAND_CHARS = 65536

_BLANKS = " \t\r"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_ORDINARY = _NAME_CHARS | frozenset("-./,+=:")  # no dialect gives these a meaning: read in runs
_SPECIAL_PARAMETERS = frozenset("$!?#@*-0123456789")
_REDIRECTIONS = ("<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<")
#: Per dialect: its escape character, the characters that end a command, those that redirect.
_SYNTAX = {"posix": ("\\", ";&|()", "<>"), "powershell": ("`", ";&|", ">"), "cmd": ("^", ";&|()", "<>")}
_ANSI_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                 "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
#: Escape -> (base, digits, where its digits start after the backslash, how many it takes at most).
_NUMBER_ESCAPES = {**{e: (16, "0123456789abcdefABCDEF", 2, most) for e, most in zip("xuU", (2, 4, 8))},
                   **dict.fromkeys("01234567", (8, "01234567", 1, 4))}
_PS_ESCAPES = {"n": "\n", "t": "\t"}
_PS_QUOTED_ESCAPES = {**_PS_ESCAPES, "0": "\0"}


class Unreadable(Exception):
    """Text the guard cannot read: ``code`` is ``unreadable``, ``too_deep`` or ``too_long``."""

    def __init__(self, code, why):
        super().__init__(why)
        self.code, self.why = code, why


class Word(str):
    """One word after quote removal; ``dynamic`` when part of it is computed at run time (a
    variable or a substitution), ``nested`` the programs of its substitutions, ``raw`` the
    text as written."""

    dynamic = False
    nested = ()
    raw = ""


def computed(text):
    """A word whose value is computed at run time, as the reader marks ``$name``."""
    word = Word(text)
    word.dynamic = True
    return word


class Command:
    """One simple command of a program, as read; ``sources`` are the programs whose output
    is its standard input (``< <(...)``)."""

    __slots__ = ("words", "piped", "fed", "writes", "nested", "sources")

    def __init__(self, piped):
        self.words, self.piped, self.fed, self.writes, self.nested, self.sources = [], piped, [], [], [], []


def read(text, dialect="posix", depth=0):
    """Text -> the list of its commands, in order."""
    if depth > MAX_DEPTH:
        raise Unreadable("too_deep", f"payloads nest more than {MAX_DEPTH} levels deep")
    if len(text) > MAX_COMMAND_CHARS:
        raise Unreadable("too_long", f"the command is longer than {MAX_COMMAND_CHARS} characters")
    return _Reader(text, dialect, depth).program(None)


def decode_escapes(text):
    """Backslash escapes as ``printf``, ``echo -e`` and ``$'...'`` decode them."""
    out, i, n = [], 0, len(text)
    while i < n:
        e = text[i + 1:i + 2] if text[i] == "\\" else ""
        if e in _NUMBER_ESCAPES:
            base, digits, first, most = _NUMBER_ESCAPES[e]
            start = j = i + first
            while j < min(n, start + most) and text[j] in digits:
                j += 1
            code = int(text[start:j] or "0", base)  # \x, \u or \U without a digit stays as written
            out.append(chr(code % 256 if base == 8 else code) if j > start else "\\" + e)
            i = j
        else:
            out.append(_ANSI_ESCAPES.get(e, "\\" + e) if e else text[i])
            i += 1 + len(e)
    return "".join(out)


class _Reader:
    """One pass over one text: ``program`` reads commands, each word a piece at a time into
    ``chars`` (None between words), ``dynamic`` and ``nested``."""

    def __init__(self, text, dialect, depth, start=0):
        self.text, self.n, self.i = text, len(text), start
        self.dialect, self.depth = dialect, depth
        self.posix, self.ps, self.cmd = dialect == "posix", dialect == "powershell", dialect == "cmd"
        self.escape, self.separators, self.redirectors = _SYNTAX[dialect]
        self.heredocs, self.chars, self.dynamic, self.nested = [], None, False, []

    def program(self, closer):
        """The commands up to the end of the text or, in a block, past its ``closer``."""
        commands, command, redirect, text = [], Command(False), None, self.text

        def finish():  # the word read so far joins the command or names what a redirection does
            nonlocal redirect
            if self.chars is None:
                return
            kind, redirect, value, self.chars = redirect, None, "".join(self.chars), None
            echo_off = self.cmd and kind is None and not command.words and value.startswith("@")
            value = Word(value[1:] if echo_off else value)  # cmd's "@" only hides a command's echo
            value.dynamic, value.nested, value.raw = self.dynamic, self.nested, text[self.raw_start:self.i]
            command.nested.extend(value.nested)
            if kind is None:
                if value or not echo_off:
                    command.words.append(value)
            elif kind == "<<<":
                command.fed.append(str(value))
            elif kind.startswith("<<"):
                self.heredocs.append((value, kind == "<<-", command))
            elif ">" in kind:
                command.writes.append(str(value))
            elif value.raw.startswith("<("):  # input read from a process substitution
                command.sources.extend(value.nested)

        def end(piped):
            nonlocal command
            finish()
            if command.words or command.fed or command.writes or command.nested:
                commands.append(command)
            command = Command(piped)

        while self.i < self.n:
            c = text[self.i]
            if c in _BLANKS:
                finish()
                self.i += 1
            elif c == "\n":
                end(False)
                self.i += 1
                self._heredoc_bodies(closer)
            elif c == "#" and self.chars is None and not self.cmd:
                close = text.find("\n", self.i)
                self.i = self.n if close < 0 else close
            elif self.ps and text.startswith("<#", self.i):
                self.i = self._find("#>", self.i + 2, "a block comment") + 2
            elif c == closer:
                break
            elif self.posix and text.startswith("&>", self.i):  # &> and &>> redirect both outputs
                finish()
                self.i += 3 if text.startswith("&>>", self.i) else 2
                redirect = ">"
            elif c in self.separators:
                two = text[self.i:self.i + 2]
                self.i += 2 if two in ("&&", "||", "|&", ";;", "()") else 1  # "()": f() defines f
                end(c == "|" and two != "||")
            elif c in self.redirectors and not (self.posix and text.startswith("(", self.i + 1)):
                pending = "" if self.chars is None or self.dynamic else "".join(self.chars)
                if pending.isdigit() or (pending.startswith("{") and pending.endswith("}")):
                    self.chars = None  # a descriptor number belongs to the operator
                else:
                    finish()
                op = next(op for op in _REDIRECTIONS if text.startswith(op, self.i))
                self.i += len(op)
                target = self.i
                while op.endswith("&") and self.i < self.n and \
                        (text[self.i].isdigit() or text[self.i] == "-"):
                    self.i += 1
                if self.i == target:  # else the operator copied a descriptor and names no file
                    redirect = op
            elif c == self.escape and text.startswith(("\n", "\r\n"), self.i + 1):  # a line continues
                self.i = text.index("\n", self.i) + 1
            else:
                if self.chars is None:
                    self.chars, self.dynamic, self.nested, self.raw_start = [], False, [], self.i
                self._piece(c)
        end(False)
        if self.i < self.n:  # at the closer
            self.i += 1
        elif closer:
            raise Unreadable("unreadable", f"a {'(' if closer == ')' else '{'} is not closed")
        else:
            self._heredoc_bodies(None)
        return commands

    def _piece(self, c):
        """The piece of a word that starts at ``c``."""
        text, i, e = self.text, self.i, self.text[self.i + 1:self.i + 2]
        if c == "'" and not self.cmd:
            close = self._find("'", i + 1, "a single quote")
            while self.ps and text.startswith("''", close):  # PowerShell's '' is a quote
                close = self._find("'", close + 2, "a single quote")
            self._add(text[i + 1:close].replace("''", "'") if self.ps else text[i + 1:close], close + 1)
        elif c == '"':
            self._double_quoted('"')
        elif c == self.escape:
            self._add(_PS_ESCAPES.get(e, e) if self.ps else e, i + 1 + len(e))
        elif c == "$" and not self.cmd:
            self._dollar()
        elif c == "`" and self.posix:
            self._backticks()
        elif self.ps and text.startswith(("@'\n", "@'\r", '@"\n', '@"\r'), i):  # a here-string
            close = self._find("\n" + e + "@", i + 2, "a here-string")
            self._add(text[i + 3:close], close + 3)
        elif (self.ps and (c in "({" or text.startswith("@(", i))) or (self.posix and c in "<>"):
            self.i += c == "@"  # PowerShell's (...), {...}, @(...) (from its "("); posix <(...), >(...)
            self._nested_block("}" if c == "{" else ")")
        elif self.cmd and c == "%" and i + 1 < (close := text.find("%", i + 1)) \
                and _NAME_CHARS.issuperset(text[i + 1:close]):
            self._add(text[i:close + 1], close + 1, dynamic=True)
        else:
            self._plain()

    def _add(self, value, end, dynamic=False):
        """``value`` joins the word (``dynamic`` if computed at run time); reading goes on at ``end``."""
        self.chars.append(value)
        self.dynamic = self.dynamic or dynamic
        self.i = end

    def _plain(self):
        """The character here, which means nothing here, and the ordinary ones after it join the word."""
        end = self.i + 1
        while end < self.n and self.text[end] in _ORDINARY:
            end += 1
        self._add(self.text[self.i:end], end)

    def _find(self, closing, start, what, escaped=False):
        """The index of ``closing`` from ``start`` (one no backslash escapes, if ``escaped``)."""
        close = start
        while escaped and close < self.n and self.text[close] != closing:
            close += 2 if self.text[close] == "\\" else 1
        close = self.text.find(closing, close)
        if close < 0:
            raise Unreadable("unreadable", f"{what} is not closed")
        return close

    def _double_quoted(self, quote):
        """From the opening ``quote`` past its closing one; or, ``quote`` None, an unquoted
        here-document's body to its end, which expands the same but for quotes."""
        text, escapable = self.text, '$`"\\\n' if quote else "$`\\"  # what a backslash escapes
        self.i += quote is not None  # past the opening quote
        while self.i < self.n:
            c, e = text[self.i], text[self.i + 1:self.i + 2]
            if c == quote and not (self.ps and e == '"'):
                self.i += 1
                return
            if e and (c == quote or (self.ps and c == "`") or (self.posix and c == "\\" and e in escapable)):
                # PowerShell's "" or `x, a backslash before what it escapes (before a newline: nothing)
                self._add(_PS_QUOTED_ESCAPES.get(e, e) if self.ps else e.strip("\n"), self.i + 2)
            elif quote and self.posix and c == "$" and e in ("'", '"'):
                self._add("$", self.i + 1)  # $'...' and $"..." quote only outside double quotes
            elif c == "$" and not self.cmd:
                self._dollar()
            elif c == "`" and self.posix:
                self._backticks()
            else:
                self._plain()
        if quote:  # a Windows path written "C:\dir\" in a POSIX shell: its last backslash escapes the quote
            escaped = self.posix and '\\"' in self.text
            hint = '; a backslash before a quote escapes it, as in "C:\\dir\\"' if escaped else ""
            raise Unreadable("unreadable", "a double quote is not closed" + hint)

    def _dollar(self):
        text, i, nxt = self.text, self.i, self.text[self.i + 1:self.i + 2]
        if self.posix and text.startswith("$((", i):  # arithmetic: to the matching parenthesis
            level, j = 1, i + 2
            while level:
                if j >= self.n:
                    raise Unreadable("unreadable", "a ( is not closed")
                c = text[j]
                if c in "'\"":  # quoted text is skipped
                    j = self._find(c, j + 1, "a (")
                level += (c == "(") - (c == ")")
                j += 1
            self._add(text[i:j], j, dynamic=True)
        elif nxt == "(":
            self.i = i + 1
            self._nested_block(")")
        elif nxt == "{":
            close = self._find("}", i + 2, "a ${")
            inner = text[i + 2:close]
            shown = "$" + inner if _NAME_CHARS.issuperset(inner) else text[i:close + 1]  # ${name} as $name
            self._add(shown, close + 1, dynamic=True)
        elif self.posix and nxt == "'":
            close = self._find("'", i + 2, "a $'...' quote", escaped=True)
            self._add(decode_escapes(text[i + 2:close]), close + 1)
        elif self.posix and nxt == '"':
            self.i = i + 1
            self._double_quoted('"')
        elif nxt in _NAME_CHARS or (self.posix and nxt in _SPECIAL_PARAMETERS):
            j = i + 2
            while nxt in _NAME_CHARS and text[j:j + 1] in _NAME_CHARS:  # $env:X: ":X" joins as text
                j += 1
            self._add(text[i:j], j, dynamic=True)
        else:
            self._add("$", i + 1)

    def _nested_block(self, closer):
        """``$(...)``, ``<(...)`` (at ``<``), and PowerShell's ``(...)``, ``{...}``: the inner
        program, read in this dialect one level deeper, joins the word with its sigil."""
        if self.depth + 1 > MAX_DEPTH:
            raise Unreadable("too_deep", f"payloads nest more than {MAX_DEPTH} levels deep")
        start, inner = self.i, _Reader(self.text, self.dialect, self.depth + 1, self.i + 1)
        self.nested.append(inner.program(closer))
        sigil = start > 0 and self.text[start - 1] in "$@<>"
        self._add(self.text[start - sigil:inner.i], inner.i, dynamic=True)

    def _backticks(self):
        """`...`: its text, a backslash before `, $ or \\ removed, is read one level deeper."""
        close = self._find("`", self.i + 1, "a backtick", escaped=True)
        pairs = self.text[self.i + 1:close].split("\\\\")  # each \\ is one backslash
        body = "\\".join(part.replace("\\`", "`").replace("\\$", "$") for part in pairs)
        self.nested.append(read(body, self.dialect, self.depth + 1))
        self._add(self.text[self.i:close + 1], close + 1, dynamic=True)

    def _heredoc_bodies(self, closer):
        """Here-document bodies start after the newline that ends their command; in a substitution,
        a delimiter followed by its closer ends the body too, as in bash (``$(cat <<EOF ... EOF)``)."""
        text = self.text
        while self.heredocs:
            delimiter, strip_tabs, command = self.heredocs.pop(0)
            body = []
            while self.i < self.n:
                start, end = self.i, text.find("\n", self.i)
                end = self.n if end < 0 else end
                self.i = min(end + 1, self.n)
                line = text[start:end].lstrip("\t") if strip_tabs else text[start:end]
                ending = line.rstrip("\r")
                if ending == delimiter:
                    break
                if closer and ending.startswith(delimiter) and \
                        ending[len(delimiter):].lstrip(" \t").startswith(closer):
                    self.i = text.index(closer, text.index(delimiter, start) + len(delimiter))
                    break
                body.append(line + "\n")
            body = "".join(body)
            if not any(quote in delimiter.raw for quote in "'\"\\"):  # the body expands
                expanded = _Reader(body, "posix", self.depth + 1)
                expanded.chars = []
                expanded._double_quoted(None)
                command.nested.extend(expanded.nested)
                body = "".join(expanded.chars)
            command.fed.append(body)
