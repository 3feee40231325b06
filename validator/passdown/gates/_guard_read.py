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
_SPECIAL_PARAMETERS = frozenset("$!?#@*-0123456789")
_REDIRECTIONS = ("<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<")
_ANSI_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
                 "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


class Unreadable(Exception):
    """A piece of the text the guard cannot read: ``code`` is ``unreadable``, ``too_deep`` or
    ``too_long``."""

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


class Command:
    """One simple command of a program, as read; ``sources`` are the programs whose output
    is its standard input (``< <(...)``)."""

    __slots__ = ("words", "piped", "fed", "writes", "nested", "sources")

    def __init__(self, piped):
        self.words, self.piped, self.fed, self.writes, self.nested = [], piped, [], [], []
        self.sources = []


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
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = text[i + 1]
        if e in "01234567":
            j = i + 1
            while j < n and j < i + 5 and text[j] in "01234567":
                j += 1
            digits = text[i + 1:j].lstrip("0") if text[i + 1] == "0" and j - i > 2 else text[i + 1:j]
            out.append(chr(int(digits or "0", 8) & 0xFF))
            i = j
        elif e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            j = i + 2
            while j < n and j < i + 2 + width and text[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(chr(int(text[i + 2:j], 16)) if j > i + 2 else "\\" + e)
            i = j
        else:
            out.append(_ANSI_ESCAPES.get(e, "\\" + e))
            i += 2
    return "".join(out)


class _Reader:
    """One pass over one text; ``program`` reads commands until the end or a closer."""

    def __init__(self, text, dialect, depth):
        self.text, self.n, self.i = text, len(text), 0
        self.dialect, self.depth = dialect, depth
        self.posix, self.ps, self.cmd = dialect == "posix", dialect == "powershell", dialect == "cmd"
        self.escape = "`" if self.ps else "^" if self.cmd else "\\"
        self.heredocs = []

    # -- the command loop --------------------------------------------------------------------

    def program(self, closer):
        commands, command = [], Command(False)
        chars, raw_start, word = None, 0, None
        redirect = None
        text = self.text

        def finish():
            nonlocal chars, word, redirect
            if chars is None:
                return
            value = Word("".join(chars))
            value.dynamic, value.nested, value.raw = word[0], word[1], text[raw_start:self.i]
            command.nested.extend(word[1])
            if redirect is not None:
                kind, redirect = redirect, None
                if kind.startswith("<<") and kind != "<<<":
                    self.heredocs.append((value, "'" in value.raw or '"' in value.raw
                                          or "\\" in value.raw, kind == "<<-", command))
                elif kind == "<<<":
                    command.fed.append(str(value))
                elif ">" in kind:
                    command.writes.append(str(value))
                elif value.raw.startswith("<("):  # input read from a process substitution
                    command.sources.extend(value.nested)
            elif self.cmd and not command.words and value.startswith("@"):
                if len(value) > 1:
                    stripped = Word(value[1:])
                    stripped.dynamic, stripped.nested, stripped.raw = value.dynamic, value.nested, value.raw
                    command.words.append(stripped)
            else:
                command.words.append(value)
            chars, word = None, None

        def start():
            nonlocal chars, word, raw_start
            if chars is None:
                chars, word, raw_start = [], [False, []], self.i

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
            elif c == "#" and chars is None and not self.cmd:
                close = text.find("\n", self.i)
                self.i = self.n if close < 0 else close
            elif self.ps and c == "<" and text.startswith("<#", self.i):
                close = text.find("#>", self.i + 2)
                if close < 0:
                    raise Unreadable("unreadable", "a block comment is not closed")
                self.i = close + 2
            elif c in ";&|" or (self.posix and c in "()") or (self.cmd and c in "()"):
                if closer == ")" and c == ")":
                    end(False)
                    self.i += 1
                    return commands
                if c == "&" and text.startswith("&>", self.i) and self.posix:
                    finish()
                    self.i += 2 if not text.startswith("&>>", self.i) else 3
                    redirect = ">"
                    continue
                two = text[self.i:self.i + 2]
                piped = c == "|" and two != "||"
                self.i += 2 if two in ("&&", "||", "|&", ";;") else 1
                end(piped)
            elif self.ps and c in "({":
                start()
                self._nested_block(word, chars, "}" if c == "{" else ")")
            elif self.ps and c in ")}" and closer == c:
                end(False)
                self.i += 1
                return commands
            elif c in "<>" and not (self.ps and c == "<"):
                if self.posix and text.startswith(("<(", ">("), self.i):
                    start()
                    self._nested_block(word, chars, ")")
                    continue
                pending = "".join(chars) if chars is not None and not word[0] else None
                if pending and (pending.isdigit() or (pending[0] == "{" and pending[-1] == "}")):
                    chars, word = None, None  # a descriptor number belongs to the operator
                else:
                    finish()
                op = next(op for op in _REDIRECTIONS if text.startswith(op, self.i))
                self.i += len(op)
                if op in (">&", "<&"):
                    j = self.i
                    while j < self.n and (text[j].isdigit() or text[j] == "-"):
                        j += 1
                    if j > self.i:
                        self.i = j
                        continue
                redirect = op
            elif c == "'" and not self.cmd:
                start()
                self._single_quoted(chars)
            elif c == '"':
                start()
                self._double_quoted(chars, word)
            elif c == self.escape:
                if text.startswith(("\n", "\r\n"), self.i + 1):  # a line continues
                    self.i += 2 if text[self.i + 1] == "\n" else 3
                    continue
                start()
                self.i += 1
                if self.i < self.n:
                    e = text[self.i]
                    chars.append({"n": "\n", "t": "\t"}.get(e, e) if self.ps else e)
                    self.i += 1
            elif c == "$" and not self.cmd:
                start()
                self._dollar(chars, word)
            elif c == "`" and self.posix:
                start()
                self._backticks(chars, word)
            elif self.ps and c == "@" and text.startswith(("@'", '@"'), self.i) and \
                    text[self.i + 2:self.i + 3] in ("\n", "\r"):
                start()
                self._here_string(chars)
            elif self.ps and c == "@" and text.startswith("@(", self.i):
                start()
                self.i += 1
                self._nested_block(word, chars, ")")
            elif self.cmd and c == "%" :
                start()
                close = text.find("%", self.i + 1)
                if close > self.i + 1 and all(ch in _NAME_CHARS for ch in text[self.i + 1:close]):
                    chars.append(text[self.i:close + 1])
                    word[0] = True
                    self.i = close + 1
                else:
                    chars.append(c)
                    self.i += 1
            else:
                start()
                chars.append(c)
                self.i += 1
        if closer is not None:
            raise Unreadable("unreadable", f"a {'(' if closer == ')' else '{'} is not closed")
        end(False)
        self._heredoc_bodies()
        return commands

    # -- pieces of words ---------------------------------------------------------------------

    def _single_quoted(self, chars):
        text, start = self.text, self.i + 1
        while True:
            close = text.find("'", start)
            if close < 0:
                raise Unreadable("unreadable", "a single quote is not closed")
            chars.append(text[start:close])
            if self.ps and text.startswith("''", close):
                chars.append("'")
                start = close + 2
                continue
            self.i = close + 1
            return

    def _double_quoted(self, chars, word):
        text = self.text
        self.i += 1
        while self.i < self.n:
            c = text[self.i]
            if c == '"':
                if self.ps and text.startswith('""', self.i):
                    chars.append('"')
                    self.i += 2
                    continue
                self.i += 1
                return
            if self.posix and c == "\\" and self.i + 1 < self.n:
                e = text[self.i + 1]
                if e == "\n":
                    pass
                elif e in '$`"\\':
                    chars.append(e)
                else:
                    chars.append("\\" + e)
                self.i += 2
            elif self.ps and c == "`" and self.i + 1 < self.n:
                e = text[self.i + 1]
                chars.append({"n": "\n", "t": "\t", "0": "\0"}.get(e, e))
                self.i += 2
            elif self.posix and c == "$" and text[self.i + 1:self.i + 2] in ("'", '"'):
                chars.append("$")  # $'...' and $"..." quote only outside double quotes
                self.i += 1
            elif c == "$" and not self.cmd:
                self._dollar(chars, word)
            elif c == "`" and self.posix:
                self._backticks(chars, word)
            else:
                chars.append(c)
                self.i += 1
        raise Unreadable("unreadable", "a double quote is not closed")

    def _dollar(self, chars, word):
        text, i = self.text, self.i
        nxt = text[i + 1:i + 2]
        if self.posix and text.startswith("$((", i):
            close = self._matching(i + 1, "(", ")")
            chars.append(text[i:close + 1])
            word[0] = True
            self.i = close + 1
        elif nxt == "(":
            self.i = i + 1
            self._nested_block(word, chars, ")")
        elif nxt == "{":
            close = text.find("}", i + 2)
            if close < 0:
                raise Unreadable("unreadable", "a ${ is not closed")
            inner = text[i + 2:close]
            chars.append("$" + inner if all(ch in _NAME_CHARS for ch in inner) else text[i:close + 1])
            word[0] = True
            self.i = close + 1
        elif self.posix and nxt == "'":
            close, j = -1, i + 2
            while j < self.n:
                if text[j] == "\\":
                    j += 2
                    continue
                if text[j] == "'":
                    close = j
                    break
                j += 1
            if close < 0:
                raise Unreadable("unreadable", "a $'...' quote is not closed")
            chars.append(decode_escapes(text[i + 2:close]))
            self.i = close + 1
        elif self.posix and nxt == '"':
            self.i = i + 1
            self._double_quoted(chars, word)
        elif nxt and (nxt in _NAME_CHARS or (self.posix and nxt in _SPECIAL_PARAMETERS)):
            j = i + 2
            if nxt in _NAME_CHARS:
                while j < self.n and (text[j] in _NAME_CHARS or (self.ps and text[j] == ":")):
                    j += 1
            chars.append(text[i:j])
            word[0] = True
            self.i = j
        else:
            chars.append("$")
            self.i = i + 1

    def _matching(self, start, opener, closer):
        """The index of the closer matching the opener at ``start``, quotes skipped."""
        text, level, j = self.text, 0, start
        while j < self.n:
            c = text[j]
            if c == opener:
                level += 1
            elif c == closer:
                level -= 1
                if level == 0:
                    return j
            elif c in "'\"":
                close = text.find(c, j + 1)
                j = self.n if close < 0 else close
            j += 1
        raise Unreadable("unreadable", f"a {opener} is not closed")

    def _nested_block(self, word, chars, closer):
        """``$(...)``, ``<(...)`` (at ``(``), and PowerShell's ``(...)``, ``{...}``: the inner
        program, read in this dialect one level deeper, joins the word."""
        start = self.i
        self.i += 1
        if self.depth + 1 > MAX_DEPTH:
            raise Unreadable("too_deep", f"payloads nest more than {MAX_DEPTH} levels deep")
        inner = _Reader(self.text, self.dialect, self.depth + 1)
        inner.i, inner.n = self.i, self.n
        commands = inner.program(closer)
        self.i = inner.i
        sigil = start > 0 and self.text[start - 1] in "$@<>"
        chars.append(self.text[start - sigil:self.i])
        word[0] = True
        word[1].append(commands)

    def _backticks(self, chars, word):
        text, j, body = self.text, self.i + 1, []
        while j < self.n and text[j] != "`":
            if text[j] == "\\" and j + 1 < self.n and text[j + 1] in "`$\\":
                body.append(text[j + 1])
                j += 2
                continue
            body.append(text[j])
            j += 1
        if j >= self.n:
            raise Unreadable("unreadable", "a backtick is not closed")
        word[1].append(read("".join(body), self.dialect, self.depth + 1))
        word[0] = True
        chars.append(text[self.i:j + 1])
        self.i = j + 1

    def _here_string(self, chars):
        quote = self.text[self.i + 1]
        close = self.text.find("\n" + quote + "@", self.i + 2)
        if close < 0:
            raise Unreadable("unreadable", "a here-string is not closed")
        chars.append(self.text[self.i + 3:close])
        self.i = close + 3

    def _heredoc_bodies(self, closer=None):
        """Here-document bodies start after the newline that ends their command; inside a
        substitution, a delimiter followed by its closer ends the body too, as in bash
        (``$(cat <<EOF ... EOF)``)."""
        text = self.text
        while self.heredocs:
            delimiter, quoted, strip_tabs, command = self.heredocs.pop(0)
            lines, j = [], self.i
            while j < self.n:
                close, start = text.find("\n", j), j
                line = text[j:] if close < 0 else text[j:close]
                j = self.n if close < 0 else close + 1
                ending = (line.lstrip("\t") if strip_tabs else line).rstrip("\r")
                if ending == delimiter:
                    break
                if closer and ending.startswith(delimiter) and \
                        ending[len(delimiter):].lstrip(" \t").startswith(closer):
                    j = start + line.index(closer, line.index(delimiter) + len(delimiter))
                    break
                lines.append(line.lstrip("\t") if strip_tabs else line)
            self.i = j
            body = "\n".join(lines) + ("\n" if lines else "")
            if not quoted:
                expanded = _Reader(body, "posix", self.depth + 1)
                chars, word = [], [False, []]
                while expanded.i < expanded.n:
                    c = body[expanded.i]
                    if c == "$":
                        expanded._dollar(chars, word)
                    elif c == "`":
                        expanded._backticks(chars, word)
                    elif c == "\\" and expanded.i + 1 < expanded.n and body[expanded.i + 1] in "$`\\":
                        chars.append(body[expanded.i + 1])
                        expanded.i += 2
                    else:
                        chars.append(c)
                        expanded.i += 1
                command.nested.extend(word[1])
                body = "".join(chars)
            command.fed.append(body)
