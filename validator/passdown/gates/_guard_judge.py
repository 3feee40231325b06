"""The guard's kernel: each command's verb, wrappers peeled, judged against the host (its pid,
parent, process group, session, names, command lines and units), and what runs code read in
turn (spec/gates/guard.md).

Judging answers ``None`` (nothing here stops the host) or an outcome code: ``host_kill``,
``process_kill``, ``service_restart`` or ``host_shutdown``; a piece it cannot read raises
:class:`~passdown.gates._guard_read.Unreadable`. :data:`VERBS` is the whole catalogue; every
other verb is allowed whatever its arguments say. Options are read by one getopt-like rule
(:func:`_options`); a wrapper's option its table does not state as taking a value is read both
as a flag and as taking the next word, so an unlisted option never hides the command.
"""

from passdown.gates._guard_read import MAX_DEPTH, Command, Unreadable, computed, decode_escapes, read

#: The most wrappers peeled off one command.
MAX_WRAPPERS = 64
#: The most other readings of wrappers' options judged in one call.
MAX_READINGS = 256
#: Longest kill pattern the guard matches (a glob's match may take its length times the text's).
MAX_PATTERN_CHARS = 256
#: How Windows commands name the computer they run on.
THIS_COMPUTER = ("localhost", ".", "127.0.0.1")


def _first(verdicts):
    """The first verdict of a lazy sequence that is not ``None``, or ``None``."""
    return next(filter(None, verdicts), None)


class Host:
    """Who the host is, as the guard input states it."""

    __slots__ = ("pid", "parent", "group", "session", "names", "command_lines", "units", "session_names")

    def __init__(self, pid, parent=None, group=None, session=None, names=(), command_lines=(),
                 units=(), session_names=()):
        self.pid, self.parent, self.group, self.session = pid, parent, group, session
        self.names, self.command_lines, self.units = tuple(names), tuple(command_lines), tuple(units)
        self.session_names = tuple(session_names)

    def killable(self):
        """Names whose kill ends the host: its own, and those of what its session hangs on."""
        return self.names + self.session_names

    def pids(self):
        """Numbers that, signalled, stop the host: its pid, parent, group and session leaders."""
        return {n for n in (self.pid, self.parent, self.group, self.session) if n}

    def groups(self):
        """Process groups whose signal reaches the host."""
        return {n for n in (self.group, self.session) if n}


def program_name(word):
    """A verb's base name: the path and a Windows ``.exe`` dropped."""
    name = word.replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-4] if name.lower().endswith(".exe") else name


def glob_match(pattern, name, fold=False):
    """Shell glob (``*``, ``?``, ``[...]``) against a name, without regular expressions."""
    if fold:
        pattern, name = pattern.lower(), name.lower()
    p = n = 0
    star, mark = -1, 0
    while n < len(name):
        if p < len(pattern) and pattern[p] == "[":
            close = pattern.find("]", p + 2)
            if close > 0:
                members, negate = pattern[p + 1:close], pattern[p + 1] in "!^"
                members = members[1:] if negate else members
                if any(a <= name[n] <= b for a, b in _ranges(members)) != negate:
                    p, n = close + 1, n + 1
                    continue
        elif p < len(pattern) and pattern[p] in ("?", name[n]):
            p, n = p + 1, n + 1
            continue
        if p < len(pattern) and pattern[p] == "*":
            star, mark, p = p, n, p + 1
            continue
        if star < 0:
            return False
        mark += 1
        p, n = star + 1, mark
    return all(ch == "*" for ch in pattern[p:])


def _ranges(members):
    i = 0
    while i < len(members):
        if i + 2 < len(members) and members[i + 1] == "-":
            yield members[i], members[i + 2]
            i += 3
        else:
            yield members[i], members[i]
            i += 1


class Judge:
    """Judges programs against one host; ``unit`` is the host unit a denial matched."""

    def __init__(self, host):
        self.host, self.unit, self.readings = host, None, {}

    def shell(self, text, dialect="posix", depth=0):
        """Shell text -> an outcome code or ``None``."""
        return self.commands(read(text, dialect, depth), dialect, depth)

    def commands(self, commands, dialect, depth):
        previous = None
        for command in commands:
            nested = () if dialect == "powershell" and _elsewhere(command.words) else command.nested
            verdict = _first(self.commands(program, dialect, depth + 1) for program in nested) or \
                ("host_shutdown" if any(_is_sysrq(path) for path in command.writes) else None) or \
                self.argv(command.words, depth, _Context(command, previous, dialect, chain=commands))
            if verdict:
                return verdict
            previous = command
        return None

    def argv(self, words, depth, context=None):
        """One command's words -> an outcome code or ``None``."""
        context = context or _Context(None, None, "posix")
        words = _peel_syntax(list(words), context.dialect)
        for _ in range(MAX_WRAPPERS + 1):
            if not words:
                return None
            verb = program_name(words[0])
            key = verb.lower() if context.dialect != "posix" or verb[:1].isupper() else verb
            key = _ALIASES.get((context.dialect, key), key)
            if key not in VERBS and key.startswith(("python", "pypy")):
                key = "python"
            if key not in VERBS and "/init.d/" in words[0]:
                return _service(self, [verb] + words[1:], context, depth)
            calls = context.dialect == "powershell" and any(
                call in w.lower() for w in words for call in _PS_METHOD_CALLS)
            if calls:
                from passdown.gates._guard_windows import _stop_method  # Windows rules load on use

                return _stop_method(self, words, context, depth)
            if key in _SWITCHED and context.dialect == "posix":  # Git Bash passes //F to Windows as /F
                words = [w[1:] if w[:2] == "//" and w[2:3].isalpha() else w for w in words]
            rule = VERBS.get(key)
            outcome = rule(self, words[1:], context, depth) if rule else None
            if not isinstance(outcome, list):
                return outcome
            words = _peel_syntax(outcome, context.dialect)  # a wrapper: judge what it runs
        raise Unreadable("too_deep", f"more than {MAX_WRAPPERS} wrappers around one command")

    def texts(self, texts, depth, dialect="posix"):
        """The first verdict of shell texts, each read one level deeper."""
        return _first(self.shell(text, dialect, depth + 1) for text in texts)

    def code(self, text, depth):
        """Program source of any language: its executor calls and command forms; and where it calls a
        kill function, the processes it names: the host's name as a whole string, or what a
        ``pgrep`` or ``pidof`` it runs finds."""
        if depth + 1 > MAX_DEPTH:
            raise Unreadable("too_deep", f"payloads nest more than {MAX_DEPTH} levels deep")
        from passdown.gates._guard_code import calls_kill, executor_calls, strings  # only for code: start-up

        runs = executor_calls(text)
        verdict = _first(self.shell(run, "posix", depth + 1) if kind == "shell" else self.argv(run, depth + 1)
                         for kind, run in runs)
        if verdict or not calls_kill(text):
            return verdict
        names = {name.lower().removesuffix(".exe") for name in self.host.killable()}
        if names & {value.strip().lower().removesuffix(".exe") for value in strings(text)}:
            return "process_kill"  # [p.kill() for p in psutil.process_iter() if p.name() == 'claude']
        programs = [read(run, "posix", depth + 1) if kind == "shell" else [_command(run)] for kind, run in runs]
        return _first(_pids_from(self, program) for program in programs)  # os.kill(int(popen('pgrep x')...))

    def other_reading(self, words, depth, context):
        """Judge another reading of a wrapper's options, each distinct one once (nested
        wrappers share their readings), within the call's budget of them."""
        if not words:
            return None
        key = (tuple(str(word) for word in words), id(context))
        if key not in self.readings:
            if len(self.readings) >= MAX_READINGS:
                raise Unreadable("too_deep", f"more than {MAX_READINGS} readings of wrappers' options")
            # the context is kept with its verdict so that its id is not reused in this call
            self.readings[key] = (context, None)
            self.readings[key] = (context, self.argv(words, depth, context))
        return self.readings[key][1]

    def fed(self, context):
        """What a command reading its standard input is fed: here-documents, here-strings,
        process substitutions read as input, and what the command piped into it prints."""
        command = context.command
        if command is None:
            return []
        piped = printed(context.previous, self) if command.piped and context.previous is not None else []
        return [*command.fed, *(t for program in command.sources for t in self.substituted(program)), *piped]

    def substituted(self, program):
        """What a process substitution's program prints (``<(echo reboot)``), read as a file."""
        return [text for command in program for text in printed(command, self)]

    def script(self, word):
        """A script operand's text: what a process substitution's program prints (``bash
        <(echo reboot)``); a file is content the text does not hold."""
        processes = word.nested if getattr(word, "raw", "").startswith("<(") else ()
        return [text for program in processes for text in self.substituted(program)]

    def fed_shell(self, context, depth):
        """A shell reading its standard input runs what it is fed."""
        return self.texts(self.fed(context), depth)

    # -- targets -------------------------------------------------------------------------------

    def matches_name(self, pattern, full=False, exact=False, fold=False, regex=True):
        """Whether a kill-by-name pattern, read as its tool reads it, matches the host."""
        if getattr(pattern, "dynamic", False):
            raise Unreadable("unreadable", "a kill by name takes its pattern from a variable")
        if regex and len(pattern) > MAX_PATTERN_CHARS:
            raise Unreadable("too_long", f"a kill pattern is longer than {MAX_PATTERN_CHARS} characters")
        texts = self.host.killable() + (self.host.command_lines if full else ())
        return any(_pattern_hits(pattern, text, exact, fold, regex) for text in texts)

    def matches_unit(self, word, fold=False):
        """Whether a unit or service name names one of the host's units; the matched unit is
        kept for the message."""
        if getattr(word, "dynamic", False) and self.host.units:
            raise Unreadable("unreadable", "a stop or restart takes its unit from a variable")
        for unit in self.host.units:
            if glob_match(_unit_base(word), _unit_base(unit), fold) or glob_match(word, unit, fold):
                self.unit = unit
                return True
        return False

    def hits_pid(self, word):
        """Whether a kill target word reaches the host."""
        text = str(word).strip().lstrip("+")
        if text in ("-1", "0", "-0", "$PPID", "-$PPID", "${PPID}"):
            return True
        number = text[1:] if text.startswith("-") else text
        hexadecimal = number[:2].lower() == "0x" and number[2:].isalnum()  # PowerShell's 0x1092
        if not number.isdigit() and not hexadecimal:
            return False
        try:
            value = int(number, 16 if hexadecimal else 10)
        except ValueError:
            return False
        return value in (self.host.groups() if text.startswith("-") else self.host.pids())


def _command(words):
    """An argv as a command read from shell text."""
    command = Command(False)
    command.words = list(words)
    return command


class _Context:
    """Where a command stands: its parsed command, the one before it, the dialect, what is
    piped into it (for ``xargs``' command) and the commands of its program."""

    __slots__ = ("command", "previous", "dialect", "stdin", "chain")

    def __init__(self, command, previous, dialect, stdin=None, chain=()):
        self.command, self.previous, self.dialect, self.stdin = command, previous, dialect, stdin
        self.chain = chain


def _elsewhere(words):
    """``Invoke-Command -ComputerName OTHER { ... }``: the script block runs on another computer."""
    lowered = [str(word).lower() for word in words]
    computers = [computer for name, value in zip(lowered, lowered[1:]) if name in ("-computername", "-cn")
                 for computer in value.split(",")]
    return lowered[:1] in (["invoke-command"], ["icm"]) and bool(computers) and \
        not {*THIS_COMPUTER, "$env:computername"} & set(computers)


def _before(chain, command):
    """The command before ``command`` in its program ``chain``, or ``None``."""
    index = chain.index(command) if command in chain else 0
    return chain[index - 1] if index > 0 else None


def _is_sysrq(path):
    return path.replace("//", "/").rstrip("/") == "/proc/sysrq-trigger"


def _unit_base(word):
    return word[:-len(".service")] if word.endswith(".service") else word


#: Escapes of a kill pattern that stand for a class of characters, as a glob's bracket.
_CLASS_ESCAPES = {"w": "[a-zA-Z0-9_]", "W": "[!a-zA-Z0-9_]", "d": "[0-9]", "D": "[!0-9]",
                  "s": "[ \t\n\r\f\v]", "S": "[! \t\n\r\f\v]"}


def _pattern_hits(pattern, text, exact, fold, regex):
    """Whether a name (``regex`` False: the whole name, or a part of it unless ``exact``) or an
    extended regular expression matches ``text``. A pattern is read as the globs of its
    alternatives: matching a glob never backtracks without bound, and loads nothing."""
    if not regex:
        pattern, text = (pattern.lower(), text.lower()) if fold else (pattern, text)
        return text == pattern if exact else pattern in text
    return any(glob_match(glob, text, fold) for glob in _globs(pattern, exact))


def _globs(pattern, whole):
    """An extended regular expression -> one glob per alternative, its groups multiplied out.
    Read: literals, ``.``, ``.*``, a backslash before a character, bracket expressions, ``\\w \\s
    \\d`` and their capitals, ``^`` first, ``$`` last, ``|`` between alternatives, groups (``?``
    after one: it may be left out). Any other form (a repeat of anything but ``.``, a class such
    as ``[:alpha:]``, ``\\b``) is not read: the guard asks."""
    return [_glob(branch, pattern, whole) for branch in _branches(pattern)]


def _branches(pattern):
    """The alternatives of a pattern without groups: ``(^|/)x(\\s|$)`` is ``^x\\s``, ``^x$``,
    ``/x\\s`` and ``/x$``."""

    def alternatives(i):  # from i to the closing parenthesis or the end -> (alternatives, where)
        done, current = [], [""]
        while i < len(pattern) and pattern[i] != ")":
            c = pattern[i]
            if c == "|":
                done, current, i = list(dict.fromkeys(done + current)), [""], i + 1
                continue
            if c == "(":
                inner, i = alternatives(i + 1)
                if pattern[i:i + 1] != ")":
                    raise _unread_pattern(pattern)
                optional = pattern.startswith("?", i + 1)
                if pattern[i + 1 + optional:i + 2 + optional] in ("*", "+", "{", "?"):
                    raise _unread_pattern(pattern)  # a repeated group
                inner, i = inner + [""] * optional, i + 1 + optional
            else:
                close = pattern.find("]", i + 2) if c == "[" else -1
                end = close + 1 if close > 0 else i + 2 if c == "\\" else i + 1
                inner, i = [pattern[i:end]], end
            current = list(dict.fromkeys(head + tail for head in current for tail in inner))
            if len(done) + len(current) > MAX_PATTERN_CHARS:
                raise Unreadable("too_long", f"a kill pattern has more than {MAX_PATTERN_CHARS} alternatives")
        return done + current, i

    found, end = alternatives(0)
    if end < len(pattern):
        raise _unread_pattern(pattern)  # a parenthesis closes that never opened
    return found


def _glob(branch, pattern, whole):
    """One alternative without groups -> its glob; unanchored ends match anywhere in the text."""
    pieces, i, n = [], 0, len(branch)
    while i < n:
        c = branch[i]
        if c == "\\" and i + 1 < n and branch[i + 1] in _CLASS_ESCAPES:
            piece = _CLASS_ESCAPES[branch[i + 1]]
        elif c == "\\" and i + 1 < n and not branch[i + 1].isalnum() and branch[i + 1] not in "<>`'":
            piece = "[" + branch[i + 1] + "]"  # a literal character, special or not, as a bracket
        elif c == "[" and (close := branch.find("]", i + 2)) > 0 and "[:" not in branch[i:close] \
                and "[=" not in branch[i:close] and "[." not in branch[i:close]:
            members = branch[i + 1:close]
            members = members[1:] + "!" if members.startswith("!") else members  # "!" first is a member
            piece = "[" + members + "]"
        elif c == ".":
            piece = "*" if branch.startswith("*", i + 1) else "?"
        elif c == "^" and not pieces or c == "$" and i == n - 1:
            piece = c
        elif c in "\\[*+?{}()^$":
            raise _unread_pattern(pattern)
        else:
            piece = c
        pieces.append(piece)
        i = close + 1 if c == "[" else i + 2 if c == "\\" or piece == "*" else i + 1
    head = "" if whole or pieces[:1] == ["^"] else "*"
    tail = "" if whole or pieces[-1:] == ["$"] else "*"
    return head + "".join(piece for piece in pieces if piece not in "^$") + tail


def _unread_pattern(pattern):
    return Unreadable("unreadable", f"the kill pattern {pattern[:40]!r} uses a form the guard does not read")


def printed(command, judge):
    """What a command prints, where the text says it: ``echo`` and ``printf`` of their
    arguments, ``cat`` of a here-document (in each reading of its wrappers); else nothing."""
    texts = []
    for words in _peeled(judge, command.words):
        verb, args = (program_name(words[0]), words[1:]) if words else ("cat", [])
        if verb == "echo":
            while args and len(args[0]) > 1 and args[0][0] == "-" and set(args[0][1:]) <= set("neE"):
                args = args[1:]
            texts.append(decode_escapes(" ".join(args)))
        elif verb == "printf" and args:
            text, rest = decode_escapes(args[0]), list(args[1:])
            for spec in ("%s", "%b", "%d"):
                while spec in text and rest:
                    text = text.replace(spec, rest.pop(0), 1)
            texts.append(text + "".join(" " + r for r in rest))
        elif verb == "cat" and not args:
            texts.extend(command.fed)
    return texts


def _peeled(judge, words):
    """Each reading of a command's words with its syntax and wrappers peeled (a wrapper's
    option its table does not state read both ways), without judging the command."""
    pending, readings = [_peel_syntax(list(words), "posix")], []
    for _ in range(MAX_READINGS):  # each step peels one wrapper or keeps one reading
        if not pending:
            break
        words = pending.pop(0)
        rule = VERBS[program_name(words[0])] if words and program_name(words[0]) in _WRAPPERS else None
        if rule is None:
            readings.append(words)
            continue
        inner = rule.readings(words[1:]) if hasattr(rule, "readings") else \
            [rule(judge, words[1:], _Context(None, None, "posix"), 0)]
        pending[:0] = [_peel_syntax(w, "posix") for w in inner if isinstance(w, list)]
    return readings


# -- syntax and options ----------------------------------------------------------------------

_KEYWORDS = frozenset("! { } if then else elif fi do done while until time exec command builtin "
                      "nohup setsid [[ unbuffer caffeinate noglob nocorrect".split())
#: Keywords whose options come before the command (``exec -a NAME``: ``-a`` takes a value).
_KEYWORDS_WITH_OPTIONS = frozenset("exec command time nohup setsid caffeinate".split())
#: Words that start no command the guard judges: loops' heads, declarations.
_SKIPPED = frozenset("for case select esac in return local export declare typeset readonly".split())


def _peel_syntax(words, dialect):
    """Assignments, shell keywords and the plain wrappers that take no option value."""
    i, n = 0, len(words)
    while i < n:
        first = words[i]
        if dialect == "posix" and "=" in first and first.split("=", 1)[0].rstrip("+").isidentifier():
            i += 1
        elif first in _KEYWORDS and not (first == "command" and words[i + 1:i + 2] in (["-v"], ["-V"])):
            i += 1
            while i < n and words[i][:1] == "-" and first in _KEYWORDS_WITH_OPTIONS:
                i += 2 if words[i] == "-a" else 1
        elif first == "function":
            i += 2
        elif first == "coproc":
            i += 2 if i + 2 < n and words[i + 2] in ("{", "(") else 1
        elif first in _SKIPPED:
            return []
        else:
            break
    if i < n and words[i] == "command":
        return []  # command -v / -V only looks a name up
    return words[i:] if i else words


def _options(words, takes_value=frozenset(), everywhere=False, start=0):
    """Getopt's reading of words -> (the options as ``(name, value)`` pairs, the operands, the
    index where the operands start, and the indices where they would start if an option not
    in ``takes_value`` took the next word as its value: ``nsenter -t 1 -m reboot``).

    Short letters group (``-lc V``: a stated letter takes the rest of its group or the next
    word), ``--name=value`` carries its value, ``--`` ends the options; ``everywhere`` reads
    options after operands too (``systemctl restart x --now``)."""
    found, operands, others, i = [], [], [], start
    while i < len(words):
        word = words[i]
        if word == "--":
            operands.extend(words[i + 1:])
            i += 1
            break
        if word == "-" and not everywhere:
            found.append(("-", None))
            i += 1
            continue
        if word[:1] != "-" or word == "-":
            if not everywhere:
                break
            operands.append(word)
            i += 1
            continue
        i += 1
        stated = False
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            stated = bool(equals) or name in takes_value
            if not equals and name in takes_value:
                value, i = (words[i] if i < len(words) else None), i + 1
            found.append((name, value if stated else None))
        else:
            for index, letter in enumerate(word[1:], 2):
                stated = "-" + letter in takes_value
                if stated:
                    value = word[index:] or (words[i] if i < len(words) else None)
                    i += 0 if word[index:] else 1
                    found.append(("-" + letter, value))
                    break
                found.append(("-" + letter, None))
        if not stated and i < len(words) and not words[i].startswith("-"):
            others.append(i + 1)
    if not everywhere:
        operands = list(words[i:]) if not operands else operands
    return found, operands, min(i, len(words)), others


def _values(words, names):
    """Every value given to the options in ``names``, wherever they stand."""
    return [value for name, value in _options(words, names, everywhere=True)[0]
            if name in names and value is not None]


def _given(words, names):
    """Whether one of the options in ``names`` is given, alone or in a group of letters."""
    return any(name in names for name, _ in _options(words, everywhere=True)[0])


def _operands(words, takes_value=frozenset()):
    """The words after the options, where the command or program starts."""
    return _options(words, takes_value)[1]


def _other_readings(words, takes_value):
    """The commands a wrapper may run besides its first reading: one for each option the
    table does not state, read as taking the next word as its value."""
    _, _, first, pending = _options(words, takes_value)
    seen, readings = {first}, []
    while pending:
        _, _, start, more = _options(words, takes_value, start=pending.pop())
        pending.extend(more)
        if start not in seen:
            seen.add(start)
            readings.append(words[start:])
    return readings


def _set(text):
    return frozenset(text.split())


# -- wrappers, shells, interpreters, executors -----------------------------------------------


def _wrapper(positionals=0, payload="", shell="", rest_is_text=False):
    """A wrapper rule: its options read both ways (only ``payload`` options, which carry shell
    text, are stated as taking a value), ``positionals`` operands skipped, then the command it
    runs. ``shell`` options make it a shell reading its input when no command follows;
    ``rest_is_text`` joins the command's words as shell text (``watch``)."""
    payload, shell = _set(payload), _set(shell)

    def command_of(words):
        skip = 0
        while skip < len(words) and "=" in words[skip] and words[skip].split("=", 1)[0].isidentifier():
            skip += 1
        return words[skip + positionals:]

    def read(args):
        """The wrapper's options, and the commands it may run, its first reading first."""
        found, _, start, _ = _options(args, payload)
        return found, [command_of(args[start:])] + [command_of(o) for o in _other_readings(args, payload)]

    def rule(judge, args, context, depth):
        found, (rest, *others) = read(args)
        texts = [value for name, value in found if name in payload and value is not None]
        verdict = judge.texts(texts, depth) or _first(
            judge.texts([" ".join(other)], depth) if rest_is_text else
            judge.other_reading(other, depth, context) for other in others)
        if verdict or not rest:  # with no command, a shell option makes it a shell reading its input
            shell_given = not texts and any(name in shell for name, _ in found)
            return verdict or (judge.fed_shell(context, depth) if shell_given else None)
        return judge.shell(" ".join(rest), "posix", depth + 1) if rest_is_text else rest

    rule.readings = lambda args: read(args)[1]
    return rule


def _subcommand_runner(subcommands):
    """``TOOL [OPTIONS] SUBCOMMAND ...``: after one of its ``subcommands``, a wrapper of the rest;
    the tool's own options before it are read both ways, as a wrapper's are."""
    subcommands = _set(subcommands)

    def rule(judge, args, context, depth):
        for i, word in enumerate(args):
            if word in subcommands:
                return _PLAIN_WRAPPER(judge, args[i + 1:], context, depth)
            if word[:1] != "-" and (i == 0 or args[i - 1][:1] != "-"):
                return None  # another subcommand: the tool runs no command of the text's
        return None

    return rule


_PLAIN_WRAPPER = _wrapper()


def _su(judge, args, context, depth):
    """``su``: ``-c`` carries shell text; without it, a login shell reading its input."""
    texts = _values(args, _set("-c --command --session-command"))
    return judge.texts(texts, depth) if texts else judge.fed_shell(context, depth)


def _env(judge, args, context, depth):
    """``env [OPTIONS] [NAME=VALUE]... COMMAND``; ``-S`` splits its value into the command."""
    found, rest, _, _ = _options(args, _set("-u --unset -C --chdir -S --split-string"))
    for name, value in found:
        if name in ("-S", "--split-string") and value is not None:
            return judge.shell(value + " " + " ".join(rest), "posix", depth + 1)
    while rest and "=" in rest[0]:
        rest = rest[1:]
    return rest or None


def _flock(judge, args, context, depth):
    # ``flock [OPTIONS] FILE -c TEXT``: -c comes among the first words, before or after the file.
    texts = _values(args[:6], _set("-c --command"))
    if texts:
        return judge.shell(texts[0], "posix", depth + 1)
    return _operands(args, _set("-w --timeout -E --conflict-exit-code"))[1:] or None


_POSIX_SHELL_VALUES = _set("-o +o -O +O --rcfile --init-file")


def _posix_shell(judge, args, context, depth):
    """``sh -c TEXT``: the text runs; a script file is content the text does not hold; with
    neither, the shell runs what it is fed."""
    i, has_c = 0, False
    while i < len(args):
        word = args[i]
        if word in _POSIX_SHELL_VALUES:
            i += 2
        elif word in ("--", "-"):
            i += 1
            break
        elif word[:1] in "-+" and len(word) > 1:
            has_c = has_c or (not word.startswith("--") and "c" in word[1:])
            i += 1
        else:
            break
    if has_c:
        return judge.shell(args[i], "posix", depth + 1) if i < len(args) else None
    return judge.texts(judge.script(args[i]), depth) if i < len(args) else judge.fed_shell(context, depth)


def _nodemon(judge, args, context, depth):
    """``nodemon --exec TEXT`` (``-x``): the text runs; its options stand anywhere among the script's."""
    return judge.texts(_values(args, _set("--exec -x")), depth)


def _source(judge, args, context, depth):
    """``source FILE`` and ``. FILE``: a process substitution's output, where the text holds it."""
    return judge.texts(judge.script(args[0]), depth) if args else None


def _at(judge, args, context, depth):
    """``at`` and ``batch`` run, later on this machine, the commands they are fed."""
    if _values(args, _set("-f")) or _given(args, _set("-l -r -d -c")):
        return None
    return judge.fed_shell(context, depth)


def _interpreter(code_options, program_first=False):
    """An interpreter: the values of its code options are program source; ``program_first``
    (awk) takes the first operand as its program; else its script (a process substitution's
    output) or, with no operand, what it is fed."""
    options = _set(code_options)

    def rule(judge, args, context, depth):
        texts = _values(args, options)
        if program_first and not texts and not _values(args, _set("-f --file")):
            texts = _operands(args, _set("-F -v --assign --field-separator"))[:1]
        operands = [a for a in args if not a.startswith("-")]
        if not texts:
            texts = judge.script(operands[0]) if operands else judge.fed(context)
        return _first(judge.code(text, depth) for text in texts)

    return rule


def _deno(judge, args, context, depth):
    operands = _operands(args[1:]) if args[:1] == ["eval"] else []
    return judge.code(operands[0], depth) if operands else None


def _eval(judge, args, context, depth):
    args = args[1:] if args[:1] == ["--"] else args
    return judge.shell(" ".join(args), context.dialect, depth + 1) if args else None


def _trap(judge, args, context, depth):
    args = args[1:] if args[:1] == ["--"] else args
    if len(args) < 2 or args[0] in ("-", "-l", "-p") or args[0].isdigit():
        return None
    return judge.shell(args[0], "posix", depth + 1)


def _xargs(judge, args, context, depth):
    """``xargs CMD ARGS``: the command runs with the words fed to xargs appended, or in place of
    its replace string (``-I {}``, ``-i``); with ``-a`` the words come from a file."""
    found, rest, _, _ = _options(args, _set("-I -L -n -P -s -d -E -a --delimiter --max-args "
                                            "--max-procs --max-lines --max-chars --eof --arg-file"))
    source = context.previous if context.command and context.command.piped else None
    fed = []
    if not any(name in ("-a", "--arg-file") for name, _ in found):  # piped, or a here-string's
        texts = list(getattr(context.command, "fed", ())) + (printed(source, judge) if source else [])
        fed = [word for text in texts for word in text.split()]
    replace = next((value or "{}" for name, value in found if name in ("-I", "-i", "--replace")), None)
    words = [word for word in rest or ["echo"] if word != replace]  # what is fed takes its place
    inner = _Context(None, None, "posix", stdin=source, chain=context.chain)
    return judge.argv(words + fed, depth, inner)


_PARALLEL_SOURCES = _set("::: :::+ :::: ::::+")


def _parallel(judge, args, context, depth):
    """GNU ``parallel [OPTIONS] [COMMAND] ::: ARGS``: the command runs once per argument (its
    ``{}`` replaced, else the argument appended); without a command each argument is a
    command. Arguments come after ``:::``, else from the lines it is fed; ``::::`` names
    files the text does not hold."""
    cut = next((i for i, word in enumerate(args) if word in _PARALLEL_SOURCES), len(args))
    head = args[:cut]
    if "--dry-run" in head:  # prints the commands only
        return None
    if cut == len(args):
        inputs = [line for text in judge.fed(context) for line in text.splitlines() if line.strip()]
    else:
        given = args[cut] in (":::", ":::+")  # "::::" names files the text does not hold
        inputs = [w for w in args[cut + 1:] if w not in _PARALLEL_SOURCES] if given else []

    def run(template, item):
        if not template:
            return judge.shell(item, "posix", depth + 1) if item else None
        if item is not None and any("{}" in word for word in template):
            return judge.shell(" ".join(w.replace("{}", item) for w in template), "posix", depth + 1)
        return judge.other_reading(template + ([item] if item is not None else []), depth, context)

    templates = [_operands(head)] + _other_readings(head, frozenset())
    return _first(run(template, item) for template in templates for item in inputs or [None])


_GIT_VALUES = _set("-C -c --git-dir --work-tree --namespace --config-env --super-prefix "
                   "--attr-source --list-cmds")


def _git(judge, args, context, depth):
    """``git``: a ``!`` alias given with ``-c alias.NAME=!TEXT`` runs its text as shell text
    (the arguments after it appended), another alias expands to the git command it names;
    ``rebase --exec TEXT``, ``submodule foreach TEXT`` and ``bisect run COMMAND`` run theirs."""
    i, aliases = 0, {}
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "-c" and i + 1 < len(args):
            name, _, value = args[i + 1].partition("=")
            if name.lower().startswith("alias."):
                aliases[name[6:].lower()] = value
        i += 2 if args[i] in _GIT_VALUES else 1
    if i >= len(args):
        return None
    sub, rest = args[i], args[i + 1:]
    alias = aliases.get(sub.lower())
    if alias is not None and alias.startswith("!"):
        return judge.shell(" ".join([alias[1:]] + rest), "posix", depth + 1)
    if alias is not None:
        return ["git"] + args[:i] + alias.split() + rest
    texts = _values(rest, _set("-x --exec")) if sub == "rebase" else []
    if sub == "submodule" and rest[:1] == ["foreach"]:
        texts = [" ".join(_operands(rest[1:]))]
    verdict = judge.texts(texts, depth)
    return verdict or (rest[1:] or None if sub == "bisect" and rest[:1] == ["run"] else None)


def _find(judge, args, context, depth):
    """``find ... -exec COMMAND ;`` (or ``+``, ``-execdir``, ``-ok``): the command, ``{}`` dropped."""
    starts = [i + 1 for i, word in enumerate(args) if word in ("-exec", "-execdir", "-ok", "-okdir")]
    ends = [next((j for j in range(i, len(args)) if args[j] in (";", "+", "\\;")), len(args)) for i in starts]
    runs = [[w for w in args[i:j] if w != "{}"] for i, j in zip(starts, ends)]
    return _first(judge.argv(run, depth) for run in runs if run)


# -- what stops the host ---------------------------------------------------------------------


def _kill(judge, args, context, depth):
    """``kill [-SIG | -s SIG | -n SIG] TARGET...``: the targets against the host."""
    if any(a in ("-l", "-L", "--list", "--table") for a in args):
        return None
    targets, i, signal = [], 0, None
    while i < len(args):
        word = args[i]
        if word == "--":
            targets.extend(args[i + 1:])
            break
        if word in ("-s", "-n", "--signal"):
            signal = args[i + 1] if i + 1 < len(args) else None
            i += 2
            continue
        if word.startswith("--signal="):
            signal = word.split("=", 1)[1]
        elif word.startswith("-") and len(word) > 1 and not targets and signal is None \
                and (i + 1 < len(args) or context.stdin is not None):
            signal = word[1:]
        else:
            targets.append(word)
        i += 1
    if signal in ("0", "SIG0"):
        return None
    verdict = _first(_kill_target(judge, word) for word in targets)
    if verdict or not targets and context.stdin is not None:
        return verdict or _pids_from_pipe(judge, context.stdin, context.chain)
    variables = {word.strip("\"'$").strip("{}") for word in targets if getattr(word, "dynamic", False)}
    if variables:  # pgrep x | while read p; do kill $p; done, or for p in $(pgrep x); do kill $p; done
        reads = [c for c in context.chain if c.piped and _peel_syntax(list(c.words), "posix")[:1] == ["read"]]
        lists = [word for c in context.chain if c.words[:1] == ["for"] and c.words[2:3] == ["in"]
                 and c.words[1] in variables for word in c.words[3:]]
        return _first(_pids_from_pipe(judge, _before(context.chain, loop), context.chain) for loop in reads) \
            or _first(_kill_target(judge, word) for word in lists)
    return None


def _kill_target(judge, word):
    """A kill's target against the host: its pid, or the pids its substitution computes."""
    return "host_kill" if judge.hits_pid(word) else _pids_computed(judge, word)


_PASS_THROUGH = _set("ps awk gawk cut sed head tail sort uniq tr grep egrep fgrep xargs")


def _pids_from_pipe(judge, command, chain):
    """Pids piped into a kill by ``command`` and the commands of ``chain`` piped into it: from
    ``pgrep``/``pidof``, or from ``ps`` filtered by ``grep PATTERN`` (the pattern searched in
    the command lines ``ps`` prints)."""
    while command is not None:
        verdict = _pids_from(judge, [command])
        if verdict:
            return verdict
        verbs = set()
        for words in _peeled(judge, command.words):
            verb = program_name(words[0]) if words else ""
            verbs.add(verb)
            if verb in ("grep", "egrep", "fgrep") and not _given(words[1:], _set("-v --invert-match")):
                patterns = _values(words[1:], _set("-e --regexp")) or \
                    _operands(words[1:], _set("-e -f -m -A -B -C --regexp --file --max-count"))[:1]
                fold = _given(words[1:], _set("-i --ignore-case"))
                fixed = verb == "fgrep" or _given(words[1:], _set("-F --fixed-strings"))
                basic = verb == "grep" and not fixed and not _given(words[1:], _set(
                    "-E --extended-regexp -P --perl-regexp"))
                patterns = [_extended(p) if basic else _pattern(p) for p in patterns]
                if any(judge.matches_name(p, full=True, fold=fold, regex=not fixed) for p in patterns):
                    return "process_kill"
            if verb in ("awk", "gawk", "mawk", "nawk") and \
                    any(judge.matches_name(p, full=True) for p in _awk_selects(words[1:])):
                return "process_kill"
        if not verbs & _PASS_THROUGH or not command.piped or command not in chain:
            return None
        command = _before(chain, command)
    return None


def _awk_selects(args):
    """What an awk program selects the lines ``ps`` prints by: its regular expressions (``/claude/``)
    and strings (``$11 == "claude"``)."""
    program = _operands(args, _set("-F -v -f --field-separator --assign --file"))[:1]
    parts = program[0].split('"') if program and not getattr(program[0], "dynamic", False) else [""]
    return [*parts[1::2], *"".join(parts[::2]).split("/")[1::2]]


def _extended(word):
    """A basic regular expression (grep's default) as the extended one it stands for: GNU's
    ``\\|``, ``\\(``, ``\\)``, ``\\{``, ``\\}``, ``\\+`` and ``\\?`` are operators, the bare ones
    plain characters (``grep 'vite\\|claude'`` searches either name)."""
    if getattr(word, "dynamic", False):
        return computed(word)
    out, i = [], 0
    while i < len(word):
        c, e = word[i], word[i + 1:i + 2]
        close = word.find("]", i + 2) if c == "[" else -1
        if close > 0:  # a bracket expression reads the same in both
            out.append(word[i:close + 1])
            i = close + 1
        elif c == "\\" and e:
            out.append(e if e in "|(){}+?" else c + e)
            i += 2
        else:
            out.append("\\" + c if c in "|(){}+?" else c)
            i += 1
    return "".join(out)


def _pids_computed(judge, word):
    """Pids a kill target's substitution prints (``kill $(pgrep claude)``, ``kill $(ps aux |
    grep claude | awk '{print $2}')``), read as if piped into the kill."""
    return _first(_pids_from(judge, program) or _pids_from_pipe(judge, program[-1], program)
                  for program in getattr(word, "nested", ()) if program)


#: ``ps`` fields that name the shell's parent, group or session: ``ps -o ppid= -p $$`` is the host.
_ABOVE_THE_SHELL = _set("ppid pgid pgrp sid sess")


def _pids_from(judge, commands):
    """Pids that come from ``pgrep``, ``pidof``, ``ps -C NAME`` or ``lsof -c PREFIX`` are a kill by
    name; from ``ps -o ppid= -p $$`` (or the shell's group or session), a kill of the host."""
    for command in commands:
        for words in _peeled(judge, command.words):
            verb, args = (program_name(words[0]), words[1:]) if words else ("", [])
            if verb in ("pgrep", "pidof"):
                return (_pkill if verb == "pgrep" else _pidof)(judge, args)
            selected = _values(args, _set("-C" if verb == "ps" else "-c")) if verb in ("ps", "lsof") else []
            named = [computed(value) if getattr(value, "dynamic", False) else part for value in selected
                     for part in (value.split(",") if verb == "ps" else ["^" + value])]
            if any(judge.matches_name(name, exact=verb == "ps", regex=verb == "lsof") for name in named):
                return "process_kill"
            fields = [f.split("=")[0].strip() for v in _values(args, _set("-o -O --format"))
                      for f in v.split(",")] if verb == "ps" and "$$" in words else []
            if _ABOVE_THE_SHELL.intersection(fields):
                return "host_kill"
    return None


def _by_name(values, flags, selects=False, signals=("--signal",)):
    """A kill by name: ``pkill``/``pgrep`` search a pattern in the process name (``-f``: the
    command line), ``killall``, ``pidof``, ``skill`` and ``tskill`` match names whole (``-r``:
    as patterns). ``flags`` maps options to how names are read; ``selects``: the process
    group, session and parent options choose processes too. Without a name, a user's. Signal
    0 (``-0``, or the value of one of ``signals``) only asks whether they run."""
    values = _set(values)

    def rule(judge, args, context=None, depth=0):
        options = [a for a in args if not _is_signal(a, values)]
        found, names, _, _ = _options(options, values, everywhere=True)
        given = dict(found)
        sent = [a[1:] for a in args if a not in options] + [given[o] for o in signals if o in given]
        if {"0", "SIG0"} & set(sent):
            return None
        read = {flags.get(name) for name in given} | ({"regex"} if selects else set())
        regex, groups = "regex" in read, _as_text(judge.host.groups() | {0})
        if selects and (given.get("-s", given.get("--session")) in groups or
                        given.get("-g", given.get("--pgroup")) in groups or
                        given.get("-P", given.get("--parent")) in _as_text({judge.host.parent})):
            return "host_kill"
        if not names:
            return "process_kill" if _set("-u -U --euid --uid --user") & set(given) else None
        for name in names:
            name = program_name(name) if "/" in name and not regex else name
            if judge.matches_name(_pattern(name), full="full" in read, exact="exact" in read or not regex,
                                  fold="fold" in read, regex=regex):
                return "process_kill"
        return None

    return rule


def _fkill(judge, args, context, depth):
    """``fkill`` (npm's ``fkill-cli``): each operand a pid, a ``:port`` or a whole process name."""
    operands = _options(args, _set("-t --force-after-timeout"), everywhere=True)[1]
    if any(judge.hits_pid(word) for word in operands if word.isdigit()):
        return "host_kill"
    names = [_pattern(word) for word in operands if not word.isdigit() and not word.startswith(":")]
    return "process_kill" if any(judge.matches_name(name, exact=True, regex=False) for name in names) else None


def _is_signal(word, values):
    """``-9``, ``-HUP``: a signal given as an option, not an option of the kill's own."""
    letters = word[1:]
    return word[:1] == "-" and (letters.isdigit() or letters.isupper() and word[:2] not in values
                                and word != "-I")


_pkill = _by_name("-u -U -g -G -P -s -t -F -r -q --signal --euid --uid --pgroup --group --parent "
                  "--session --terminal --pidfile --ns --nslist --runstates --queue",
                  {"-f": "full", "--full": "full", "-x": "exact", "--exact": "exact", "-i": "fold",
                   "--ignore-case": "fold"}, selects=True)
_killall = _by_name("-s --signal -u --user -o --older-than -y --younger-than -n --ns -Z --context",
                    {"-r": "regex", "--regexp": "regex", "-I": "fold", "--ignore-case": "fold"},
                    signals=("-s", "--signal"))
_pidof = _by_name("-o --omit-pid -d --separator", {})


def _pattern(word):
    return computed(word) if getattr(word, "dynamic", False) else str(word)


def _as_text(numbers):
    return {str(n) for n in numbers if n is not None}


_SERVICE_VERBS = _set("stop restart kill try-restart reload-or-restart try-reload-or-restart "
                      "condrestart force-reload freeze force-stop zap condstop "
                      "reload-or-try-restart condreload")
_MACHINE_VERBS = _set("reboot poweroff halt kexec soft-reboot emergency rescue")
_MACHINE_TARGETS = _MACHINE_VERBS | _set("shutdown runlevel0 runlevel1 runlevel6 ctrl-alt-del")
_REMOTE = _set("-H --host -M --machine")
_SYSTEMCTL_VALUES = _REMOTE | _set(
    "-s --signal -t --type -p --property --state -n --lines -o --output --job-mode --root --image "
    "--what --kill-whom --kill-value --timestamp --boot-loader-entry --boot-loader-menu "
    "--message --reboot-argument --when --drop-in --timeout")


def _systemctl(judge, args, context, depth):
    """``systemctl VERB UNIT...``: a stop or restart of a host unit, or the machine's; and
    ``loginctl``'s end of a session or a user's processes."""
    found, words, _, _ = _options(args, _SYSTEMCTL_VALUES, everywhere=True)
    options = dict(found)
    if not words or _REMOTE & set(options):
        return None
    verb, units = words[0], words[1:]
    if verb in ("terminate-session", "kill-session", "terminate-user", "kill-user"):  # loginctl
        return "host_kill"
    if verb in _MACHINE_VERBS:
        return None if options.get("--when", "now") in ("cancel", "show", "") else "host_shutdown"
    targets = [_unit_base(u).removesuffix(".target").removeprefix("systemd-") for u in units]
    if verb in ("isolate", "start", "restart", "reload-or-restart", "try-restart") and \
            _MACHINE_TARGETS & set(targets):
        return "host_shutdown"
    if verb in _SERVICE_VERBS or (verb in ("disable", "mask") and "--now" in options):
        if any(judge.matches_unit(u) for u in units):
            return "service_restart"
    return None


def _service(judge, args, context, depth):
    """``service UNIT VERB``, ``rc-service``, ``invoke-rc.d``, ``/etc/init.d/UNIT VERB``."""
    found, words, _, _ = _options(args, _set("-R --runlevel"), everywhere=True)
    restart = len(words) >= 2 and words[1] in _SERVICE_VERBS or "--full-restart" in dict(found)
    return "service_restart" if words and restart and judge.matches_unit(words[0]) else None


def _machine(quiet, fold=False, prefix=None):
    """A command that stops the machine unless one of the ``quiet`` options (help, a record
    only, a cancel, a load without a jump) is given, or one starting with ``prefix``;
    ``fold``: in any case."""
    quiet = _set(quiet)

    def rule(judge, args, context, depth):
        given = [a.lower() for a in args] if fold else args
        quieted = any(a in quiet or (prefix and a.startswith(prefix)) for a in given)
        return None if quieted else "host_shutdown"

    return rule


# POSIX (-c cancels, -k only warns, --show prints) and Windows (/a aborts, /h hibernates)
_shutdown_here = _machine("-c --show --help --version -k /a -a /? /h", fold=True)


def _shutdown(judge, args, context, depth):
    """``shutdown``, unless Windows' ``/m \\\\COMPUTER`` aims it at another computer."""
    lowered = [a.lower() for a in args]
    for flag, value in zip(lowered, lowered[1:]):
        if flag == "/m" and value.lstrip("\\") not in (*THIS_COMPUTER, ""):
            return None
    return _shutdown_here(judge, args, context, depth)


def _multiplexer(name, ends):
    """``tmux kill-server``, or ``kill-session``, ``kill-window`` or ``kill-pane`` of the current
    one, ``screen -X quit``, ``zellij kill-all-sessions``: the end of the multiplexer, or of the
    pane, the host's session hangs on. Not with another server, session, window or pane named
    (``-L``, ``-S``, ``-t``, ``-a``)."""
    ends = _set(ends)

    def rule(judge, args, context, depth):
        inside = any(held.split(":")[0].lower() == name for held in judge.host.session_names)
        found, words, _, _ = _options(args, _set("-L -S -f -c -t -p -X"), everywhere=True)
        given = {option for option, _ in found}
        command = [value for option, value in found if option == "-X"] + words[:1]
        if not inside or given & _set("-L -S -t -a -p") or not ends & set(command):
            return None
        return "process_kill"

    return rule


def _init(judge, args, context, depth):
    return "host_shutdown" if args[:1] and args[0] in ("0", "1", "6", "s", "S") else None


def _dbus(judge, args, context, depth):
    """A D-Bus call to a power method of the system (``Reboot``, ``PowerOff``...)."""
    methods = {word.rsplit(".", 1)[-1].removesuffix("WithFlags") for word in args}
    return "host_shutdown" if methods & {"Reboot", "PowerOff", "Halt", "KExec", "SoftReboot"} else None


def _sysrq_write(judge, args, context, depth):
    """``tee`` or ``dd of=`` writing the kernel's SysRq trigger."""
    return "host_shutdown" if any(_is_sysrq(a.removeprefix("of=")) for a in args) else None


def _windows(name):
    """A rule of :mod:`passdown.gates._guard_windows`, loaded when first used."""
    def rule(judge, args, context, depth):
        from passdown.gates import _guard_windows  # only for a Windows verb: measured start-up

        return getattr(_guard_windows, name)(judge, args, context, depth)

    return rule


#: PowerShell methods that stop what their object names (``.Kill()`` of a process, WMI's of
#: its instances), read by the Windows rules; a call of one sends a command to them.
PS_STOP_METHODS = ("kill", "terminate", "reboot", "shutdown", "win32shutdown", "win32shutdowntracker",
                   "stopservice", "pauseservice", "delete")
_PS_METHOD_CALLS = tuple(f").{method}(" for method in PS_STOP_METHODS)

_ALIASES = {("powershell", alias): verb for verb, aliases in (
    ("stop-process", "kill spps"), ("get-process", "gps ps"), ("stop-service", "spsv"),
    ("foreach-object", "% foreach"), ("start-process", "start saps"),
    ("invoke-expression", "iex")) for alias in aliases.split()}

#: Windows programs whose switches (``/F``) POSIX shell text may write doubled (``//F``).
_SWITCHED = _set("taskkill tskill cmd shutdown sc net wmic")
#: Commands that run the command after their options and operands, peeled as the shell runs them.
_WRAPPERS = _set("sudo doas pkexec run0 nice ionice timeout stdbuf chrt taskset chroot xvfb-run strace "
                 "systemd-run time env flock busybox toybox nsenter unshare setpriv firejail "
                 "fakeroot numactl prlimit cgexec chpst setuidgid dbus-run-session ltrace valgrind "
                 "proxychains proxychains4 torsocks catchsegv npx pnpx bunx uvx")
#: Tools whose subcommand runs the command after it: ``uv run pytest``, ``npm exec -- eslint``.
_SUBCOMMAND_RUNNERS = {"uv": "run", "poetry": "run", "pdm": "run", "hatch": "run", "pipenv": "run",
                       "rye": "run", "pixi": "run", "conda": "run", "mamba": "run", "micromamba": "run",
                       "pipx": "run", "npm": "exec x", "pnpm": "exec dlx", "yarn": "exec dlx"}

#: verb -> rule. A rule returns an outcome code, ``None``, or (a wrapper) the words it runs.
VERBS = {
    # wrappers: operands before the command they run, options carrying shell text, options
    # that make them a shell reading their input
    **dict.fromkeys(_WRAPPERS - _set("env flock timeout chrt taskset chroot"), _PLAIN_WRAPPER),
    **dict.fromkeys(_set("timeout chrt taskset chroot"), _wrapper(positionals=1)),
    "sudo": _wrapper(shell="-i -s --login --shell"),
    "doas": _wrapper(shell="-s"),
    "watch": _wrapper(rest_is_text=True),
    "runuser": _wrapper(payload="-c --command", shell="-l --login -"),
    "script": _wrapper(payload="-c --command"),
    "entr": _wrapper(payload="-s"), "nodemon": _nodemon,
    "sg": _wrapper(payload="-c", positionals=1),
    "su": _su, "env": _env, "flock": _flock,
    # shells and interpreters
    **dict.fromkeys(_set("sh bash dash zsh ksh mksh ash fish csh tcsh rbash yash posh"), _posix_shell),
    "source": _source, ".": _source, "at": _at, "batch": _at,
    "pwsh": _windows("_powershell"), "powershell": _windows("_powershell"), "cmd": _windows("_cmd_shell"),
    "start": _windows("_cmd_start"),
    "python": _interpreter("-c"),
    **dict.fromkeys(("node", "nodejs", "bun", "tsx", "ts-node"), _interpreter("-e --eval -p --print")),
    **{tool: _subcommand_runner(subcommands) for tool, subcommands in _SUBCOMMAND_RUNNERS.items()},
    "deno": _deno,
    "perl": _interpreter("-e -E"),
    **dict.fromkeys(("ruby", "osascript", "lua", "rscript", "Rscript"), _interpreter("-e")),
    "php": _interpreter("-r"),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk"), _interpreter("--source", program_first=True)),
    # what runs other commands
    "eval": _eval, "trap": _trap, "xargs": _xargs, "parallel": _parallel, "find": _find, "git": _git,
    "invoke-expression": _windows("_iex"), "start-process": _windows("_start_process"),
    "foreach-object": _windows("_foreach"),
    **dict.fromkeys(("invoke-cimmethod", "invoke-wmimethod"), _windows("_stop_method")),
    **dict.fromkeys(("remove-ciminstance", "remove-wmiobject", "rcim", "rwmi"), _windows("_unread")),
    # what stops the host
    "kill": _kill, "pkill": _pkill, "killall": _killall, "skill": _killall, "tskill": _killall,
    "fkill": _fkill, "fkill-cli": _fkill,
    "taskkill": _windows("_taskkill"), "wmic": _windows("_stop_method"),
    "stop-process": _windows("_stop_process"),
    "systemctl": _systemctl, "service": _service, "rc-service": _service, "invoke-rc.d": _service,
    **dict.fromkeys(("restart-service", "stop-service", "suspend-service"), _windows("_windows_service")),
    "sc": _windows("_sc_net"), "net": _windows("_sc_net"),
    **dict.fromkeys(("reboot", "poweroff", "halt"), _machine("--help -h --version -w --wtmp-only")),
    "shutdown": _shutdown,
    "kexec": _machine("-l -u --unload -p -s --help -h --version -v -S --status --kexec-file-syscall",
                      prefix="--load"),
    "init": _init, "telinit": _init, "loginctl": _systemctl,
    "tmux": _multiplexer("tmux", "kill-server kill-session kill-window kill-pane"),
    "screen": _multiplexer("screen", "quit kill"),
    "zellij": _multiplexer("zellij", "kill-all-sessions"),
    **dict.fromkeys(("busctl", "dbus-send", "gdbus", "qdbus"), _dbus),
    **dict.fromkeys(("restart-computer", "stop-computer"), _windows("_windows_machine")),
    "tee": _sysrq_write, "dd": _sysrq_write,
}
