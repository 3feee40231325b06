"""The guard's kernel: each command's verb, wrappers peeled, judged against the host (its pid,
parent, process group, session, names, command lines and units), and what runs code read in
turn (spec/gates/guard.md).

Judging answers ``None`` (nothing here stops the host) or an outcome code: ``host_kill``,
``process_kill``, ``service_restart`` or ``host_shutdown``; a piece it cannot read raises
:class:`~passdown.gates._guard_read.Unreadable`. The tables below are the whole catalogue:
verbs that stop something, wrappers and the few of their options that take a value (an option
a wrapper's table does not state is read both as a flag and as taking the next word, so an
unlisted option never hides the command), shells, and interpreters' code options. Every other
verb is allowed whatever its arguments say.
"""

from passdown.gates._guard_read import MAX_DEPTH, Unreadable, Word, decode_escapes, read


#: The most wrappers peeled off one command.
MAX_WRAPPERS = 64
#: The most other readings of wrappers' options (an option the table does not state read as
#: taking a value) judged in one call.
MAX_READINGS = 256


class Host:
    """Who the host is, as the guard input states it."""

    __slots__ = ("pid", "parent", "group", "session", "names", "command_lines", "units")

    def __init__(self, pid, parent=None, group=None, session=None, names=(), command_lines=(),
                 units=()):
        self.pid, self.parent, self.group, self.session = pid, parent, group, session
        self.names, self.command_lines, self.units = tuple(names), tuple(command_lines), tuple(units)

    def pids(self):
        """Numbers that, signalled, stop the host: its pid, its parent, its group and session
        leaders."""
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
                hit = any(a <= name[n] <= b for a, b in _ranges(members))
                if hit != negate:
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
        self.host, self.unit = host, None
        self.readings = {}

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

    # -- programs ------------------------------------------------------------------------------

    def shell(self, text, dialect="posix", depth=0):
        """Shell text -> an outcome code or ``None``."""
        commands = read(text, dialect, depth)
        return self.commands(commands, dialect, depth)

    def commands(self, commands, dialect, depth):
        previous = None
        for command in commands:
            context = _Context(command, previous, dialect, chain=commands)
            for nested in command.nested:
                verdict = self.commands(nested, dialect, depth + 1)
                if verdict:
                    return verdict
            if any(_is_sysrq(path) for path in command.writes):
                return "host_shutdown"
            verdict = self.argv(command.words, depth, context)
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
            if key not in VERBS and (key.startswith("python") or key.startswith("pypy")):
                key = "python"
            if key not in VERBS and "/init.d/" in words[0]:
                return _init_script(self, words, context, depth)
            if context.dialect == "powershell" and any(").kill(" in w.lower() for w in words):
                from passdown.gates._guard_windows import _ps_method_kill  # Windows rules load on use

                return _ps_method_kill(self, words)
            rule = VERBS.get(key)
            if rule is None:
                return None
            outcome = rule(self, words[1:], context, depth)
            if isinstance(outcome, list):  # a wrapper: judge the command it runs
                words = _peel_syntax(outcome, context.dialect)
                continue
            return outcome
        raise Unreadable("too_deep", f"more than {MAX_WRAPPERS} wrappers around one command")

    def code(self, text, depth):
        """Program source of any language: its executor calls and command forms."""
        if depth + 1 > MAX_DEPTH:
            raise Unreadable("too_deep", f"payloads nest more than {MAX_DEPTH} levels deep")
        from passdown.gates._guard_code import executor_calls  # only for code: measured start-up

        for kind, payload in executor_calls(text):
            verdict = self.shell(payload, "posix", depth + 1) if kind == "shell" \
                else self.argv(payload, depth + 1)
            if verdict:
                return verdict
        return None

    def fed(self, context):
        """What a shell or interpreter reading its standard input is fed: here-documents,
        here-strings, and what the command piped into it prints."""
        texts = list(context.command.fed) if context.command else []
        for program in context.command.sources if context.command else ():
            texts.extend(self.substituted(program))
        previous = context.previous if context.command and context.command.piped else None
        if previous is not None:
            texts.extend(printed(previous, self))
        return texts

    def substituted(self, program):
        """What a process substitution's program prints (``<(echo reboot)``), read as a file."""
        return [text for command in program for text in printed(command, self)]

    def script_operand(self, word, depth):
        """A shell's or ``source``'s script operand: a process substitution runs what its
        program prints; a file is content the text does not hold."""
        if not isinstance(word, Word) or not word.raw.startswith("<("):
            return None
        for program in word.nested:
            for text in self.substituted(program):
                verdict = self.shell(text, "posix", depth + 1)
                if verdict:
                    return verdict
        return None

    # -- targets -------------------------------------------------------------------------------

    def matches_name(self, pattern, full=False, exact=False, fold=False, regex=True):
        """Whether a kill-by-name pattern, read as its tool reads it, matches the host."""
        if isinstance(pattern, _Dynamic):
            raise Unreadable("unreadable", "a kill by name takes its pattern from a variable")
        texts = self.host.names + (self.host.command_lines if full else ())
        for text in texts:
            if _pattern_hits(pattern, text, exact, fold, regex):
                return True
        return False

    def matches_unit(self, word, fold=False):
        """Whether a unit or service name names one of the host's units; the matched unit is
        kept for the message."""
        if getattr(word, "dynamic", False) and self.host.units:
            raise Unreadable("unreadable", "a stop or restart takes its unit from a variable")
        asked = _unit_base(word)
        for unit in self.host.units:
            if glob_match(asked, _unit_base(unit), fold) or glob_match(word, unit, fold):
                self.unit = unit
                return True
        return False

    def hits_pid(self, word):
        """Whether a kill target word reaches the host."""
        text = str(word).strip().lstrip("+")
        if text in ("-1", "0", "-0", "$PPID", "-$PPID", "${PPID}"):
            return True
        number = text[1:] if text.startswith("-") else text
        if not number.isdigit():
            return False
        value = int(number)
        return value in (self.host.groups() if text.startswith("-") else self.host.pids())


class _Dynamic(str):
    """A pattern computed at run time."""


class _Context:
    """Where a command stands: its parsed command, the one before it, the dialect."""

    __slots__ = ("command", "previous", "dialect", "stdin", "chain")

    def __init__(self, command, previous, dialect, stdin=None, chain=()):
        self.command, self.previous, self.dialect, self.stdin = command, previous, dialect, stdin
        self.chain = chain


def _is_sysrq(path):
    return path.replace("//", "/").rstrip("/") in ("/proc/sysrq-trigger",)


def _unit_base(word):
    for suffix in (".service",):
        if word.endswith(suffix):
            return word[:-len(suffix)]
    return word


def _pattern_hits(pattern, text, exact, fold, regex):
    if not regex or not any(ch in _REGEX_CHARS for ch in pattern):
        if fold:
            pattern, text = pattern.lower(), text.lower()
        return pattern == text if exact else pattern in text
    from passdown.gates._guard_regex import compile_pattern, search  # patterns only: start-up

    try:
        program = _PATTERNS.get(pattern) or _PATTERNS.setdefault(pattern, compile_pattern(pattern))
    except ValueError as error:
        raise Unreadable("unreadable", f"the kill pattern {pattern[:40]!r} cannot be read: {error}") from None
    return search(program, text, fold, whole=exact)


_PATTERNS = {}
_REGEX_CHARS = frozenset(".[]()*+?{}|^$\\")


def printed(command, judge):
    """What a command prints, where the text says it: ``echo`` and ``printf`` of their
    arguments, ``cat`` of a here-document; else nothing."""
    words = _peel_wrappers(judge, command.words)
    if not words:
        return list(command.fed)
    verb = program_name(words[0])
    args = words[1:]
    if verb == "echo":
        while args and args[0][:1] == "-" and set(args[0][1:]) <= set("neE") and len(args[0]) > 1:
            args = args[1:]
        return [decode_escapes(" ".join(args))]
    if verb == "printf" and args:
        text, rest = decode_escapes(args[0]), list(args[1:])
        for spec in ("%s", "%b", "%d"):
            while spec in text and rest:
                text = text.replace(spec, rest.pop(0), 1)
        return [text + "".join(" " + r for r in rest)]
    if verb == "cat" and not args:
        return list(command.fed)
    return []


# -- syntax and wrappers ---------------------------------------------------------------------

_KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while",
                       "until", "time", "exec", "command", "builtin", "nohup", "setsid", "[[",
                       "unbuffer", "caffeinate", "noglob", "nocorrect"})
_SKIPPED = frozenset({"for", "case", "select", "esac", "in", "return", "local",
                      "export", "declare", "typeset", "readonly"})


def _peel_syntax(words, dialect):
    """Assignments, shell keywords and the plain wrappers that take no option value."""
    i, n = 0, len(words)
    while i < n:
        first = words[i]
        if dialect == "posix" and "=" in first and first.split("=", 1)[0].rstrip("+").isidentifier():
            i += 1
        elif first in _KEYWORDS and not (first == "command" and i + 1 < n and
                                         words[i + 1][:2] in ("-v", "-V")):
            i += 1
            while i < n and words[i][:1] == "-" and first in ("exec", "command", "time", "nohup",
                                                              "setsid", "caffeinate"):
                i += 2 if words[i] == "-a" else 1
        elif first == "function":
            i += 2
        elif first == "coproc":
            i += 1
            if i + 1 < n and words[i + 1] in ("{", "("):
                i += 1
        elif first in _SKIPPED:
            return []
        else:
            break
    if i < n and words[i] == "command":
        return []  # command -v / -V only looks a name up
    return words[i:] if i else words


def _skip_options(words, takes_value):
    """Words after a wrapper's options: short letters grouped, ``--name=value``, the stated
    options that take a value skipping it, ``--`` ending them."""
    return words[_scan_options(words, takes_value)[0]:]


def _scan_options(words, takes_value, i=0):
    """From ``i``, skip options by the generic rule -> (the index where the command starts,
    the indices where it would start if an option the table does not state took the next
    word as its value: ``nsenter -t 1 -m reboot``)."""
    others = []
    while i < len(words):
        word = words[i]
        if word == "--":
            return i + 1, others
        if word == "-":
            i += 1
            continue
        if not word.startswith("-"):
            return i, others
        stated = "=" in word if word.startswith("--") else False
        if word.startswith("--"):
            stated = stated or word in takes_value
            i += 2 if word in takes_value and "=" not in word else 1
        else:
            i += 1
            for index, letter in enumerate(word[1:], 2):
                if "-" + letter in takes_value:
                    stated = True
                    i += 1 if index == len(word) else 0
                    break
        if not stated and i < len(words) and not words[i].startswith("-"):
            others.append(i + 1)
    return len(words), others


def _other_readings(words, takes_value):
    """The commands a wrapper may run besides its first reading: one for each option the
    table does not state, read as taking the next word as its value."""
    first, pending = _scan_options(words, takes_value)
    seen, readings = {first}, []
    while pending:
        start, more = _scan_options(words, takes_value, pending.pop())
        pending.extend(more)
        if start not in seen:
            seen.add(start)
            readings.append(words[start:])
    return readings


def _option_values(words, names):
    """Every value of the options in ``names`` (``-c V``, ``-cV``, ``--name=V``, ``--name V``,
    and a short letter ending a group: ``-lc V``)."""
    values, i = [], 0
    while i < len(words):
        word = words[i]
        if word == "--":
            break
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            if name in names:
                if equals:
                    values.append(value)
                elif i + 1 < len(words):
                    values.append(words[i + 1])
                    i += 1
        elif word.startswith("-") and len(word) > 1:
            for index, letter in enumerate(word[1:], 1):
                if "-" + letter in names:
                    rest = word[index + 1:]
                    if rest:
                        values.append(rest)
                    elif i + 1 < len(words):
                        values.append(words[i + 1])
                        i += 1
                    break
        i += 1
    return values


def _wrapper(takes_value=(), positionals=0, payload=(), shell_options=(), rest_is_text=False):
    """A wrapper rule: options skipped, ``positionals`` operands skipped, then the command it
    runs. ``payload`` options carry shell text; ``shell_options`` make the wrapper a shell
    when no command follows; ``rest_is_text`` joins the command's words as shell text."""
    takes = frozenset(takes_value) | frozenset(payload)

    def command_of(words):
        skip = 0
        while skip < len(words) and "=" in words[skip] and words[skip].split("=", 1)[0].isidentifier():
            skip += 1
        return words[skip + positionals:]

    def rule(judge, args, context, depth):
        rest = _skip_options(args, takes)
        own = args[:len(args) - len(rest)]  # the wrapper's own options, up to its command
        texts = _option_values(own, frozenset(payload))
        for text in texts:
            verdict = judge.shell(text, "posix", depth + 1)
            if verdict:
                return verdict
        if not rest_is_text:
            for other in _other_readings(args, takes):
                verdict = judge.other_reading(command_of(other), depth, context)
                if verdict:
                    return verdict
        rest = command_of(rest)
        if not rest:
            if _has_option(own, shell_options) and not texts:
                return _stdin_shell(judge, context, depth)
            return None
        if rest_is_text:
            return judge.shell(" ".join(rest), "posix", depth + 1)
        return rest

    return rule


def _has_option(args, options):
    """Whether one of ``options`` is given, alone or in a group of short letters."""
    for word in args:
        if word in options:
            return True
        if word[:1] == "-" and word[1:2] not in ("-", "") and \
                any("-" + letter in options for letter in word[1:]):
            return True
    return False


def _su(judge, args, context, depth):
    """``su``: ``-c`` carries shell text; without it, a login shell reading its input."""
    texts = _option_values(args, frozenset({"-c", "--command", "--session-command"}))
    for text in texts:
        verdict = judge.shell(text, "posix", depth + 1)
        if verdict:
            return verdict
    return None if texts else _stdin_shell(judge, context, depth)


def _stdin_shell(judge, context, depth):
    for text in judge.fed(context):
        verdict = judge.shell(text, "posix", depth + 1)
        if verdict:
            return verdict
    return None


def _env(judge, args, context, depth):
    """``env [OPTIONS] [NAME=VALUE]... COMMAND``; ``-S`` splits its value into the command."""
    takes = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
    rest = _skip_options(args, takes)
    for text in _option_values(args[:len(args) - len(rest)], frozenset({"-S", "--split-string"})):
        return judge.shell(text + " " + " ".join(rest), "posix", depth + 1)
    i = 0
    while i < len(rest) and "=" in rest[i]:
        i += 1
    return rest[i:] or None


def _flock(judge, args, context, depth):
    # ``flock [OPTIONS] FILE -c TEXT``: -c comes among the first words, before or after the file.
    for text in _option_values(args[:6], frozenset({"-c", "--command"})):
        return judge.shell(text, "posix", depth + 1)
    rest = _skip_options(args, frozenset({"-w", "--timeout", "-E", "--conflict-exit-code"}))
    return rest[1:] or None


# -- shells, interpreters, executors ---------------------------------------------------------

_POSIX_SHELL_VALUES = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


def _posix_shell(judge, args, context, depth):
    """``sh -c TEXT``: the text runs; a script file is content the text does not hold; with
    neither, the shell runs what it is fed."""
    i = 0
    has_c = False
    while i < len(args):
        word = args[i]
        if word in _POSIX_SHELL_VALUES:
            i += 2
            continue
        if word == "--" or word == "-":
            i += 1
            break
        if word[:1] in "-+" and len(word) > 1 and not word.startswith("--"):
            has_c = has_c or "c" in word[1:]
            i += 1
            continue
        if word.startswith("--"):
            i += 1
            continue
        break
    if has_c:
        return judge.shell(args[i], "posix", depth + 1) if i < len(args) else None
    if i < len(args):
        return judge.script_operand(args[i], depth)
    return _stdin_shell(judge, context, depth)


def _source(judge, args, context, depth):
    """``source FILE`` and ``. FILE`` run the file in this shell: a process substitution's
    output, where the text holds it."""
    return judge.script_operand(args[0], depth) if args else None


def _at(judge, args, context, depth):
    """``at`` and ``batch`` run, later on this machine, the commands they are fed."""
    if _option_values(args, frozenset({"-f"})) or _has_option(args, ("-l", "-r", "-d", "-c")):
        return None
    return _stdin_shell(judge, context, depth)


def _interpreter(*code_options, program_first=False):
    """An interpreter: the values of its code options are program source; ``program_first``
    (awk) takes the first operand as its program; with neither and no file, what it is fed."""
    options = frozenset(code_options)

    def rule(judge, args, context, depth):
        texts = _option_values(args, options)
        if program_first and not texts and not _option_values(args, frozenset({"-f", "--file"})):
            operands = _skip_options(args, frozenset({"-F", "-v", "--assign", "--field-separator"}))
            texts = operands[:1]
        for text in texts:
            verdict = judge.code(text, depth)
            if verdict:
                return verdict
        if texts or any(not a.startswith("-") for a in args):
            return None
        for text in judge.fed(context):
            verdict = judge.code(text, depth)
            if verdict:
                return verdict
        return None

    return rule


def _deno(judge, args, context, depth):
    if args[:1] == ["eval"]:
        operands = _skip_options(args[1:], frozenset())
        return judge.code(operands[0], depth) if operands else None
    return None


def _eval(judge, args, context, depth):
    args = args[1:] if args[:1] == ["--"] else args
    return judge.shell(" ".join(args), context.dialect, depth + 1) if args else None


def _trap(judge, args, context, depth):
    args = args[1:] if args[:1] == ["--"] else args
    if len(args) < 2 or args[0] in ("-", "-l", "-p") or args[0].isdigit():
        return None
    return judge.shell(args[0], "posix", depth + 1)


def _xargs(judge, args, context, depth):
    """``xargs CMD ARGS``: the command runs with the words fed to xargs appended."""
    from_file = _option_values(args, frozenset({"-a", "--arg-file"}))
    rest = _skip_options(args, frozenset({"-I", "-L", "-n", "-P", "-s", "-d", "-E", "--delimiter",
                                          "--max-args", "--max-procs", "--max-lines", "--max-chars",
                                          "--replace", "--eof", "-a", "--arg-file"})) or ["echo"]
    fed = []
    source = context.previous if context.command and context.command.piped else None
    if source is not None and not from_file:  # with -a, the words come from the file
        for text in printed(source, judge):
            fed.extend(text.split())
    inner = _Context(None, None, "posix", stdin=source, chain=context.chain)
    return judge.argv(list(rest) + fed, depth, inner)


_PARALLEL_SOURCES = frozenset({":::", ":::+", "::::", "::::+"})


def _parallel(judge, args, context, depth):
    """GNU ``parallel [OPTIONS] [COMMAND] ::: ARGS``: the command runs once per argument (its
    ``{}`` replaced, else the argument appended); without a command each argument is a
    command. Arguments come after ``:::``, else from the lines it is fed; ``::::`` names
    files the text does not hold."""
    cut = next((i for i, word in enumerate(args) if word in _PARALLEL_SOURCES), len(args))
    inputs = [w for w in args[cut + 1:] if w not in _PARALLEL_SOURCES] \
        if cut < len(args) and args[cut] in (":::", ":::+") else []
    if cut == len(args):
        inputs = [line for text in judge.fed(context) for line in text.splitlines() if line.strip()]
    head = args[:cut]
    if "--dry-run" in head:  # prints the commands only
        return None
    readings = [_skip_options(head, frozenset())] + _other_readings(head, frozenset())
    for template in readings:
        for item in inputs or [None]:
            if not template:
                verdict = judge.shell(item, "posix", depth + 1) if item else None
            elif item is None:
                verdict = judge.other_reading(template, depth, context)
            elif any("{}" in word for word in template):
                verdict = judge.shell(" ".join(w.replace("{}", item) for w in template), "posix",
                                      depth + 1)
            else:
                verdict = judge.other_reading(template + [item], depth, context)
            if verdict:
                return verdict
    return None


_GIT_VALUES = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env",
                         "--super-prefix", "--attr-source", "--list-cmds"})


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
    texts = _option_values(rest, frozenset({"-x", "--exec"})) if sub == "rebase" else []
    if sub == "submodule" and rest[:1] == ["foreach"]:
        texts = [" ".join(_skip_options(rest[1:], frozenset()))]
    for text in texts:
        verdict = judge.shell(text, "posix", depth + 1)
        if verdict:
            return verdict
    return rest[1:] or None if sub == "bisect" and rest[:1] == ["run"] else None


def _find(judge, args, context, depth):
    for i, word in enumerate(args):
        if word in ("-exec", "-execdir", "-ok", "-okdir"):
            run = []
            for item in args[i + 1:]:
                if item in (";", "+", "\\;"):
                    break
                run.append(item)
            run = [w for w in run if w != "{}"]
            verdict = judge.argv(run, depth) if run else None
            if verdict:
                return verdict
    return None


# -- what stops the host ---------------------------------------------------------------------

_KILL_LIST = frozenset({"-l", "-L", "--list", "--table"})


def _kill(judge, args, context, depth):
    """``kill [-SIG | -s SIG | -n SIG] TARGET...``: the targets against the host."""
    if any(a in _KILL_LIST for a in args):
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
    for word in targets:
        if judge.hits_pid(word):
            return "host_kill"
        for nested in getattr(word, "nested", ()):
            verdict = _pids_from(judge, nested)
            if verdict:
                return verdict
    if not targets and context.stdin is not None:
        return _pids_from_pipe(judge, context)
    return None


_PASS_THROUGH = frozenset({"ps", "awk", "gawk", "cut", "sed", "head", "tail", "sort", "uniq", "tr",
                           "grep", "egrep", "xargs"})


def _pids_from_pipe(judge, context):
    """Pids piped into a kill: from ``pgrep``/``pidof``, or from ``ps`` filtered by ``grep
    PATTERN`` (the pattern searched in the command lines ``ps`` prints)."""
    command, chain = context.stdin, context.chain
    while command is not None:
        verdict = _pids_from(judge, [command])
        if verdict:
            return verdict
        words = _peel_wrappers(judge, command.words)
        verb = program_name(words[0]) if words else ""
        if verb in ("grep", "egrep") and not _has_option(words[1:], ("-v", "--invert-match")):
            patterns = _option_values(words[1:], frozenset({"-e", "--regexp"})) or \
                _skip_options(words[1:], frozenset({"-e", "-f", "-m", "-A", "-B", "-C", "--regexp",
                                                    "--file", "--max-count"}))[:1]
            fold = _has_option(words[1:], ("-i", "--ignore-case"))
            if any(judge.matches_name(_pattern(p), full=True, fold=fold) for p in patterns):
                return "process_kill"
        if verb not in _PASS_THROUGH or not command.piped or command not in chain:
            return None
        command = _before(context, command)
    return None


def _peel_wrappers(judge, words):
    """A command's words with its syntax and wrappers peeled, without judging the command."""
    words = _peel_syntax(list(words), "posix")
    for _ in range(len(words)):
        rule = VERBS.get(program_name(words[0])) if words else None
        if rule is None or program_name(words[0]) not in _WRAPPERS:
            break
        inner = rule(judge, words[1:], _Context(None, None, "posix"), 0)
        if not isinstance(inner, list):
            return []
        words = _peel_syntax(inner, "posix")
    return words


def _pids_from(judge, commands):
    """Pids that come from ``pgrep`` or ``pidof`` are a kill by name."""
    for command in commands:
        words = _peel_wrappers(judge, command.words)
        if not words:
            continue
        verb = program_name(words[0])
        if verb == "pgrep":
            return _by_pattern(judge, words[1:])
        if verb == "pidof":
            names = [w for w in words[1:] if not w.startswith("-")]
            if any(judge.matches_name(_pattern(n), exact=True, regex=False) for n in names):
                return "process_kill"
    return None


_PKILL_VALUES = frozenset({"-u", "-U", "-g", "-G", "-P", "-s", "-t", "-F", "--signal", "--euid",
                           "--uid", "--pgroup", "--group", "--parent", "--session", "--terminal",
                           "--pidfile", "--ns", "--nslist", "-r", "--runstates", "-q", "--queue"})


def _by_pattern(judge, args, context=None, depth=0):
    """``pkill``/``pgrep``: a pattern searched in the process name (``-f``: the command
    line), or the selection options alone."""
    full = exact = fold = False
    pattern, selected, i = None, {}, 0
    while i < len(args):
        word = args[i]
        if word == "--":
            pattern = args[i + 1] if i + 1 < len(args) else pattern
            break
        if word.startswith("--"):
            name, equals, value = word.partition("=")
            if name in _PKILL_VALUES and not equals:
                value, i = (args[i + 1] if i + 1 < len(args) else ""), i + 1
            selected[name] = value
            full = full or name == "--full"
            exact = exact or name == "--exact"
            fold = fold or name == "--ignore-case"
        elif word.startswith("-") and len(word) > 1 and not word[1:].isdigit() and \
                (not word[1:].isupper() or word[:2] in _PKILL_VALUES):
            for index, letter in enumerate(word[1:], 1):
                if "-" + letter in _PKILL_VALUES:
                    value = word[index + 1:] or (args[i + 1] if i + 1 < len(args) else "")
                    i += 0 if word[index + 1:] else 1
                    selected["-" + letter] = value
                    break
                full, exact, fold = full or letter == "f", exact or letter == "x", fold or letter == "i"
        elif word.startswith("-") and len(word) > 1:
            pass  # a signal
        elif pattern is None:
            pattern = word
        i += 1
    if selected.get("-s", selected.get("--session")) in _as_text(judge.host.groups() | {0}):
        return "host_kill"
    if selected.get("-g", selected.get("--pgroup")) in _as_text(judge.host.groups() | {0}):
        return "host_kill"
    if selected.get("-P", selected.get("--parent")) in _as_text({judge.host.parent} - {None}):
        return "host_kill"
    if pattern is None:
        users = any(k in selected for k in ("-u", "-U", "--euid", "--uid"))
        return "process_kill" if users else None
    if judge.matches_name(_pattern(pattern), full=full, exact=exact, fold=fold):
        return "process_kill"
    return None


def _pattern(word):
    return _Dynamic(word) if getattr(word, "dynamic", False) else str(word)


def _as_text(numbers):
    return {str(n) for n in numbers if n is not None}


def _killall(judge, args, context, depth):
    """``killall NAME...``: exact names (``-r``: patterns; ``-I``: any case), or ``-u USER``."""
    values = frozenset({"-s", "--signal", "-u", "--user", "-o", "--older-than", "-y",
                        "--younger-than", "-n", "--ns", "-Z", "--context"})
    regex = fold = False
    names, users, i = [], False, 0
    while i < len(args):
        word = args[i]
        if word in values:
            users = users or word in ("-u", "--user")
            i += 2
            continue
        if word.startswith("--"):
            regex = regex or word == "--regexp"
            fold = fold or word == "--ignore-case"
        elif word.startswith("-") and len(word) > 1:
            letters = word[1:]
            if not letters.isupper() or letters == "I":
                regex, fold = regex or "r" in letters, fold or "I" in letters
        else:
            names.append(word)
        i += 1
    if not names:
        return "process_kill" if users else None
    for name in names:
        name = _pattern(program_name(name)) if "/" in name else _pattern(name)
        if judge.matches_name(name, exact=not regex, fold=fold, regex=regex):
            return "process_kill"
    return None


def _skill(judge, args, context, depth):
    names = [a for a in args if not a.startswith("-")]
    return "process_kill" if any(judge.matches_name(_pattern(n), exact=True, regex=False)
                                 for n in names) else None


def _before(context, command):
    chain = context.chain
    if command in chain:
        index = chain.index(command)
        return chain[index - 1] if index > 0 else None
    return None


_SERVICE_VERBS = frozenset({"stop", "restart", "kill", "try-restart", "reload-or-restart",
                            "try-reload-or-restart", "condrestart", "force-reload", "freeze",
                            "force-stop", "zap", "condstop", "reload-or-try-restart",
                            "condreload"})
_MACHINE_VERBS = frozenset({"reboot", "poweroff", "halt", "kexec", "soft-reboot", "emergency",
                            "rescue"})
_MACHINE_TARGETS = frozenset({"reboot", "poweroff", "halt", "kexec", "soft-reboot", "emergency",
                              "rescue", "shutdown", "runlevel0", "runlevel1", "runlevel6",
                              "ctrl-alt-del", "exit"})
_SYSTEMCTL_VALUES = frozenset({"-H", "--host", "-M", "--machine", "-s", "--signal", "-t",
                               "--type", "-p", "--property", "--state", "-n", "--lines", "-o",
                               "--output", "--job-mode", "--root", "--image", "--what",
                               "--kill-whom", "--kill-value", "--timestamp", "--boot-loader-entry",
                               "--boot-loader-menu", "--message", "--reboot-argument",
                               "--when", "--drop-in", "--timeout"})


def _systemctl(judge, args, context, depth):
    """``systemctl VERB UNIT...``: a stop or restart of a host unit, or the machine's."""
    if _option_values(args, frozenset({"-H", "--host", "-M", "--machine"})):
        return None
    words = _skip_options_everywhere(args, _SYSTEMCTL_VALUES)
    if not words:
        return None
    verb, units = words[0], words[1:]
    now = "--now" in args
    if verb in _MACHINE_VERBS:
        when = _option_values(args, frozenset({"--when"}))
        return None if any(w in ("cancel", "show", "") for w in when) else "host_shutdown"
    targets = [_unit_base(u).removesuffix(".target").removeprefix("systemd-") for u in units]
    if verb in ("isolate", "start", "restart", "reload-or-restart", "try-restart") and \
            any(t in _MACHINE_TARGETS and t != "exit" for t in targets):
        return "host_shutdown"
    if verb in _SERVICE_VERBS or (verb in ("disable", "mask") and now):
        if any(judge.matches_unit(u) for u in units):
            return "service_restart"
    return None


def _skip_options_everywhere(args, takes_value):
    """Operands of a command whose options may follow them (``systemctl restart x --now``)."""
    words, i = [], 0
    while i < len(args):
        word = args[i]
        if word == "--":
            words.extend(args[i + 1:])
            break
        if word.startswith("-") and len(word) > 1:
            if "=" not in word and word in takes_value:
                i += 1
        else:
            words.append(word)
        i += 1
    return words


def _service(judge, args, context, depth):
    """``service UNIT VERB``, ``rc-service``, ``invoke-rc.d``, ``/etc/init.d/UNIT VERB``."""
    words = _skip_options_everywhere(args, frozenset({"-R", "--runlevel"}))
    if len(words) >= 2 and words[1] in _SERVICE_VERBS and judge.matches_unit(words[0]):
        return "service_restart"
    if words and "--full-restart" in args and judge.matches_unit(words[0]):
        return "service_restart"
    return None


def _init_script(judge, words, context, depth):
    name, args = program_name(words[0]), words[1:]
    if args and args[0] in _SERVICE_VERBS and name and judge.matches_unit(name):
        return "service_restart"
    return None


def _machine(*quiet, fold=False, prefix=None):
    """A command that stops the machine unless one of the ``quiet`` options (help, a record
    only, a cancel, a load without a jump) is given, or one starting with ``prefix``;
    ``fold``: in any case."""
    def rule(judge, args, context, depth):
        given = [a.lower() for a in args] if fold else args
        return None if any(a in quiet or (prefix and a.startswith(prefix)) for a in given) \
            else "host_shutdown"

    return rule


_shutdown_here = _machine("-c", "--show", "--help", "--version", "-k", "/a", "-a", "/?", "/h",
                          fold=True)


def _shutdown(judge, args, context, depth):
    """``shutdown``, unless Windows' ``/m \\\\COMPUTER`` aims it at another computer."""
    lowered = [a.lower() for a in args]
    for flag, value in zip(lowered, lowered[1:]):
        if flag == "/m" and value.lstrip("\\") not in ("localhost", ".", "127.0.0.1", ""):
            return None
    return _shutdown_here(judge, args, context, depth)


def _init(judge, args, context, depth):
    return "host_shutdown" if args[:1] and args[0] in ("0", "1", "6", "s", "S") else None


def _loginctl(judge, args, context, depth):
    words = _skip_options_everywhere(args, frozenset({"-H", "--host", "-M", "--machine", "-s",
                                                      "--signal", "--kill-whom", "-p", "--property",
                                                      "-o", "--output", "-n", "--lines"}))
    if _option_values(args, frozenset({"-H", "--host", "-M", "--machine"})) or not words:
        return None
    if words[0] in ("terminate-session", "kill-session", "terminate-user", "kill-user"):
        return "host_kill"
    if words[0] in ("reboot", "poweroff", "halt", "kexec", "soft-reboot"):
        return "host_shutdown"
    return None


def _dbus(judge, args, context, depth):
    """A D-Bus call to a power method of the system (``Reboot``, ``PowerOff``...)."""
    for word in args:
        method = word.rsplit(".", 1)[-1]
        if method.removesuffix("WithFlags") in ("Reboot", "PowerOff", "Halt", "KExec",
                                                "SoftReboot"):
            return "host_shutdown"
    return None


def _tee(judge, args, context, depth):
    return "host_shutdown" if any(_is_sysrq(a) for a in args) else None


def _dd(judge, args, context, depth):
    return "host_shutdown" if any(a.startswith("of=") and _is_sysrq(a[3:]) for a in args) else None


#: Wrappers whose options the generic rule alone reads: an option it does not know is read
#: both as a flag and as taking the next word.
_GENERIC_WRAPPERS = ("toybox", "nsenter", "unshare", "setpriv", "firejail", "fakeroot", "numactl",
                     "prlimit", "cgexec", "chpst", "setuidgid", "dbus-run-session", "ltrace",
                     "valgrind", "proxychains", "proxychains4", "torsocks", "catchsegv")
_WRAPPERS = frozenset({"sudo", "doas", "pkexec", "run0", "nice", "ionice", "timeout", "stdbuf",
                       "chrt", "taskset", "chroot", "xvfb-run", "strace", "systemd-run", "busybox",
                       "time", "env", "flock", *_GENERIC_WRAPPERS})

def _windows(name):
    """A rule of :mod:`passdown.gates._guard_windows`, loaded when first used."""
    def rule(judge, args, context, depth):
        from passdown.gates import _guard_windows  # only for a Windows verb: measured start-up

        return getattr(_guard_windows, name)(judge, args, context, depth)

    return rule


_ALIASES = {
    ("powershell", "kill"): "stop-process", ("powershell", "spps"): "stop-process",
    ("powershell", "gps"): "get-process", ("powershell", "ps"): "get-process",
    ("powershell", "spsv"): "stop-service", ("powershell", "%"): "foreach-object",
    ("powershell", "foreach"): "foreach-object", ("powershell", "start"): "start-process",
    ("powershell", "saps"): "start-process", ("powershell", "iex"): "invoke-expression",
    ("powershell", "&"): "&",
}

#: verb -> rule. A rule returns an outcome code, ``None``, or (a wrapper) the words it runs.
VERBS = {
    # wrappers: options skipped by the generic rule, the stated ones taking a value
    "sudo": _wrapper(("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user",
                      "--group", "--close-from", "--chdir", "--host", "--prompt", "--role",
                      "--type", "--other-user", "--command-timeout"),
                     shell_options=("-i", "-s", "--login", "--shell")),
    "doas": _wrapper(("-u", "-C"), shell_options=("-s",)),
    "pkexec": _wrapper(("--user",)),
    "run0": _wrapper(("-u", "--user", "-g", "--group", "-D", "--chdir", "--unit", "--property",
                      "--description", "--slice", "--nice", "--setenv"),
                     shell_options=()),
    "nice": _wrapper(("-n", "--adjustment")),
    "ionice": _wrapper(("-c", "-n", "-p", "--class", "--classdata", "--pid")),
    "timeout": _wrapper(("-s", "-k", "--signal", "--kill-after"), positionals=1),
    "stdbuf": _wrapper(("-i", "-o", "-e", "--input", "--output", "--error")),
    "chrt": _wrapper((), positionals=1),
    "taskset": _wrapper((), positionals=1),
    "chroot": _wrapper(("--userspec", "--groups"), positionals=1),
    "xvfb-run": _wrapper(("-n", "-s", "-f", "-e", "-p", "--server-num", "--server-args")),
    "strace": _wrapper(("-e", "-o", "-p", "-s", "-u", "-a", "-b", "-E", "-I", "-O", "-S", "-P", "-X")),
    "systemd-run": _wrapper(("-u", "--unit", "-p", "--property", "--description", "--slice",
                             "-E", "--setenv", "--uid", "--gid", "--nice", "--working-directory",
                             "--on-active", "--on-boot", "--on-calendar", "--timer-property",
                             "--path-property", "--socket-property", "--service-type")),
    "busybox": _wrapper(()),
    **dict.fromkeys(_GENERIC_WRAPPERS, _wrapper(())),
    "time": _wrapper(("-f", "-o", "--format", "--output")),
    "watch": _wrapper(("-n", "-d", "--interval", "--differences", "-q", "--equexit"),
                      rest_is_text=True),
    "runuser": _wrapper(("-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell",
                         "-w", "--whitelist-environment"), payload=("-c", "--command"),
                        shell_options=("-l", "--login", "-")),
    "script": _wrapper(("-c", "--command", "-E", "--echo", "-I", "--log-in", "-O", "--log-out",
                        "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format"),
                       payload=("-c", "--command")),
    "sg": _wrapper((), payload=("-c",), positionals=1),
    "su": _su,
    "env": _env,
    "flock": _flock,
    # shells and interpreters
    **dict.fromkeys(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh",
                     "rbash", "yash", "posh"), _posix_shell),
    "source": _source, ".": _source,
    "at": _at, "batch": _at,
    "pwsh": _windows("_powershell"), "powershell": _windows("_powershell"), "cmd": _windows("_cmd_shell"),
    "python": _interpreter("-c"),
    "node": _interpreter("-e", "--eval", "-p", "--print"),
    "nodejs": _interpreter("-e", "--eval", "-p", "--print"),
    "bun": _interpreter("-e", "--eval", "-p", "--print"),
    "deno": _deno,
    "perl": _interpreter("-e", "-E"),
    "ruby": _interpreter("-e"),
    "php": _interpreter("-r"),
    "osascript": _interpreter("-e"),
    "lua": _interpreter("-e"),
    "rscript": _interpreter("-e"), "Rscript": _interpreter("-e"),
    **dict.fromkeys(("awk", "gawk", "mawk", "nawk"), _interpreter("--source", program_first=True)),
    # what runs other commands
    "eval": _eval, "trap": _trap, "xargs": _xargs, "parallel": _parallel, "find": _find, "git": _git,
    "invoke-expression": _windows("_iex"), "start-process": _windows("_start_process"),
    "foreach-object": _windows("_foreach_kill"),
    # what stops the host
    "kill": _kill, "pkill": _by_pattern, "killall": _killall, "skill": _skill,
    "taskkill": _windows("_taskkill"), "tskill": _skill, "wmic": _windows("_wmic"),
    "stop-process": _windows("_stop_process"),
    "systemctl": _systemctl, "service": _service, "rc-service": _service, "invoke-rc.d": _service,
    "restart-service": _windows("_windows_service"), "stop-service": _windows("_windows_service"),
    "suspend-service": _windows("_windows_service"),
    "sc": _windows("_sc_net"), "net": _windows("_sc_net"),
    **dict.fromkeys(("reboot", "poweroff", "halt"), _machine("--help", "-h", "--version", "-w",
                                                              "--wtmp-only")),
    # shutdown: POSIX (-c cancels, -k only warns, --show prints) and Windows (/a aborts, /h
    # hibernates, /m names another computer)
    "shutdown": _shutdown,
    "kexec": _machine("-l", "-u", "--unload", "-p", "-s", "--help", "-h", "--version", "-v", "-S",
                      "--status", "--kexec-file-syscall", prefix="--load"),
    "init": _init, "telinit": _init, "loginctl": _loginctl,
    "busctl": _dbus, "dbus-send": _dbus, "gdbus": _dbus, "qdbus": _dbus,
    "restart-computer": _windows("_windows_machine"), "stop-computer": _windows("_windows_machine"),
    "tee": _tee, "dd": _dd,
}
