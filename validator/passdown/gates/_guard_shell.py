"""The guard's shell reader: text -> simple commands, the way a POSIX shell would split them.

It keeps what the guard needs and a general word splitter drops: which characters were
quoted (a quoted ``#`` starts no comment, ``$(...)`` runs inside double quotes but not inside
single quotes), here-document bodies (data unless fed to an interpreter), the payloads of
command and process substitutions, the targets of redirections, and which commands a pipe
connects. A ``(`` opens a subshell only where a command starts: inside a word (``print(x)``,
``a=(1 2)``, ``@(a|b)``) it is part of the word, and ``name()`` is a function definition. It
never raises: an unclosed quote or substitution runs to the end of the text, as if closed
there. Every character is looked at a bounded number of times: time is linear in the text.
"""

_BLANKS = " \t\r"
_SEPARATORS = ";&|\n()"
_DOUBLE_QUOTE_ESCAPES = '$`"\\\n'
_IN_GROUP = _SEPARATORS + _BLANKS + "<>"


class Command:
    """One simple command: its ``words`` (quotes removed), the substitution payloads inside
    each word (``word_payloads``), every payload it runs (``payloads``), the text fed to its
    standard input by here-documents and here-strings (``stdin``), the targets of its output
    redirections (``writes``) and of its input redirections with their payloads
    (``inputs``), and the command piping into it (``piped_from``)."""

    __slots__ = ("words", "word_payloads", "payloads", "stdin", "writes", "inputs", "piped_from")

    def __init__(self):
        self.words = []
        self.word_payloads = []
        self.payloads = []
        self.stdin = []
        self.writes = []
        self.inputs = []
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
        self.listed = set()  # ids of the commands in self.commands
        self.command = Command()
        self.parts = None  # the current word's pieces; None: no word started ('' or "" start one)
        self.quoted = False
        self.word_payloads = []
        self.groups = 0  # open parentheses inside the current word: a(b c) is one word
        # what the next finished word is: None (a word), "write", "read", "heredoc",
        # "heredoc_tabs" (after <<-, whose body drops leading tabs), "herestring"
        self.target = None
        self.heredocs = []  # (delimiter, strip_tabs, quoted, command) waiting for the next newline
        self._scan()

    # -- words and commands -------------------------------------------------------------

    def _add(self, chars, quoted=False):
        if self.parts is None:
            self.parts = []
        self.parts.append(chars)
        self.quoted = self.quoted or quoted

    def _word(self):
        return None if self.parts is None else "".join(self.parts)

    def _drop_word(self):
        self.parts, self.quoted, self.word_payloads, self.groups = None, False, [], 0

    def _finish_word(self):
        if self.parts is None:
            return
        word, payloads = "".join(self.parts), self.word_payloads
        self.command.payloads.extend(payloads)
        if self.target == "write":
            self.command.writes.append(word)
        elif self.target == "read":
            self.command.inputs.append((word, payloads))
        elif self.target in ("heredoc", "heredoc_tabs"):
            self.heredocs.append((word, self.target == "heredoc_tabs", self.quoted, self.command))
        elif self.target == "herestring":
            self.command.stdin.append(word)
        else:
            self.command.words.append(word)
            self.command.word_payloads.append(payloads)
        self.target = None
        self._drop_word()

    def _list(self, command):
        if id(command) not in self.listed and (command.words or command.payloads or command.stdin
                                               or command.writes):
            self.listed.add(id(command))
            self.commands.append(command)

    def _finish_command(self, piped=False):
        self._finish_word()
        command = self.command
        self._list(command)
        self.command = Command()
        if piped and (command.words or command.payloads):
            self.command.piped_from = command

    # -- the scan -----------------------------------------------------------------------

    def _scan(self):
        text, i, end = self.text, 0, len(self.text)
        while i < end:
            c = text[i]
            if c == "\\":
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
            elif c == "`" or (c in "$<>" and i + 1 < end and text[i + 1] == "("):
                piece, i = self._substitution(i)
                self._add(piece)
            elif self.groups and c in _IN_GROUP:
                # inside a(...) of one word: an array, a glob group or a syntax error, no command
                self.groups += (c == "(") - (c == ")")
                self._add(c)
                i += 1
            elif c in _BLANKS:
                self._finish_word()
                i += 1
            elif c == "#" and self.parts is None:
                newline = text.find("\n", i)
                i = end if newline < 0 else newline
            elif c in "<>":
                i = self._redirection(i)
            elif c == "&" and text.startswith("&>", i):
                self._finish_word()
                self.target = "write"
                i += 3 if text.startswith("&>>", i) else 2
            elif c == "(":
                i = self._open_parenthesis(i)
            elif c in _SEPARATORS:
                i = self._separator(i)
            else:
                self._add(c)
                i += 1
        self._finish_command()

    def _open_parenthesis(self, i):
        """``(`` starts a subshell where a command starts, a function definition after a name
        (``f()``, ``f ()``), and is part of the word anywhere else in a word (``print(x)``)."""
        text = self.text
        close = i + 1
        while close < len(text) and text[close] in _BLANKS:
            close += 1
        defines = close < len(text) and text[close] == ")"
        if self.parts is not None and not defines:
            self.groups += 1
            self._add("(")
            return i + 1
        if defines and (self.parts is not None or self.command.words):
            self._drop_word()  # the function's name runs nothing; the separator ends its command
            self.command.words, self.command.word_payloads = [], []
        return self._separator(i)

    def _separator(self, i):
        """A separator ends the command. ``||``, ``;;`` and ``;&`` read as two separators (the
        second ends an empty command); ``|&`` and ``&&`` are one operator each, so that
        ``&&>(...)`` is ``&&`` before a process substitution, not ``&`` before ``&>``."""
        text = self.text
        c = text[i]
        if c == "|":
            self._finish_command(piped=True)
            return i + 2 if text.startswith("|&", i) else i + 1
        self._finish_command()
        if c == "&":
            return i + 2 if text.startswith("&&", i) else i + 1
        if c == "\n" and self.heredocs:
            return self._heredoc_bodies(i + 1)
        return i + 1

    def _redirection(self, i):
        text = self.text
        word = self._word()
        if word is not None and not self.quoted and (word.isdigit() or (
                word.startswith("{") and word.endswith("}"))):
            self._drop_word()  # an fd number (2>) or {name}> before the operator
        self._finish_word()
        if text.startswith("<<<", i):
            self.target = "herestring"
            return i + 3
        if text.startswith("<<-", i):
            self.target = "heredoc_tabs"
            return i + 3
        if text.startswith("<<", i):
            self.target = "heredoc"
            return i + 2
        self.target = "write" if text[i] == ">" or text.startswith("<>", i) else "read"
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
            self._list(command)
        return i

    def _substitution(self, i):
        """The ``$(...)``, ``<(...)``, ``>(...)`` or backtick substitution that starts at ``i``:
        its text (it stays in the word) and where the scan goes on; its payload is kept for
        checking."""
        text = self.text
        if text[i] == "`":
            payload, after = backticks(text, i + 1)
        else:
            payload, after = substitution(text, i + 2)
        self.word_payloads.append(payload)
        return text[i:after], after

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
            elif c == "`" or (c == "$" and i + 1 < end and text[i + 1] == "("):
                piece, i = self._substitution(i)
                chars.append(piece)
            else:
                chars.append(c)
                i += 1
        self._add("".join(chars), quoted=True)
        return i

    def _ansi_c_quoted(self, i):
        text, end = self.text, len(self.text)
        chars = []
        while i < end and text[i] != "'":
            if text[i] == "\\":
                char, i = escape_at(text, i)
                chars.append(char)
            else:
                chars.append(text[i])
                i += 1
        self._add("".join(chars), quoted=True)
        return i + 1


_C_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
              "f": "\f", "v": "\v"}
_OCTAL = "01234567"
_HEX = "0123456789abcdefABCDEF"


def escape_at(text, i, echo=False):
    """The character the backslash escape at ``text[i]`` stands for, as ``$'...'`` and
    ``printf`` read it (``\\n``, ``\\x41``, ``\\101``) or, with ``echo``, as ``echo -e`` and
    ``printf %b`` do (where octal is ``\\0101``), and the index after it."""
    following = text[i + 1:i + 2]
    if not following:  # a backslash that ends the text stays a backslash
        return "\\", len(text)
    if following in ("x", "u"):
        j = i + 2
        while j < min(len(text), i + (4 if following == "x" else 6)) and text[j] in _HEX:
            j += 1
        # with no hex digit, the shell keeps the backslash and the letter: \xg stays \xg
        return (chr(int(text[i + 2:j], 16)), j) if j > i + 2 else ("\\" + following, i + 2)
    if following in _OCTAL:
        start = i + 2 if echo and following == "0" else i + 1
        j = start
        while j < min(len(text), start + 3) and text[j] in _OCTAL:
            j += 1
        return (chr(int(text[start:j], 8) & 0xFF) if j > start else "\0"), j
    return _C_ESCAPES.get(following, following), i + 2


def unescape(text):
    """``text`` with its backslash escapes read, as ``echo -e`` prints it."""
    chars, i = [], 0
    while i < len(text):
        if text[i] == "\\":
            char, i = escape_at(text, i, echo=True)
            chars.append(char)
        else:
            chars.append(text[i])
            i += 1
    return "".join(chars)


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
