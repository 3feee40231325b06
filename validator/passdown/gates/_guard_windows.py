"""The guard's rules for Windows (spec/gates/guard.md): PowerShell's process, service and computer
cmdlets (``Stop-Process``, ``Restart-Service``, ``Restart-Computer``), ``taskkill``, ``sc``/``net stop``,
what runs other commands (``pwsh -Command``, ``cmd /c``, ``Invoke-Expression``, ``Start-Process``), and
one rule that asks about WMI's and .NET's stops (``wmic``, ``Invoke-CimMethod``, ``.Kill()``). The
kernel loads it only for these verbs: start-up."""

from passdown.gates._guard_judge import (PS_STOP_METHODS, THIS_COMPUTER, _ALIASES, _before, _globs, glob_match,
                                         program_name)
from passdown.gates._guard_read import Unreadable, computed, read

#: pwsh's own options that take a value
_PWSH_VALUES = frozenset("executionpolicy ep ex windowstyle w configurationname inputformat outputformat "
                         "workingdirectory wd settingsfile version psconsolefile".split())
#: cmdlet -> the parameters the guard reads, in the order an abbreviation (``-n``) resolves to them
#: (another parameter, or a switch, takes no value; ``whatif``, a switch, is only noted)
_PARAMETERS = {
    "stop-process": "name processname id inputobject whatif",
    "get-process": "name id processname computername",
    "stop-service": "name displayname inputobject whatif exclude include",
    "get-service": "name displayname computername include exclude inputobject",
    "restart-computer": "computername whatif",
    "start-process": "filepath argumentlist verb workingdirectory",
    "invoke-expression": "command",
}
#: the common parameters that take a value, and their aliases
_COMMON_VALUES = ("erroraction", "warningaction", "informationaction", "progressaction", "errorvariable",
                  "warningvariable", "informationvariable", "outvariable", "outbuffer", "pipelinevariable",
                  "ea", "wa", "infa", "proga", "ev", "wv", "iv", "ov", "ob", "pv")
#: cmdlets that pass on some or all of the objects piped into them
_FILTERS = frozenset("where-object where ? select-object select sort-object sort foreach-object foreach % "
                     "group-object out-gridview".split())
_WMI = ("-wmi", "-cim", "gwmi", "gcim", "[wmi")  # what names WMI: its cmdlets, aliases, type accelerators
#: WMI and .NET name what they stop by a filter, a query, a handle or an object, which the guard
#: does not read: a stop through them is asked about (``_unread``)
_WHY = "a WMI or .NET stop names its target in a way the guard does not read"


def _powershell(judge, args, context, depth):
    """``pwsh -Command TEXT`` / ``-EncodedCommand BASE64``: the text runs as PowerShell;
    ``-File`` runs a file the text does not hold; a bare operand is the command."""
    i = 0
    while i < len(args):
        name = args[i].lower().lstrip("-/")
        command = name == "c" or len(name) >= 3 and "command".startswith(name)
        if args[i][:1] not in "-/" or not name or command:  # the text is the rest, after -Command
            return judge.shell(" ".join(args[i + command:]), "powershell", depth + 1)
        if name in ("e", "ec") or (len(name) >= 3 and "encodedcommand".startswith(name)):
            import binascii  # a shared library, loaded only for an encoded command: start-up

            try:
                text = binascii.a2b_base64(args[i + 1].encode("ascii"), strict_mode=True).decode("utf-16-le")
            except (IndexError, ValueError, UnicodeError):
                raise Unreadable("unreadable", "an encoded PowerShell command cannot be decoded") from None
            return judge.shell(text, "powershell", depth + 1)
        if name == "f" or (len(name) >= 2 and "file".startswith(name)):
            return None
        i += 2 if name in _PWSH_VALUES else 1
    return None


def _cmd_shell(judge, args, context, depth):
    """``cmd /c TEXT`` (and ``/k``, ``/r``, or the text glued on): the text runs as ``cmd``."""
    for i, word in enumerate(args):
        if word[:2].lower() in ("/c", "/k", "/r") and word[2:3] != " ":
            return judge.shell(" ".join([word[2:], *args[i + 1:]]), "cmd", depth + 1)
    return None


def _cmd_start(judge, args, context, depth):
    """``cmd``'s ``start ["TITLE"] [/b /wait /min /d DIR ...] COMMAND``: the command it starts."""
    i = 1 if args and getattr(args[0], "raw", "").startswith('"') else 0
    while i < len(args) and args[i][:1] == "/":
        i += 2 if args[i].lower() in ("/d", "/node", "/affinity", "/machine") else 1
    return args[i:] or None


def _ps_params(args, cmdlet):
    """A cmdlet's parameters (any case, any unambiguous prefix, ``-Name:value`` too) -> name ->
    values, a comma separating several; positional values under ``""``."""
    names, values, words = _PARAMETERS[cmdlet].split(), {}, iter(args)
    for word in words:
        name = ""
        if word[:1] == "-" and len(word) > 1 and not word[1:].lstrip("-").isdigit():
            given, colon, word = word[1:].partition(":")
            name = next((n for n in names if n.startswith(given.lower())), given.lower())
            if name not in names and not colon and any(p.startswith(name) for p in _COMMON_VALUES):
                next(words, "")  # -ErrorAction SilentlyContinue: a common parameter's value
            if name == "whatif" and word.lower() == "$false":
                continue  # -WhatIf:$false stops as if the switch were not given
            if name not in names or name == "whatif":
                word = ""  # a switch, or a parameter the guard does not read: no value
            elif not colon:
                word = next(words, "")
        parts = [_unquoted(part.strip()) for part in str(word).split(",") if part.strip()]
        values.setdefault(name, []).extend(map(computed, parts) if getattr(word, "dynamic", False) else parts)
    return values


def _unquoted(text):
    """A comma list's item without the quotes around it (``a,'b'``); a quote inside stays."""
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"" else text


def _joined(values, *names):
    return [value for name in names for value in values.get(name, ())]


def _start_process(judge, args, context, depth):
    """``Start-Process FILE -ArgumentList ARGS``: a wrapper of the program and its arguments."""
    values = _ps_params(args, "start-process")
    program = values.get("filepath") or values.get("")
    extra = values.get("argumentlist", []) + values.get("", [])[1:]  # each already split at commas
    words = [word for command in read(" ".join(extra)) for word in command.words]  # "..." groups words
    return [program[0]] + words if program else None


def _iex(judge, args, context, depth):
    """``Invoke-Expression [-Command] TEXT``: the text runs as PowerShell."""
    text = " ".join(_joined(_ps_params(args, "invoke-expression"), "command", ""))
    return judge.shell(text, "powershell", depth + 1) if text else None


def _taskkill(judge, args, context, depth):
    """``taskkill /IM NAME``, ``/PID N``, ``/FI "IMAGENAME eq NAME"`` or ``"PID eq N"``; not ``/S``."""
    lowered = [a.lower() for a in args]
    for option, value in zip(lowered, args[1:]) if "/s" not in lowered else ():
        parts = value.split()
        if option in ("/fi", "-fi") and len(parts) == 3 and parts[1].lower() == "eq":  # as /IM or /PID
            option, value = {"imagename": "/im", "pid": "/pid"}.get(parts[0].lower()), parts[2]
        if option in ("/im", "-im") and _name_hits(value, judge.host.killable()):
            return "process_kill"
        if option in ("/pid", "-pid") and judge.hits_pid(value):
            return "host_kill"
    return None


def _name_hits(pattern, names):
    """Whether a name pattern (wildcards, any case, with or without a path) names one of ``names``."""
    if getattr(pattern, "dynamic", False):
        raise Unreadable("unreadable", "a kill by name takes its pattern from a variable")
    asked = program_name(pattern)
    return any(glob_match(asked, program_name(name), fold=True) or glob_match(pattern, name, fold=True)
               for name in names)


def _stop_process(judge, args, context, depth):
    """``Stop-Process -Name NAME | -Id ID``; without either, what ``Get-Process`` pipes it: the
    processes it names, else all of them."""
    values = _ps_params(args, "stop-process")
    if "whatif" in values or "inputobject" in values:
        return None
    names, ids, lines, paths = _joined(values, "name", "processname"), _joined(values, "id", ""), [], []
    if not names and not ids:
        values = _piped(context, "get-process")
        if values is None:
            return None
        names, ids = _joined(values, "name", "processname", ""), _joined(values, "id")
        lines, paths = _joined(values, "commandline"), _joined(values, "path")  # a filter's
        if not names and not ids and not lines and not paths:
            return "host_kill"  # every process
    if any(word not in ("0", "-0", "-1") and judge.hits_pid(word) for word in ids):
        return "host_kill"  # an id in a variable passes, as kill $SERVER_PID does: it is not evaluated
    files = [*judge.host.killable(), *(name + ".exe" for name in judge.host.killable())]
    return "process_kill" if any(_name_hits(name, judge.host.killable()) for name in names) or \
        any(_name_hits(line, judge.host.command_lines) for line in lines) or \
        any(_name_hits(path, files) for path in paths) else None


def _foreach(judge, words, context, depth):
    """``ForEach-Object { Stop-Process -Id $_.ProcessId }`` stops each process piped in, as
    ``Stop-Process`` piped them would; a method called on them is the stop-method rule's."""
    block = [command.words for word in words for program in word.nested for command in program]
    stops = [args for verb, *args in filter(None, block)
             if _ALIASES.get(("powershell", verb.lower()), verb.lower()) == "stop-process"]
    if any(str(arg).lower().startswith(("$_", "$psitem")) for args in stops for arg in args):
        return _stop_process(judge, [], context, depth)
    return _stop_method(judge, words, context, depth)


def _windows_service(judge, args, context, depth):
    """``Restart-``/``Stop-``/``Suspend-Service NAME``; without one, what ``Get-Service`` pipes
    it: the services it names, else all of them (the host's among them)."""
    values = _ps_params(args, "stop-service")
    names = _joined(values, "name", "displayname", "")
    if "whatif" in values:
        return None
    if not names and "inputobject" not in values and judge.host.units:
        values = _piped(context, "get-service", "gsv")  # gsv: the kernel does not expand it
        names = _joined(values or {}, "name", "displayname", "")
        if values is not None and not names:
            judge.unit = judge.host.units[0]
            return "service_restart"
    return "service_restart" if any(judge.matches_unit(name, fold=True) for name in names) else None


def _sc_net(judge, args, context, depth):
    """``sc stop|pause NAME`` (not ``sc \\\\server ...``) and ``net stop NAME``: ``Stop-Service NAME``."""
    stops = len(args) >= 2 and args[0].lower() in ("stop", "pause")
    return _windows_service(judge, args[1:2], context, depth) if stops else None


def _windows_machine(judge, args, context, depth):
    """``Restart-Computer`` / ``Stop-Computer``, unless aimed at another computer."""
    values = _ps_params(args, "restart-computer")
    others = [c for c in values.get("computername", []) if c.lower() not in THIS_COMPUTER]
    return None if "whatif" in values or others else "host_shutdown"


def _upstream(context):
    """The commands that pipe into this one, nearest first, with their verbs."""
    command, previous = context.command, context.previous
    while command is not None and command.piped and previous is not None:
        verb = program_name(previous.words[0]).lower() if previous.words else ""
        yield previous, _ALIASES.get(("powershell", verb), verb)
        command, previous = previous, _before(context.chain, previous)


def _piped(context, *source):
    """The parameters of the ``source`` cmdlet (by any of its names) whose objects a pipeline hands
    this stop; ``None`` if none does, or another computer's. Through a filter they must name them,
    or a ``Where-Object`` filter must name what it passes on."""
    named = None
    for filtered, (previous, verb) in enumerate(_upstream(context)):
        if "process]::getprocess" in verb:  # a .NET lookup feeding the stop
            raise Unreadable("unreadable", _WHY)
        if verb in ("where-object", "where", "?") and named is None:
            named = _where_names(previous.words[1:])
        if verb not in _FILTERS:
            values = _process_query(previous.words) if source[0] == "get-process" else None
            if values is None:
                values = _ps_params(previous.words[1:], source[0])
                if verb not in source or "computername" in values:
                    return None
            if filtered and not any(values.get(k) for k in ("", "name", "processname", "id", "displayname")):
                if named is not None:
                    return named
                what = "processes" if source[0] == "get-process" else "services"
                raise Unreadable("unreadable", f"which {what} a filter passes to a stop cannot be read")
            return values
    return None


#: Where-Object's comparisons of a name, in any case: ``-eq``, ``-like`` (wildcards), ``-match`` (a pattern)
_COMPARISONS = {f"-{case}{op}": op for case in ("", "i", "c") for op in ("eq", "like", "match")}
#: What a Where-Object filter compares -> what the stop matches it against
_SUBJECTS = {"name": "name", "processname": "name", "displayname": "name", "commandline": "commandline",
             "path": "path", "executablepath": "path"}


def _where_names(args):
    """What a ``Where-Object`` filter passes on, as wildcards of names, command lines or program
    files: ``{$_.ProcessName -eq 'node'}``, ``{$_.Name -like '*node*' -or $_.CommandLine -match
    'vite'}``, ``Name -eq node``, ``{$_.Path -like '*vite*'}``; each clause (between ``-or``) a
    comparison of one of them, which an ``-and`` after it only narrows. ``None`` when the filter
    says otherwise, or names a program file's folder: where the host's file lies is not observed."""
    blocks = [program for word in args for program in word.nested]
    words = [w for command in blocks[0] for w in command.words] if len(blocks) == 1 else args
    named, clauses = {}, [[]]
    for word in words:
        if str(word).lower() == "-or":
            clauses.append([])
        else:
            clauses[-1].append(word)
    for subject, operator, value, *rest in (clause + [""] * 3 for clause in clauses):
        subject, kind = subject.lower().removeprefix("$_."), _COMPARISONS.get(operator.lower())
        key = _SUBJECTS.get(subject)
        if not key or not kind or not value or getattr(value, "dynamic", False) or \
                rest[0] and str(rest[0]).lower() != "-and":
            return None
        try:
            patterns = _globs(value, False) if kind == "match" else [value]
        except Unreadable:
            return None
        if key == "path" and any(p.replace("\\", "/").rpartition("/")[0].strip("*") for p in patterns):
            return None
        named.setdefault(key, []).extend(patterns)
    return named


def _process_query(words):
    """``Get-CimInstance Win32_Process [-Filter "Name='x.exe'"]`` (``gcim``, ``Get-WmiObject``,
    ``gwmi``): the processes it gets, as ``Get-Process``'s parameters (a filter's names and
    process ids); ``None`` for another command."""
    lowered = [str(word).lower() for word in words]
    if lowered[:1] not in (["get-ciminstance"], ["gcim"], ["get-wmiobject"], ["gwmi"]) or \
            "win32_process" not in lowered:
        return None
    text = " ".join(lowered[1:])
    tokens = [t for t in text.replace("=", " = ").replace("'", " ").replace('"', " ").split() if t != "-filter"]
    found = {}
    for subject, operator, value in zip(tokens, tokens[1:], tokens[2:]):
        if subject in ("name", "processid") and operator in ("=", "like"):
            found.setdefault("name" if subject == "name" else "id", []).append(value.replace("%", "*"))
    return found


def _stop_method(judge, words, context, depth):
    """A stop method (``PS_STOP_METHODS``) named as a word (``wmic ... delete``, ``... call terminate``,
    ``Invoke-CimMethod -MethodName Terminate``) or called: ``.Kill()`` on anything (``(gps X).Kill()``,
    ``% { $_.Kill() }``), another (``.Terminate()``) on what WMI's cmdlets get or pipe in."""
    upstream = [verb for _, verb in _upstream(context)]
    for word in map(str.lower, words):
        named = word.rpartition(":")[2].strip("'\"") in PS_STOP_METHODS
        called = {call.partition("(")[0] for call in word.split(".")[1:] if "(" in call}
        wmi = any(marker in text for marker in _WMI for text in [word, *upstream])
        if named or "kill" in called or called & set(PS_STOP_METHODS) and wmi:
            return _unread(judge, words, context)
    return None  # another method (``(Get-Item F).Delete()``), or none (``wmic os get``)


def _unread(judge, words, context, depth=0):
    """The one rule of WMI's and .NET's stops (and ``Remove-CimInstance``): asked about, unless sent
    plainly (no variable) to another computer by ``-ComputerName`` or ``/node:`` (here or upstream)."""
    text = " ".join(map(str, [*words, *(w for c, _ in _upstream(context) for w in c.words)]))
    words = text.replace("(", " ").replace(")", " ").lower().split()
    for word, after in zip(words, [*words[1:], ""]):
        name, colon, value = word.partition(":")
        name = name.lstrip("-/") if word[:1] in "-/" else ""
        if name in ("node", "cn") or len(name) >= 4 and "computername".startswith(name):
            computers = [v.strip("'\" ") for v in (value if colon else after).split(",")]
            if all(v and v[0] != "$" and v not in THIS_COMPUTER for v in computers):
                return None
    raise Unreadable("unreadable", _WHY)
