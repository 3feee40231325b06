"""The guard's judge: whether one command, or a payload it runs, aims at the host.

A command is judged the way a shell would run it. Assignments, keywords and wrappers
(``sudo``, ``env``, ``timeout``, ``xargs``...) are peeled with their options, and the head verb
that remains is looked up in :data:`_VERBS`. A verb that runs other text (``bash -c``,
``python -c``, ``find -exec``, ``trap``, ``git -c alias.x=!...``, text piped into ``sh``) has
that text judged in turn, one level deeper, as shell commands or as program source in the
interpreter's language. Kills by name read their pattern as the tool does (an extended regular
expression, :mod:`passdown.gates._guard_pattern`) and match it against the host's names.

Every judgement is charged to a work budget in characters: payloads at every depth, executor
arguments and pattern matching together may cost at most :data:`WORK_FACTOR` times the
program's length (plus :data:`WORK_FLOOR`), so no input makes the guard super-linear.
"""

from passdown.gates._guard_options import Options, parse
from passdown.gates._guard_shell import escape_at, read, unescape

#: Longest text (a command, a payload, a rendered ``printf``) the guard reads.
MAX_COMMAND_CHARS = 65536
#: Deepest nesting of payloads (``sh -c`` in ``$(...)`` in ``bash -c`` ...) the guard reads.
MAX_DEPTH = 8
#: The work budget of one program: this many times its length, plus :data:`WORK_FLOOR`.
WORK_FACTOR = 16
WORK_FLOOR = 65536


class Exhausted(Exception):
    """The program needs more work than its budget: the guard answers ``too_long``."""


# -- tables -----------------------------------------------------------------------------------

_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh",
                     "rbash", "yash", "posh"})
_SHELL_OPTIONS = Options(values="oO", long_values={"--rcfile", "--init-file", "--emulate"},
                         long_payload={"--command"}, flag_payload="c", plus=True)


class _Language:
    """An interpreter: its option table, the language of its payload (``shell`` for one whose
    code is shell commands) and whether it reads a program from standard input when given
    none."""

    __slots__ = ("options", "language", "reads_stdin")

    def __init__(self, options, language, reads_stdin=True):
        self.options = options
        self.language = language
        self.reads_stdin = reads_stdin


_NODE = _Language(Options(values="rC", payload="ep", long_payload={"--eval", "--print"},
                          long_values={"--require", "--import", "--input-type", "--loader",
                                       "--experimental-loader", "--env-file", "--conditions"},
                          attached=False), "js")
_AWK = _Language(Options(values="Fvfil", payload="e", long_values={"--field-separator",
                                                                   "--assign", "--file", "--include",
                                                                   "--load"},
                         long_payload={"--source"}), "awk", reads_stdin=False)
_PYTHON = _Language(Options(values="WX", payload="c"), "python")
_INTERPRETERS = {
    "python": _PYTHON, "pypy": _PYTHON,
    "node": _NODE, "nodejs": _NODE,
    "bun": _Language(Options(payload="ep", long_payload={"--eval", "--print"}, attached=False), "js"),
    "perl": _Language(Options(values="I", rest="CdDFiMmVx", digits="l0", payload="eE"), "perl"),
    "ruby": _Language(Options(values="ICEr", rest="FKx", digits="0TW", payload="e"), "ruby"),
    "php": _Language(Options(values="dcfzt", payload="rBRE"), "php"),
    "lua": _Language(Options(values="l", payload="e"), "lua"),
    "luajit": _Language(Options(values="lj", payload="e"), "lua"),
    "rscript": _Language(Options(payload="e"), "r", reads_stdin=False),
    "r": _Language(Options(payload="e"), "r"),
    "julia": _Language(Options(payload="eE", long_payload={"--eval", "--print"}), "julia"),
    "osascript": _Language(Options(values="ls", payload="e"), "applescript"),
    "deno": _Language(Options(), "js", reads_stdin=False),  # deno eval CODE
    "awk": _AWK, "gawk": _AWK, "mawk": _AWK, "nawk": _AWK,
}
# Commands that read shell commands from standard input (at, batch) without being shells.
_STDIN_RUNNERS = {"at": Options(values="qfmMtTdl"), "batch": Options(values="qfmM")}

_KEYWORDS = frozenset({"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while",
                       "until", "coproc", "esac", "in"})


class _Wrapper:
    """A command that runs the command after its options (and ``positional`` words), or a
    payload option's value; ``appends``: it adds words of its own to the command (``xargs``);
    ``elsewhere``: options that send the command to another machine; ``options_after``:
    options may follow the positional words (``flock FILE -c CMD``)."""

    __slots__ = ("options", "positional", "appends", "elsewhere", "options_after")

    def __init__(self, options=None, positional=0, appends=False, elsewhere=(), options_after=False):
        self.options = options or Options()
        self.positional = positional
        self.appends = appends
        self.elsewhere = frozenset(elsewhere)
        self.options_after = options_after


_WRAPPERS = {
    "sudo": _Wrapper(Options(values="ugpChDrtUTR", long_values={
        "--user", "--group", "--host", "--prompt", "--chdir", "--role", "--type", "--other-user",
        "--close-from", "--command-timeout", "--chroot"})),
    "doas": _Wrapper(Options(values="uC")),
    "run0": _Wrapper(Options(values="ugD", long_values={
        "--user", "--group", "--unit", "--property", "--description", "--slice", "--setenv",
        "--chdir", "--nice", "--machine", "--background"}), elsewhere={"--machine"}),
    "pkexec": _Wrapper(Options(long_values={"--user"})),
    "env": _Wrapper(Options(values="uC", payload="S", long_values={"--unset", "--chdir"},
                            long_payload={"--split-string"})),
    "nohup": _Wrapper(),
    "setsid": _Wrapper(),
    "builtin": _Wrapper(),
    "command": _Wrapper(),
    "exec": _Wrapper(Options(values="a")),
    "time": _Wrapper(Options(values="fo", long_values={"--format", "--output"})),
    "nice": _Wrapper(Options(values="n", long_values={"--adjustment"})),
    "ionice": _Wrapper(Options(values="cnpPu", long_values={"--class", "--classdata"})),
    "chrt": _Wrapper(Options(values="TPD"), positional=1),
    "stdbuf": _Wrapper(Options(values="ioe", long_values={"--input", "--output", "--error"})),
    "timeout": _Wrapper(Options(values="sk", long_values={"--signal", "--kill-after"}), positional=1),
    "taskset": _Wrapper(positional=1),
    "xargs": _Wrapper(Options(values="IndELsaP", rest="eil", long_values={
        "--max-args", "--max-procs", "--delimiter", "--arg-file", "--replace", "--max-lines",
        "--eof", "--max-chars", "--process-slot-var"}), appends=True),
    "chroot": _Wrapper(Options(long_values={"--userspec", "--groups"}), positional=1),
    "unbuffer": _Wrapper(),
    "systemd-run": _Wrapper(Options(values="upMHEs", long_values={
        "--unit", "--property", "--machine", "--host", "--uid", "--gid", "--nice", "--setenv",
        "--working-directory", "--description", "--slice", "--service-type"}),
        elsewhere={"-H", "-M", "--host", "--machine"}),
    "flock": _Wrapper(Options(values="wE", payload="c", long_values={"--timeout", "--conflict-exit-code"},
                              long_payload={"--command"}), positional=1, options_after=True),
    "busybox": _Wrapper(),
    "nsenter": _Wrapper(Options(values="tSG", rest="muinpUCTrw", long_values={
        "--target", "--setuid", "--setgid"})),
    "unshare": _Wrapper(Options(values="SGRw", rest="muinpUCT", long_values={
        "--setuid", "--setgid", "--root", "--wd", "--propagation", "--setgroups"})),
    "strace": _Wrapper(Options(values="abeEIoOpPsSuUX")),
    "ltrace": _Wrapper(Options(values="aeEnopsuAD")),
}
_WATCH = Options(values="nd")
_RUNUSER = Options(values="ugGsw", payload="c", long_payload={"--command"})
_SU = Options(values="gGsw", payload="c", long_values={"--shell", "--group", "--supp-group",
                                                        "--whitelist-environment"},
              long_payload={"--command", "--session-command"}, permute=True)
_SCRIPT = Options(values="EIOBTm", payload="c", long_values={"--echo", "--log-in", "--log-out",
                                                             "--log-io", "--log-timing",
                                                             "--logging-format"},
                  long_payload={"--command"})

_SYSTEMCTL = Options(values="sHMtponP", long_values={
    "--signal", "--host", "--machine", "--type", "--property", "--output", "--lines", "--state",
    "--kill-whom", "--kill-value", "--job-mode", "--root", "--what", "--message", "--when",
    "--timestamp", "--image", "--boot-loader-entry", "--boot-loader-menu", "--reboot-argument",
    "--preset-mode", "--drop-in"}, permute=True)
_SYSTEMCTL_SHUTDOWN = frozenset({"reboot", "poweroff", "halt", "kexec", "soft-reboot", "emergency",
                                 "rescue", "isolate", "default", "exit", "switch-root"})
_SYSTEMCTL_STOP = frozenset({"restart", "stop", "kill", "try-restart", "reload-or-restart",
                             "try-reload-or-restart", "condrestart", "force-reload", "freeze"})
_SYSTEMCTL_START = frozenset({"start", "restart", "try-restart", "reload-or-restart",
                              "try-reload-or-restart", "condrestart", "force-reload"})
# Units whose start shuts the machine (or the user's service manager) down.
_SHUTDOWN_UNITS = frozenset({
    "reboot.target", "poweroff.target", "halt.target", "kexec.target", "soft-reboot.target",
    "ctrl-alt-del.target", "exit.target", "shutdown.target", "rescue.target", "emergency.target",
    "systemd-reboot.service", "systemd-poweroff.service", "systemd-halt.service",
    "systemd-kexec.service", "systemd-soft-reboot.service", "systemd-exit.service"})
_SERVICE_COMMANDS = frozenset({"service", "rc-service", "invoke-rc.d"})
_SERVICE_STOP = frozenset({"restart", "stop", "force-reload", "try-restart", "condrestart",
                           "force-stop"})
_SHUTDOWN_COMMANDS = frozenset({"reboot", "poweroff", "halt", "shutdown"})
_DBUS_COMMANDS = frozenset({"busctl", "dbus-send", "gdbus", "qdbus"})
_DBUS_SHUTDOWN = frozenset({"Reboot", "PowerOff", "Halt", "KExec", "SoftReboot",
                            "RebootWithFlags", "PowerOffWithFlags", "HaltWithFlags",
                            "KExecWithFlags", "Exit"})
_DBUS_STOP = frozenset({"RestartUnit", "StopUnit", "KillUnit", "TryRestartUnit",
                        "ReloadOrRestartUnit", "ReloadOrTryRestartUnit", "FreezeUnit"})
_SYSRQ = "/proc/sysrq-trigger"

_PKILL = Options(values="gGPstuUFdrqO", long_values={
    "--signal", "--session", "--pgroup", "--group", "--parent", "--terminal", "--euid", "--uid",
    "--pidfile", "--ns", "--nslist", "--delimiter", "--runstates", "--older", "--queue", "--env"},
    permute=True)
_KILLALL = Options(values="oyusnZ", long_values={"--older-than", "--younger-than", "--user",
                                                "--signal", "--ns", "--context"}, permute=True)
_PIDOF = Options(values="oSd", permute=True)
_SKILL = Options(values="tupcn", permute=True)
_GREP = Options(values="efABCmdD", long_values={"--regexp", "--file", "--after-context",
                                               "--before-context", "--context", "--max-count",
                                               "--directories", "--devices", "--color", "--colour",
                                               "--label", "--binary-files", "--include",
                                               "--exclude"}, permute=True)
_GREPS = {"grep": "basic", "egrep": "extended", "fgrep": "fixed", "rg": "extended", "ag": "extended"}
# Commands a pipeline of pids passes through unchanged, as far as whose pids they are goes.
_PID_FILTERS = frozenset({"awk", "gawk", "mawk", "cut", "sort", "uniq", "head", "tail", "tr", "sed",
                          "grep", "egrep", "fgrep", "xargs", "cat", "tee"})
_HELP = frozenset({"-h", "--help", "-V", "--version"})

_GIT_GLOBAL_VALUES = frozenset({"-C", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                                "--config-env", "--super-prefix", "--list-cmds", "--attr-source"})
_GIT_CONFIG_VALUES = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment",
                                "--value", "--url", "--worktree"})
# Git settings whose value git runs as a shell command.
_GIT_COMMANDS = frozenset({"core.pager", "core.editor", "core.sshcommand", "core.fsmonitor",
                           "core.askpass", "sequence.editor", "diff.external", "gpg.program",
                           "credential.helper", "uploadpack.packobjectshook"})
_GIT_COMMAND_SUFFIXES = (".textconv", ".clean", ".smudge", ".process", ".command", ".cmd",
                         ".driver", ".helper")


# -- the judge --------------------------------------------------------------------------------


class Judge:
    """Judges the programs of one tool call for one host (``pid``, service ``unit`` without
    ``.service``, process ``names`` and ``command_lines``). Returns an outcome code or ``None``."""

    def __init__(self, pid, unit, names, command_lines):
        self.pid = pid
        self.unit = unit
        self.names = names
        self.command_lines = command_lines
        self.left = 0

    @property
    def code(self):
        """The code readers, which import ``re``: loaded only when a call needs them."""
        from passdown.gates import _guard_code

        return _guard_code

    # -- budget -----------------------------------------------------------------------------

    def program(self, kind, program):
        """Judge one top-level program: ``("shell" | "source", text)`` or ``("argv", words)``."""
        size = len(program) if kind != "argv" else sum(len(word) + 1 for word in program)
        self.left = WORK_FACTOR * size + WORK_FLOOR
        try:
            if kind == "argv":
                return self.argv(program, 0)
            return self.text(program, 0, None if kind == "shell" else "source")
        except Exhausted:
            return "too_long"

    def charge(self, amount):
        self.left -= amount
        if self.left < 0:
            raise Exhausted

    # -- text -------------------------------------------------------------------------------

    def text(self, text, depth, language=None):
        """Judge ``text`` as shell commands (``language`` ``None`` or ``"shell"``), as program
        source in a language (executor calls only), or as ``"source"`` of unknown language
        (both)."""
        if depth > MAX_DEPTH:
            return "too_deep"
        if len(text) > MAX_COMMAND_CHARS:
            return "too_long"
        self.charge(len(text))
        if language in (None, "shell", "source"):
            for command in read(text):
                verdict = self.shell_command(command, depth)
                if verdict:
                    return verdict
        if language not in (None, "shell"):
            return self._code(text, depth, language)
        return None

    def _code(self, text, depth, language):
        programs = self.code.executor_calls(text, language, self.charge)
        if programs is None:
            return "too_long"
        for kind, program in programs:
            if kind == "argv":
                verdict = self.argv(program, depth + 1)
            else:
                verdict = self.text(program, depth + 1, "source")
            if verdict:
                return verdict
        return None

    def shell_command(self, command, depth):
        for payload in command.payloads:
            verdict = self.text(payload, depth + 1)
            if verdict:
                return verdict
        if any(_is_sysrq(target) for target in command.writes):
            return "host_shutdown"
        return self.command(command.words, command.word_payloads, command, depth)

    def argv(self, words, depth):
        self.charge(sum(len(word) + 1 for word in words))
        return self.command(list(words), [[] for _ in words], None, depth)

    # -- one command --------------------------------------------------------------------------

    def command(self, words, payloads, command, depth, appended=False):
        """Peel assignments, keywords and wrappers from ``words``, then judge the head verb.
        ``command`` is the shell command the words came from (``None`` for an argv)."""
        if depth > MAX_DEPTH:
            return "too_deep"
        i, end = 0, len(words)
        while i < end:
            word = words[i]
            head = program_name(word)
            if _is_assignment(word) or head in _KEYWORDS:
                i += 1
                continue
            if head == "function":
                i += 2
                continue
            expanded = self._expanded(word, payloads[i])
            if expanded is not None:  # unquoted, its lines split into words like its spaces
                rest = [quote(item) for item in words[i + 1:]]
                return self.text(" ".join([expanded.replace("\n", " ")] + rest), depth + 1)
            wrapper = _WRAPPERS.get(head)
            if wrapper is None:
                break
            parsed = parse(words, i + 1, wrapper.options)
            if parsed.seen & wrapper.elsewhere:
                return None  # runs on another machine or in a container
            if head == "command" and parsed.seen & {"-v", "-V"}:
                return None  # only looks a name up
            if parsed.payloads:  # env -S: each string split into words, then the operands
                rest = [quote(item) for item in words[parsed.first:]]
                return self.text(" ".join([parsed.payload(" ")] + rest), depth + 1)
            i = parsed.first + wrapper.positional
            if wrapper.options_after and i < end:
                parsed = parse(words, i, wrapper.options)
                if parsed.payloads:
                    return self.text(parsed.payload(), depth + 1)
                i = parsed.first
            appended = appended or wrapper.appends
        if i >= end:
            return None
        call = _Call(words[i:], payloads[i:], command, appended)
        head = program_name(words[i])
        verb = _VERBS.get(head)
        if verb is not None:
            return verb(self, call, depth)
        # python3.11, pypy3, php8.2, lua5.4: the interpreter without its version
        language = _INTERPRETERS.get(head.lower().rstrip("0123456789.-"))
        if language is not None:
            return self._interpreter(language, call, depth)
        if head in _SHELLS:
            return self._shell(call, depth)
        if words[i].startswith(("/etc/init.d/", "/etc/rc.d/")):  # the script of a service
            return self._service(_Call(["service", head] + call.words[1:], [], command, appended), depth)
        return None

    def _expanded(self, word, payloads):
        """A word that is exactly ``$(echo ...)`` or ``$(printf ...)``: what it expands to."""
        if len(payloads) != 1 or word not in ("$(" + payloads[0] + ")", "`" + payloads[0] + "`"):
            return None
        return self.output_of_text(payloads[0])

    # -- what runs other text -------------------------------------------------------------------

    def _shell(self, call, depth):
        words = call.words
        parsed = parse(words, 1, _SHELL_OPTIONS)
        if parsed.payloads:
            payload = parsed.payload()
            expanded = self._expanded(payload, call.payloads[parsed.first] if parsed.first < len(words) else [])
            return self.text(payload if expanded is None else expanded, depth + 1)
        if parsed.first < len(words) and "-s" not in parsed.seen:
            script = self._script_operand(call, parsed.first)
            return None if script is None else self.text(script, depth + 1)
        return self._stdin(call, depth, "shell")

    def _script_operand(self, call, index):
        """The script a shell or ``source`` runs from an operand: the output of ``<(echo ...)``,
        or standard input for ``-`` and ``/dev/stdin``; ``None`` for a file out of reach."""
        word, payloads = call.words[index], call.payloads[index]
        if len(payloads) == 1 and word.startswith("<(") and word in ("<(" + payloads[0] + ")", "<(" + payloads[0]):
            return self.output_of_text(payloads[0])
        if word in ("-", "/dev/stdin"):
            return "\n".join(self.fed(call))
        return None

    def _interpreter(self, spec, call, depth):
        words = call.words
        parsed = parse(words, 1, spec.options)
        if parsed.payloads:
            return self.text(parsed.payload(), depth + 1, spec.language)
        if program_name(words[0]) == "deno" and parsed.first + 1 < len(words) and words[parsed.first] == "eval":
            return self.text(words[parsed.first + 1], depth + 1, "js")
        if "-m" in parsed.seen or "-f" in parsed.seen or "--file" in parsed.seen:
            return None  # runs a module or a program file: out of reach
        if parsed.first < len(words):
            if spec.language == "awk":
                return self.text(words[parsed.first], depth + 1, "awk")
            if words[parsed.first] != "-":
                return None  # runs a script file: its content is out of reach
        if not spec.reads_stdin:
            return None
        return self._stdin(call, depth, spec.language)

    def _stdin(self, call, depth, language):
        for text in self.fed(call):
            verdict = self.text(text, depth + 1, language)
            if verdict:
                return verdict
        return None

    def fed(self, call):
        """What a command reads on standard input, as far as the text shows it: here-documents,
        here-strings, ``< <(echo ...)``, and the output of ``echo`` / ``printf`` piped in."""
        command = call.command
        if command is None:
            return []
        fed = list(command.stdin)
        for word, payloads in command.inputs:
            if len(payloads) == 1 and word.startswith("<("):
                output = self.output_of_text(payloads[0])
                if output is not None:
                    fed.append(output)
        if command.piped_from is not None:
            output = self.output_of(command.piped_from)
            if output is not None:
                fed.append(output)
        return fed

    def output_of_text(self, text):
        self.charge(len(text))
        outputs = [self.output_of(command) for command in read(text)]
        outputs = [output for output in outputs if output is not None]
        return "\n".join(outputs) if outputs else None

    def output_of(self, command):
        """What ``echo``, ``printf`` or ``cat`` (of a here-document) print, or ``None``."""
        words = command.words[_head_index(command.words):]
        if not words:
            return None
        head = program_name(words[0])
        if head == "echo":
            i = 1
            while i < len(words) and len(words[i]) > 1 and words[i][0] == "-" and set(words[i][1:]) <= set("neE"):
                i += 1
            output = unescape(" ".join(words[i:]))
        elif head == "printf":
            rest = words[1:]
            if rest[:1] == ["--"]:
                rest = rest[1:]
            if not rest or rest[0].startswith("-v"):
                return None
            output = render_printf(rest[0], rest[1:], self.left)
            if output is None:
                raise Exhausted
        elif head == "cat" and len(words) == 1 and command.stdin:
            output = "\n".join(command.stdin)
        else:
            return None
        self.charge(len(output))
        return output

    def _stdin_runner(self, call, depth):
        parsed = parse(call.words, 1, _STDIN_RUNNERS[program_name(call.words[0])])
        if parsed.seen & {"-f", "-l", "-d", "-c", "-r"}:
            return None
        return self._stdin(call, depth, "shell")

    def _su(self, call, depth):
        words = call.words
        head = program_name(words[0])
        by_user = head == "runuser" and "-u" in words  # runuser -u USER [--] COMMAND...
        parsed = parse(words, 1, _RUNUSER if by_user else _SU)
        if parsed.payloads:
            return self.text(parsed.payload(), depth + 1)
        if by_user and parsed.first < len(words):
            return self.command(words[parsed.first:], call.payloads[parsed.first:], call.command, depth + 1)
        if head == "sg" and len(parsed.operands) > 1:  # sg GROUP COMMAND
            return self.text(" ".join(words[index] for index in parsed.operands[1:]), depth + 1)
        return None

    def _powershell(self, call, depth):
        """``pwsh -Command TEXT`` (any prefix of ``-Command``, any case) runs TEXT as commands."""
        words = call.words
        for i in range(1, len(words) - 1):
            word = words[i].lower()
            if len(word) >= 2 and "-command".startswith(word):
                return self.text(" ".join(words[i + 1:]), depth + 1)
            if not word.startswith("-"):
                break
        return None

    def _watch(self, call, depth):
        parsed = parse(call.words, 1, _WATCH)
        rest = call.words[parsed.first:]
        return self.text(" ".join(rest), depth + 1) if rest else None

    def _eval(self, call, depth):
        parts = []
        for word, payloads in zip(call.words[1:], call.payloads[1:]):
            expanded = self._expanded(word, payloads)
            parts.append(word if expanded is None else expanded)
        return self.text(" ".join(parts), depth + 1) if parts else None

    def _source(self, call, depth):
        if len(call.words) < 2:
            return None
        script = self._script_operand(call, 1)
        return None if script is None else self.text(script, depth + 1)

    def _script(self, call, depth):
        parsed = parse(call.words, 1, _SCRIPT)
        return self.text(parsed.payload(), depth + 1) if parsed.payloads else None

    def _trap(self, call, depth):
        words = call.words
        i = 1
        while i < len(words) and words[i].startswith("-") and words[i] != "-":
            if words[i] == "--":
                i += 1
                break
            if words[i] in ("-l", "-p", "-P"):
                return None
            i += 1
        operands = words[i:]
        if len(operands) < 2 or operands[0] == "-" or operands[0].isdigit():
            return None  # prints, or resets the signals to their defaults
        return self.text(operands[0], depth + 1)

    def _find(self, call, depth):
        words = call.words
        i = 1
        while i < len(words):
            if words[i] in ("-exec", "-execdir", "-ok", "-okdir"):
                start = i + 1
                i = start
                while i < len(words) and words[i] not in (";", "+"):
                    i += 1
                if i > start:
                    verdict = self.command(words[start:i], call.payloads[start:i], None, depth + 1)
                    if verdict:
                        return verdict
            i += 1
        return None

    def _git(self, call, depth):
        words = call.words
        i = 1
        while i < len(words) and words[i].startswith("-"):
            word = words[i]
            if word == "-c" and i + 1 < len(words):
                verdict = self._git_setting(words[i + 1], depth)
                if verdict:
                    return verdict
                i += 2
            elif word in _GIT_GLOBAL_VALUES:
                i += 2
            else:
                i += 1
        if i < len(words) and words[i] == "config":
            operands, j = [], i + 1
            while j < len(words):
                word = words[j]
                if word in _GIT_CONFIG_VALUES:
                    j += 2
                    continue
                if not word.startswith("-"):
                    operands.append(word)
                j += 1
            if len(operands) >= 2:
                return self._git_setting(operands[0] + "=" + operands[1], depth)
        return None

    def _git_setting(self, setting, depth):
        key, _, value = setting.partition("=")
        key = key.lower()
        if key.startswith("alias.") and value.startswith("!"):
            return self.text(value[1:], depth + 1)
        if key in _GIT_COMMANDS or key.startswith("pager.") or key.endswith(_GIT_COMMAND_SUFFIXES):
            return self.text(value[1:] if value.startswith("!") else value, depth + 1)
        return None

    # -- verbs that aim at the host -----------------------------------------------------------

    def _systemctl(self, call, depth):
        words = call.words
        parsed = parse(words, 1, _SYSTEMCTL)
        if parsed.seen & {"-H", "-M", "--host", "--machine"}:
            return None  # aimed at another machine or container
        operands = [words[index] for index in parsed.operands]
        if not operands:
            return None
        verb, units = operands[0], operands[1:]
        if verb in _SYSTEMCTL_SHUTDOWN:
            return "host_shutdown"
        now = "--now" in parsed.seen
        if (verb in _SYSTEMCTL_START or (verb in ("enable", "reenable") and now)) and any(
                unit in _SHUTDOWN_UNITS for unit in units):
            return "host_shutdown"
        stops = verb in _SYSTEMCTL_STOP or (verb in ("disable", "mask") and now)
        if stops and any(self.aims_at_unit(unit) for unit in units):
            return "service_restart"
        return None

    def aims_at_unit(self, word):
        if self.unit is None or "$" in word or "`" in word:
            return True
        base = unit_base(word)
        if any(c in base for c in "*?["):
            from fnmatch import fnmatchcase

            return fnmatchcase(self.unit, base)
        return base == self.unit

    def _service(self, call, depth):
        words = call.words
        if len(words) >= 3 and words[2] in _SERVICE_STOP and self.aims_at_unit(words[1]):
            return "service_restart"
        return None

    def _shutdown(self, call, depth):
        words = call.words[1:]
        if any(w in ("--help", "--version") for w in words):
            return None
        if program_name(call.words[0]) == "shutdown" and "-c" in words:
            return None
        return "host_shutdown"

    def _init(self, call, depth):
        return "host_shutdown" if call.words[1:2] in (["0"], ["1"], ["6"], ["s"], ["S"]) else None

    def _loginctl(self, call, depth):
        words = call.words[1:]
        if any(w in ("poweroff", "reboot", "halt") for w in words):
            return "host_shutdown"
        if any(w in ("terminate-user", "kill-user", "terminate-session", "kill-session") for w in words):
            return "process_kill"
        return None

    def _dbus(self, call, depth):
        methods = [word.rsplit(".", 1)[-1] for word in call.words[1:]]
        if any(method in _DBUS_SHUTDOWN for method in methods):
            return "host_shutdown"
        if any(method in _DBUS_STOP for method in methods):
            units = [word.rsplit(":", 1)[-1] for word in call.words[1:]]
            units = [unit for unit in units if "." in unit and "/" not in unit
                     and not unit.startswith(("org.", "-"))]
            if not units or any(self.aims_at_unit(unit) for unit in units):
                return "service_restart"
        return None

    def _tee(self, call, depth):
        return "host_shutdown" if any(_is_sysrq(word) for word in call.words[1:]) else None

    def _dd(self, call, depth):
        return "host_shutdown" if any(_is_sysrq(word[3:]) for word in call.words[1:] if word.startswith("of=")) else None

    def _killall5(self, call, depth):
        return "host_kill"

    def _kill(self, call, depth):
        words = call.words
        if any(w in ("-l", "-L", "--list", "--table") for w in words[1:]):
            return None
        signal, targets, i = None, [], 1
        while i < len(words):
            word = words[i]
            if word == "--":
                targets.extend(range(i + 1, len(words)))
                break
            if signal is None and not targets:
                if word in ("-s", "-n", "--signal"):
                    signal = words[i + 1] if i + 1 < len(words) else ""
                    i += 2
                    continue
                if word.startswith("--signal="):
                    signal = word[len("--signal="):]
                    i += 1
                    continue
                # The first word is the signal only when a target follows it (or xargs adds one).
                if word.startswith("-") and len(word) > 1 and (i + 1 < len(words) or call.appended):
                    signal = word[1:]
                    i += 1
                    continue
            targets.append(i)
            i += 1
        if signal is not None and _is_signal_zero(signal):
            return None  # signal 0 only checks that the process exists
        for index in targets:
            if self._aims_at_host(words[index]):
                return "host_kill"
            for payload in call.payloads[index]:
                verdict = self._pids_of_text(payload)
                if verdict:
                    return verdict
        # Under xargs the pids come from the pipe, appended or in place of {}.
        if (call.appended or not targets) and call.command is not None and call.command.piped_from is not None:
            return self._pids_of(call.command.piped_from)
        return None

    def _aims_at_host(self, word):
        """``-1`` (every process), ``0`` (its own group), ``$PPID``, the host's pid or group."""
        if word in ("-1", "0", "-0", "+0"):
            return True
        word = word[1:] if word.startswith(("-", "+")) else word
        if word.startswith("$((") and word.endswith("))"):
            word = word[3:-2].strip(" \t")
            word = word[1:] if word.startswith(("-", "+")) else word
        if word in ("$PPID", "${PPID}"):
            return True
        return word.isdigit() and word.isascii() and int(word) == self.pid

    def _pids_of_text(self, text):
        """``kill $(pgrep node)``: whose pids the substitution prints."""
        self.charge(len(text))
        commands = read(text)
        return self._pids_of(commands[-1]) if commands else None

    def _pids_of(self, command):
        """Whose pids a pipeline ending in ``command`` prints: by name (``pgrep``, ``pidof``,
        ``ps ... | grep NAME``), literal pids (``echo``), or unknown (``None``)."""
        patterns, how = [], _How(regex=True, command_line=True)
        while command is not None:
            words = command.words[_head_index(command.words):]
            if not words:
                return None
            head = program_name(words[0])
            if head in ("pgrep", "pidof"):
                return self._by_name(_Call(words, [[] for _ in words], command, False), 0)
            if head in _GREPS:
                self._grep_patterns(words, patterns, how)
            elif head == "ps":
                return self.kills_by_name(patterns, how)
            elif head in ("echo", "printf"):
                return "host_kill" if any(self._aims_at_host(word) for word in words[1:]) else None
            elif head not in _PID_FILTERS:
                return None
            command = command.piped_from
        return None

    def _grep_patterns(self, words, patterns, how):
        """Add a grep's patterns to ``patterns``; ``grep -v`` (``grep -v grep``) only drops
        lines, so it adds none."""
        parsed = parse(words, 1, _GREP)
        seen = parsed.seen
        if seen & {"-v", "--invert-match"}:
            return
        dialect = _GREPS[program_name(words[0])]
        if seen & {"-E", "--extended-regexp", "-P", "--perl-regexp"}:
            dialect = "extended"
        if seen & {"-F", "--fixed-strings"}:
            dialect = "fixed"
        if seen & {"-i", "--ignore-case"}:
            how.ignore_case = True
        given = [words[i + 1] for i, word in enumerate(words[:-1]) if word in ("-e", "--regexp")]
        given += [word[len("--regexp="):] for word in words if word.startswith("--regexp=")]
        if not given and parsed.operands:
            given = [words[parsed.operands[0]]]
        if seen & {"-f", "--file"}:
            given.append("")  # patterns from a file: unknown, so anything
        for pattern in given:
            patterns.append(_ere(pattern, dialect))

    def _by_name(self, call, depth):
        words = call.words
        head = program_name(words[0])
        if any(word in _HELP or word in ("-l", "--list") for word in words[1:]) and head == "killall":
            return None
        options = {"pkill": _PKILL, "pgrep": _PKILL, "killall": _KILLALL, "pidof": _PIDOF,
                   "skill": _SKILL}[head]
        start = 1
        signal = None
        if head in ("pkill", "killall", "skill") and len(words) > 1 and _is_signal_word(words[1]):
            signal, start = words[1][1:], 2
        parsed = parse(words, start, options)
        seen = parsed.seen
        if seen & _HELP:
            return None
        # -s of pkill and pgrep names a session, not a signal
        for name in ("--signal",) if head in ("pkill", "pgrep") else ("-s", "--signal"):
            if name in seen:
                signal = _option_value(words, name) or signal
        if signal is not None and _is_signal_zero(signal):
            return None
        patterns = [words[index] for index in parsed.operands]
        if head == "skill":
            patterns = [w for w in patterns if not w.startswith("-")]
        how = _How()
        if head in ("pkill", "pgrep"):
            how.regex = True
            how.whole = bool(seen & {"-x", "--exact"})
            how.command_line = bool(seen & {"-f", "--full"})
            how.ignore_case = bool(seen & {"-i", "--ignore-case"})
            how.inverse = bool(seen & {"-v", "--inverse"})
        elif head == "killall":
            how.regex = bool(seen & {"-r", "--regexp"})
            how.ignore_case = bool(seen & {"-I", "--ignore-case"})
        return self.kills_by_name(patterns, how)

    def kills_by_name(self, patterns, how):
        """``process_kill`` when a kill by name can reach the host: no pattern, no host names,
        or a pattern that matches one of them (see :class:`_How`)."""
        if not patterns or not self.names:
            return "process_kill"
        for pattern in patterns:
            if self._matches(pattern, how) != how.inverse:
                return "process_kill"
        return None

    def _matches(self, pattern, how):
        from passdown.gates import _guard_pattern

        subjects = list(self.names)
        if how.command_line:
            subjects += self.command_lines
        fold = _guard_pattern.fold_case if how.ignore_case else str
        if not how.regex:
            name = pattern.rsplit("/", 1)[-1] if "/" in pattern else pattern
            return any(fold(name) == fold(subject) for subject in subjects)
        self.charge(len(pattern) * (sum(len(subject) + 1 for subject in subjects) + 1))
        if how.command_line and not self.command_lines:
            # Without the host's command lines, a pattern that names the host aims at it.
            if any(fold(name) in fold(pattern) for name in self.names):
                return True
        try:
            program = _guard_pattern.compile_pattern(pattern)
        except _guard_pattern.Unsupported:
            return True  # a pattern the guard cannot read could match anything
        return any(_guard_pattern.search(program, subject, how.ignore_case, how.whole)
                   for subject in subjects)


class _Call:
    """A command from its head verb on: ``words``, each word's substitution ``payloads``, the
    shell ``command`` it came from (``None`` for an argv), and whether a wrapper such as
    ``xargs`` ``appended`` words to it."""

    __slots__ = ("words", "payloads", "command", "appended")

    def __init__(self, words, payloads, command, appended):
        self.words = words
        self.payloads = payloads
        self.command = command
        self.appended = appended


class _How:
    """How a kill tool matches its patterns: as regular expressions (``regex``) or exact
    names, against the whole name (``whole``), the command line too (``command_line``),
    ignoring case, or killing what does not match (``inverse``)."""

    __slots__ = ("regex", "whole", "command_line", "ignore_case", "inverse")

    def __init__(self, regex=False, command_line=False):
        self.regex = regex
        self.whole = False
        self.command_line = command_line
        self.ignore_case = False
        self.inverse = False


_VERBS = {
    "eval": Judge._eval, "watch": Judge._watch, "source": Judge._source, ".": Judge._source,
    "su": Judge._su, "runuser": Judge._su, "sg": Judge._su, "script": Judge._script,
    "at": Judge._stdin_runner, "batch": Judge._stdin_runner, "trap": Judge._trap,
    "find": Judge._find, "git": Judge._git, "pwsh": Judge._powershell,
    "powershell": Judge._powershell,
    "systemctl": Judge._systemctl, "init": Judge._init, "telinit": Judge._init,
    "loginctl": Judge._loginctl, "tee": Judge._tee, "dd": Judge._dd,
    "kill": Judge._kill, "killall5": Judge._killall5,
    "pkill": Judge._by_name, "killall": Judge._by_name, "skill": Judge._by_name,
}
_VERBS.update(dict.fromkeys(_SERVICE_COMMANDS, Judge._service))
_VERBS.update(dict.fromkeys(_SHUTDOWN_COMMANDS, Judge._shutdown))
_VERBS.update(dict.fromkeys(_DBUS_COMMANDS, Judge._dbus))


# -- helpers ---------------------------------------------------------------------------------


def _head_index(words):
    """Where the head verb of ``words`` stands once assignments, keywords and wrappers (with
    their options) are passed over: ``sudo -u x pgrep node`` -> 3."""
    i = 0
    while i < len(words):
        head = program_name(words[i])
        if _is_assignment(words[i]) or head in _KEYWORDS:
            i += 1
        elif head == "function":
            i += 2
        elif head in _WRAPPERS:
            wrapper = _WRAPPERS[head]
            i = parse(words, i + 1, wrapper.options).first + wrapper.positional
        else:
            break
    return i


def program_name(word):
    """``/usr/bin/kill`` -> ``kill``."""
    name = word.rsplit("/", 1)[-1]
    return name or word


def unit_base(unit):
    return unit[:-len(".service")] if unit.endswith(".service") else unit


def _is_assignment(word):
    name, equals, _ = word.partition("=")
    name = name[:-1] if name.endswith("+") else name
    return bool(equals) and name.isidentifier() and name.isascii()


def _is_sysrq(path):
    """Whether ``path`` names ``/proc/sysrq-trigger`` (repeated slashes allowed)."""
    return path.startswith("/") and "/" + "/".join(part for part in path.split("/") if part) == _SYSRQ


def _is_signal_zero(signal):
    return signal.upper() in ("0", "SIG0", "NULL")


def _is_signal_word(word):
    """``-9``, ``-KILL``, ``-SIGTERM``: a signal given as the first word of pkill or killall."""
    body = word[1:]
    if not word.startswith("-") or not body.isascii():
        return False
    return body.isdigit() or (len(body) >= 3 and body.isupper() and body.replace("+", "").isalnum())


def _option_value(words, name):
    for i, word in enumerate(words):
        if word == name and i + 1 < len(words):
            return words[i + 1]
        if word.startswith(name + "=") and name.startswith("--"):
            return word[len(name) + 1:]
    return None


def quote(word):
    """``word`` as one shell word."""
    return "'" + word.replace("'", "'\\''") + "'"


def _ere(pattern, dialect):
    """A grep pattern in the extended dialect: a basic one has its operators swapped, a fixed
    string has every special character escaped."""
    if dialect == "extended":
        return pattern
    if dialect == "fixed":
        return "".join("\\" + c if c in ".[]()*+?{}|^$\\" else c for c in pattern)
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            following = pattern[i + 1]
            out.append(following if following in "(){}|+?" else c + following)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def render_printf(format_text, arguments, limit):
    """What ``printf FORMAT ARGS...`` prints (``%s``, ``%b``, ``%d``... and escapes), reusing
    the format while arguments remain, as printf does; ``None`` past ``limit`` characters."""
    out, size, k = [], 0, 0
    while True:
        i, used = 0, False
        while i < len(format_text):
            c = format_text[i]
            if c == "\\":
                piece, i = escape_at(format_text, i)
            elif c == "%":
                j = i + 1
                while j < len(format_text) and format_text[j] in "-+ #0123456789.":
                    j += 1
                spec, conversion = format_text[i + 1:j], format_text[j:j + 1]
                i = j + 1
                if conversion == "%" or not conversion:
                    piece = "%"
                else:
                    piece = arguments[k] if k < len(arguments) else ""
                    k, used = k + 1, True
                    if conversion == "b":
                        piece = unescape(piece)
                    if "." in spec and conversion in "sb":
                        precision = spec.split(".", 1)[1]
                        piece = piece[:int(precision)] if precision.isdigit() else ""
            else:
                piece, i = c, i + 1
            out.append(piece)
            size += len(piece)
            if size > limit:
                return None
        if not used or k >= len(arguments):
            return "".join(out)
