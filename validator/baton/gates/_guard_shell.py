"""The guard's shell reader: text -> simple commands, the way a POSIX shell would split them.

It keeps what the guard needs and a general word splitter drops: which characters were
quoted (a quoted ``#`` starts no comment, ``$(...)`` runs inside double quotes but not inside
single quotes), here-document bodies (data unless fed to an interpreter), the payloads of
command and process substitutions, and which commands a pipe connects. It never raises: an
unclosed quote or substitution runs to the end of the text, as if closed there.
"""

_BLANKS = " \t\r"
_SEPARATORS = ";&|\n()"
_DOUBLE_QUOTE_ESCAPES = '$`"\\\n'


class Command:
    """One simple command: its ``words`` (quotes removed), the substitution payloads inside
    each word (``word_payloads``), every payload it runs (``payloads``), the text fed to its
    standard input by here-documents and here-strings (``stdin``), and the command piping
    into it (``piped_from``)."""

    __slots__ = ("words", "word_payloads", "payloads", "stdin", "piped_from")

    def __init__(self):
        self.words = []
        self.word_payloads = []
        self.payloads = []
        self.stdin = []
        self.piped_from = None

    def __repr__(self):
        return f"Command({self.words!r}, payloads={self.payloads!r}, stdin={self.stdin!r})"


def read(text):
    """Split ``text`` into :class:`Command` objects, in order."""
    return _Reader(text).commands


class _Reader:
    def __init__(self, text):
        self.text = text
        self.commands = []
        self.command = Command()
        self.word = None  # None: no word started; "" is a started, empty word ('' or "")
        self.quoted = False
        self.word_payloads = []
        self.target = None  # what the next finished word is: None (a word), "redirect", "heredoc", "herestring"
        self.heredoc_strip = False
        self.heredocs = []  # (delimiter, strip_tabs, quoted, command) waiting for the next newline
        self.pipe_pending = False
        self._scan()

    # -- words and commands -------------------------------------------------------------

    def _add(self, chars, quoted=False):
        self.word = (self.word or "") + chars
        self.quoted = self.quoted or quoted

    def _finish_word(self):
        if self.word is None:
            return
        word, payloads = self.word, self.word_payloads
        self.command.payloads.extend(payloads)
        if self.target == "redirect":
            pass
        elif self.target == "heredoc":
            self.heredocs.append((word, self.heredoc_strip, self.quoted, self.command))
        elif self.target == "herestring":
            self.command.stdin.append(word)
        else:
            self.command.words.append(word)
            self.command.word_payloads.append(payloads)
        self.target = None
        self.word, self.quoted, self.word_payloads = None, False, []

    def _finish_command(self, piped=False):
        self._finish_word()
        command = self.command
        if command.words or command.payloads or command.stdin:
            self.commands.append(command)
        self.command = Command()
        if piped and (command.words or command.payloads):
            self.command.piped_from = command

    # -- the scan -----------------------------------------------------------------------

    def _scan(self):
        text, i, end = self.text, 0, len(self.text)
        while i < end:
            c = text[i]
            if c in _BLANKS:
                self._finish_word()
                i += 1
            elif c == "\\":
                if i + 1 < end and text[i + 1] != "\n":
                    self._add(text[i + 1], quoted=True)
                i += 2
            elif c == "'":
                close = text.find("'", i + 1)
                close = end if close < 0 else close
                self._add(text[i + 1:close], quoted=True)
                i = close + 1
            elif c == '"':
                i = self._double_quoted(i + 1)
            elif c == "$" and i + 1 < end and text[i + 1] == "'":
                i = self._ansi_c_quoted(i + 2)
            elif c == "$" and i + 1 < end and text[i + 1] == "(":
                payload, after = substitution(text, i + 2)
                self._add(text[i:after])
                self.word_payloads.append(payload)
                i = after
            elif c == "`":
                payload, after = backticks(text, i + 1)
                self._add(text[i:after])
                self.word_payloads.append(payload)
                i = after
            elif c in "<>" and i + 1 < end and text[i + 1] == "(":
                payload, after = substitution(text, i + 2)
                self._add(text[i:after])
                self.word_payloads.append(payload)
                i = after
            elif c == "#" and self.word is None:
                newline = text.find("\n", i)
                i = end if newline < 0 else newline
            elif c in "<>":
                i = self._redirection(i)
            elif c == "&" and text.startswith("&>", i):
                self._finish_word()
                self.target = "redirect"
                i += 3 if text.startswith("&>>", i) else 2
            elif c in _SEPARATORS:
                i = self._separator(i)
            else:
                self._add(c)
                i += 1
        self._finish_command()

    def _separator(self, i):
        text = self.text
        c = text[i]
        if c == "|":
            if text.startswith("||", i):
                self._finish_command()
                return i + 2
            self._finish_command(piped=True)
            return i + 2 if text.startswith("|&", i) else i + 1
        if c == "&":
            self._finish_command()
            return i + 2 if text.startswith("&&", i) else i + 1
        if c == ";":
            self._finish_command()
            return i + 2 if text.startswith((";;", ";&"), i) else i + 1
        self._finish_command()
        if c == "\n" and self.heredocs:
            return self._heredoc_bodies(i + 1)
        return i + 1

    def _redirection(self, i):
        text = self.text
        if self.word is not None and not self.quoted and (self.word.isdigit() or (
                self.word.startswith("{") and self.word.endswith("}"))):
            self.word, self.word_payloads = None, []  # an fd number (2>) or {name}> before the operator
        self._finish_word()
        if text.startswith("<<<", i):
            self.target = "herestring"
            return i + 3
        if text.startswith("<<", i):
            self.target = "heredoc"
            self.heredoc_strip = text.startswith("<<-", i)
            return i + (3 if self.heredoc_strip else 2)
        self.target = "redirect"
        for operator in (">>", ">|", ">&", "<&", "<>"):
            if text.startswith(operator, i):
                return i + 2
        return i + 1

    def _heredoc_bodies(self, i):
        text, end = self.text, len(self.text)
        pending, self.heredocs = self.heredocs, []
        for delimiter, strip, quoted, command in pending:
            lines = []
            while i < end:
                newline = text.find("\n", i)
                stop = end if newline < 0 else newline
                line = text[i:stop]
                i = stop + 1
                if (line.lstrip("\t") if strip else line) == delimiter:
                    break
                lines.append(line)
            body = "\n".join(lines)
            command.stdin.append(body)
            if not quoted:
                command.payloads.extend(expansions(body))
            if command not in self.commands and (command.words or command.payloads):
                self.commands.append(command)
        return i

    def _double_quoted(self, i):
        text, end = self.text, len(self.text)
        chars = []
        while i < end:
            c = text[i]
            if c == '"':
                i += 1
                break
            if c == "\\" and i + 1 < end and text[i + 1] in _DOUBLE_QUOTE_ESCAPES:
                if text[i + 1] != "\n":
                    chars.append(text[i + 1])
                i += 2
            elif c == "$" and i + 1 < end and text[i + 1] == "(":
                payload, after = substitution(text, i + 2)
                chars.append(text[i:after])
                self.word_payloads.append(payload)
                i = after
            elif c == "`":
                payload, after = backticks(text, i + 1)
                chars.append(text[i:after])
                self.word_payloads.append(payload)
                i = after
            else:
                chars.append(c)
                i += 1
        self._add("".join(chars), quoted=True)
        return i

    def _ansi_c_quoted(self, i):
        text, end = self.text, len(self.text)
        chars = []
        while i < end and text[i] != "'":
            if text[i] == "\\" and i + 1 < end:
                chars.append(_C_ESCAPES.get(text[i + 1], text[i + 1]))
                i += 2
            else:
                chars.append(text[i])
                i += 1
        self._add("".join(chars), quoted=True)
        return i + 1


_C_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f",
              "v": "\v"}


def substitution(text, i):
    """The payload of ``$(`` or ``<(`` opened just before ``i``, and the index after its ``)``.

    Parentheses nest; quoted parentheses and escaped characters do not count."""
    depth, start, end = 1, i, len(text)
    while i < end:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            close = text.find("'", i + 1)
            i = end if close < 0 else close + 1
            continue
        if c == '"':
            i += 1
            while i < end and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[start:i], i + 1
        i += 1
    return text[start:], end


def backticks(text, i):
    """The payload of a backtick substitution opened just before ``i``, and the index after it."""
    chars, end = [], len(text)
    while i < end:
        c = text[i]
        if c == "\\" and i + 1 < end:
            chars.append(text[i + 1] if text[i + 1] in "`$\\" else text[i:i + 2])
            i += 2
            continue
        if c == "`":
            return "".join(chars), i + 1
        chars.append(c)
        i += 1
    return "".join(chars), end


def expansions(body):
    """The substitution payloads in a here-document body with an unquoted delimiter, where
    quotes are plain characters and only ``$(...)`` and backticks run."""
    payloads, i, end = [], 0, len(body)
    while i < end:
        c = body[i]
        if c == "\\":
            i += 2
        elif c == "$" and i + 1 < end and body[i + 1] == "(":
            payload, i = substitution(body, i + 2)
            payloads.append(payload)
        elif c == "`":
            payload, i = backticks(body, i + 1)
            payloads.append(payload)
        else:
            i += 1
    return payloads
