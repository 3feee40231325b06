"""The guard's rules for Windows (spec/gates/guard.md): PowerShell's process, service and computer
cmdlets (``Stop-Process`` and ``.Kill()`` of what it names or what ``Get-Process`` pipes it,
``Restart-Service`` of what it names or ``Get-Service`` pipes it, ``Restart-Computer``), ``taskkill``,
``wmic`` and WMI's cmdlets (``Invoke-CimMethod``, ``Remove-CimInstance``, ``.Terminate()``),
``sc``/``net stop``, and what runs other commands (``pwsh -Command``, ``cmd /c``,
``Invoke-Expression``, ``Start-Process``). The kernel loads it only for these verbs: start-up.
"""

from passdown.gates._guard_judge import (PS_STOP_METHODS, _ALIASES, _before, _Context, _Dynamic, glob_match,
                                        program_name)
from passdown.gates._guard_read import Command, Unreadable, Word

#: pwsh's own options that take a value
_PWSH_VALUES = frozenset({"executionpolicy", "ep", "ex", "windowstyle", "w", "configurationname",
                          "inputformat", "outputformat", "workingdirectory", "wd", "settingsfile",
                          "version", "psconsolefile"})
#: cmdlet -> the parameters the guard reads, in the order an abbreviation (``-n``) resolves to them
_PARAMETERS = {
    "stop-process": "name processname id inputobject whatif force passthru confirm",
    "get-process": "name id processname includeusername module fileversioninfo computername",
    "stop-service": "name displayname inputobject force whatif passthru exclude include",
    "get-service": "name displayname computername include exclude inputobject",
    "restart-computer": "computername whatif force wait",
    "start-process": "filepath argumentlist verb workingdirectory",
    "invoke-expression": "command",
    "get-ciminstance": "classname class filter query namespace computername",
    "invoke-cimmethod": "classname class methodname name query inputobject computername path arguments",
}
_SWITCHES = frozenset({"whatif", "force", "passthru", "confirm", "wait", "includeusername", "module",
                       "fileversioninfo"})
#: cmdlets that pass on some or all of the objects piped into them
_FILTERS = frozenset({"where-object", "where", "?", "select-object", "select", "sort-object", "sort",
                      "foreach-object", "foreach", "%", "group-object", "out-gridview"})
#: .NET's process lookups -> the ``Get-Process`` parameter each stands for
_LOOKUPS = {"::getprocessbyid(": "-Id", "::getprocessesbyname(": "-Name", "::getprocesses(": None}
#: wmic alias -> the actions (``delete``, or the method ``call``ed) that stop what it names
_WMIC_STOPS = {"os": ("reboot", "shutdown", "win32shutdown", "win32shutdowntracker"),
               "service": ("stopservice", "delete", "pauseservice"), "process": ("delete", "terminate")}
#: other names of the pipeline sources that the kernel's aliases do not expand
_SHORT = {"get-service": ("gsv",), "get-ciminstance": ("gcim", "get-wmiobject", "gwmi")}
#: WMI classes -> the wmic alias that names them
_WMI_CLASSES = {"win32_process": "process", "win32_operatingsystem": "os", "win32_service": "service"}
#: WMI's methods that stop the instances they are called on
_WMI_METHODS = tuple(method for method in PS_STOP_METHODS if method != "kill")
_THIS_COMPUTER = ("localhost", ".", "127.0.0.1")


def _powershell(judge, args, context, depth):
    """``pwsh -Command TEXT`` / ``-EncodedCommand BASE64``: the text runs as PowerShell;
    ``-File`` runs a file the text does not hold; a bare operand is the command."""
    i = 0
    while i < len(args):
        word, name = args[i], args[i].lower().lstrip("-/")
        if word[:1] not in "-/" or not name:
            return judge.shell(" ".join(args[i:]), "powershell", depth + 1)
        if name == "c" or (len(name) >= 3 and "command".startswith(name)):
            return judge.shell(" ".join(args[i + 1:]), "powershell", depth + 1) if args[i + 1:] else None
        if name in ("e", "ec") or (len(name) >= 3 and "encodedcommand".startswith(name)):
            import binascii  # only for an encoded command

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
        if word.lower() in ("/c", "/k", "/r"):
            return judge.shell(" ".join(args[i + 1:]), "cmd", depth + 1)
        if word[:2].lower() in ("/c", "/k") and len(word) > 2 and word[2] != " ":
            return judge.shell(word[2:] + " " + " ".join(args[i + 1:]), "cmd", depth + 1)
    return None


def _ps_params(args, cmdlet):
    """A cmdlet's parameters (any case, any unambiguous prefix, ``-Name:value`` too) -> name ->
    values, a comma separating several; positional values under ``""``."""
    names, values, i = _PARAMETERS[cmdlet].split(), {}, 0
    while i < len(args):
        word, name = args[i], ""
        if word[:1] == "-" and len(word) > 1 and not word[1:].lstrip("-").isdigit():
            given, colon, word = word[1:].partition(":")
            given = given.lower()
            name = given if given in names else next((n for n in names if n.startswith(given)), given)
            if name not in names or name in _SWITCHES:
                word = ""  # a switch, or a parameter the guard does not read: no value
            elif not colon and i + 1 == len(args):
                break  # the value is missing
            elif not colon:
                i += 1
                word = args[i]
        parts = [part.strip().strip("'\"") for part in str(word).split(",") if part.strip()]
        values.setdefault(name, []).extend(map(_Dynamic, parts) if getattr(word, "dynamic", False) else parts)
        i += 1
    return values


def _joined(values, *names):
    return [value for name in names for value in values.get(name, ())]


def _start_process(judge, args, context, depth):
    """``Start-Process FILE -ArgumentList ARGS``: a wrapper of the program and its arguments."""
    values = _ps_params(args, "start-process")
    program = values.get("filepath") or values.get("")
    if not program:
        return None
    extra = values.get("argumentlist", []) + values.get("", [])[1:]  # each already split at commas
    return [program[0]] + [word for item in extra for word in item.split()]


def _iex(judge, args, context, depth):
    text = " ".join(_joined(_ps_params(args, "invoke-expression"), "command", ""))
    return judge.shell(text, "powershell", depth + 1) if text else None


def _taskkill(judge, args, context, depth):
    """``taskkill /IM NAME`` (wildcards), ``/PID N``, ``/FI "IMAGENAME eq NAME"`` or ``"PID eq N"``."""
    lowered = [a.lower() for a in args]
    if "/s" in lowered:
        return None  # another computer
    for option, value in zip(lowered, args[1:]):
        if option in ("/fi", "-fi"):  # a filter on the image name or the id: as /IM or /PID
            parts = value.split()
            if len(parts) != 3 or parts[1].lower() != "eq":
                continue
            option, value = {"imagename": "/im", "pid": "/pid"}.get(parts[0].lower()), parts[2]
        if option in ("/im", "-im") and _name_hits(value, judge.host.names):
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
    """``Stop-Process -Name NAME | -Id ID``; without either, the processes piped into it."""
    values = _ps_params(args, "stop-process")
    if "whatif" in values or "inputobject" in values:
        return None
    names, ids = _joined(values, "name", "processname"), _joined(values, "id", "")
    return _processes(judge, names, ids) if names or ids else _ps_piped(judge, context)


def _processes(judge, names, ids):
    """A stop of the processes with these ids (``$PID``, PowerShell itself, excepted) or names."""
    for word in ids:
        if isinstance(word, _Dynamic) and word != "$PID":
            raise Unreadable("unreadable", "a stop takes its process id from a variable")
        if word not in ("0", "-0", "-1") and judge.hits_pid(word):
            return "host_kill"
    return "process_kill" if any(_name_hits(name, judge.host.names) for name in names) else None


def _piped(context, source):
    """The parameters of the ``source`` cmdlet (``Get-Process``, ``Get-Service``) whose objects a
    pipeline hands this command (``None`` if none does, or from another computer), and whether a
    filter stands between them."""
    command, previous, filtered = context.command, context.previous, False
    while command is not None and command.piped and previous is not None:
        words = previous.words
        if source == "get-process":  # .NET's process lookups stand for Get-Process
            words = (words and _dotnet_lookup(words[0])) or words
        verb = program_name(words[0]).lower() if words else ""
        verb = _ALIASES.get(("powershell", verb), verb)
        if verb not in _FILTERS:
            values = _ps_params(words[1:], source)
            found = verb in (source, *_SHORT.get(source, ())) and "computername" not in values
            return values if found else None, filtered
        filtered = True
        command, previous = previous, _before(context, previous)
    return None, filtered


def _ps_piped(judge, context):
    """A stop of the processes ``Get-Process`` pipes it: those it names, else all of them."""
    values, filtered = _piped(context, "get-process")
    if values is None:
        return None
    names, ids = _joined(values, "name", "processname", ""), _joined(values, "id")
    if names or ids:
        return _processes(judge, names, ids)
    if filtered:
        raise Unreadable("unreadable", "which processes a filter passes to a stop cannot be read")
    return "host_kill"


def _dotnet_lookup(word):
    """``[Diagnostics.Process]::GetProcessById(ID)`` (or ``ByName``, or all) as the ``Get-Process``
    it stands for; ``None`` for any other word."""
    lowered = word.lower()
    for method, parameter in _LOOKUPS.items():
        at = lowered.find(method)
        if at < 0 or "process]" not in lowered[:at]:
            continue
        if parameter is None:
            return [Word("Get-Process")]
        argument = word[at + len(method):].partition(")")[0].strip().strip("'\"")
        if not argument or (argument[:1] == "$" and argument.lower() != "$pid") or "(" in argument:
            raise Unreadable("unreadable", "a process lookup takes its target from a variable")
        return [Word("Get-Process"), Word(parameter), Word(argument.split(",")[0].strip())]
    return None


def _ps_method_kill(judge, words):
    """``(Get-Process NAME).Kill()`` and ``[Diagnostics.Process]::GetProcessById(ID).Kill()``:
    a stop of what the parenthesis gets or the lookup finds, as if piped to ``Stop-Process``;
    ``(Get-WmiObject CLASS -Filter F).Terminate()`` (or ``.Reboot()``...): the ``wmic`` call."""
    for word in words:
        method = word.lower().rpartition(").")[2].partition("(")[0]
        lookup = _dotnet_lookup(word) if method == "kill" else None
        programs = [[Command(False)]] if lookup else [p for p in getattr(word, "nested", ()) if p]
        if lookup:
            programs[0][0].words = lookup
        for program in programs:
            stop = Command(True)
            stopped = _Context(stop, program[-1], "powershell", chain=[*program, stop])
            verdict = _ps_piped(judge, stopped) if method == "kill" else _wmi_piped(judge, stopped, method)
            if verdict:
                return verdict
    return None


def _foreach_kill(judge, args, context, depth):
    """``... | ForEach-Object { $_.Kill() }`` (or a WMI method): a stop of what is piped in."""
    for word in args:
        method = str(word).lower().rpartition("$_.")[2].partition("(")[0]
        if method == "kill":
            return _ps_piped(judge, context)
        if method in _WMI_METHODS:
            return _wmi_piped(judge, context, method)
    return None


def _cim_invoke(judge, args, context, depth):
    """``Invoke-CimMethod``/``Invoke-WmiMethod`` of a WMI class, a query, or the instances that
    ``Get-CimInstance``/``Get-WmiObject`` pipe it: the ``wmic`` call it stands for."""
    values = _ps_params(args, "invoke-cimmethod")
    method = (_joined(values, "methodname", "name") or values.get("", [])[1:2] or [""])[0]
    if _wmi_class(values) or "query" in values:
        return None if "computername" in values else _wmi(judge, values, method.lower())
    return _wmi_piped(judge, context, method.lower())


def _cim_remove(judge, args, context, depth):
    """``Remove-CimInstance``/``Remove-WmiObject`` of the instances piped in or queried: a delete."""
    values = _ps_params(args, "invoke-cimmethod")
    return _wmi(judge, values, "delete") if "query" in values else _wmi_piped(judge, context, "delete")


def _wmi_piped(judge, context, method):
    values, _ = _piped(context, "get-ciminstance")
    return None if values is None else _wmi(judge, values, method)


def _wmi_class(values):
    return (_joined(values, "classname", "class", "") or [""])[0].lower()


def _wmi(judge, values, method):
    """A WMI method of a class's instances (``-Filter``) or a WQL query's, as ``wmic ALIAS where
    FILTER call METHOD``."""
    query = " ".join(values.get("query", []))
    if query:
        head, _, where = query.replace(" WHERE ", " where ").partition(" where ")
        name = head.lower().partition(" from ")[2].split()[:1]
    else:
        name, where = [_wmi_class(values)], " ".join(values.get("filter", []))
    alias = _WMI_CLASSES.get(name[0] if name else "")
    if alias is None or method not in _WMI_METHODS:
        return None
    return _wmic(judge, [alias, *(["where", where] if where else []), "call", method], None, 0)


def _windows_service(judge, args, context, depth):
    """``Restart-``/``Stop-``/``Suspend-Service NAME``; without one, what ``Get-Service`` pipes
    it: the services it names, else all of them (the host's among them)."""
    values = _ps_params(args, "stop-service")
    names = _joined(values, "name", "displayname", "")
    if "whatif" in values:
        return None
    if not names and "inputobject" not in values:
        values, filtered = _piped(context, "get-service")
        if values is None or not judge.host.units:
            return None
        names = _joined(values, "name", "displayname", "")
        if not names and filtered:
            raise Unreadable("unreadable", "which services a filter passes to a stop cannot be read")
        if not names:
            judge.unit = judge.host.units[0]
            return "service_restart"
    return _service_hit(judge, names)


def _service_hit(judge, names):
    return "service_restart" if any(judge.matches_unit(name, fold=True) for name in names) else None


def _sc_net(judge, args, context, depth):
    """``sc stop|pause NAME`` (not ``sc \\\\server ...``) and ``net stop NAME``."""
    return _service_hit(judge, args[1:2]) if len(args) >= 2 and args[0].lower() in ("stop", "pause") else None


def _windows_machine(judge, args, context, depth):
    """``Restart-Computer`` / ``Stop-Computer``, unless aimed at another computer."""
    values = _ps_params(args, "restart-computer")
    others = [c for c in values.get("computername", []) if c.lower() not in _THIS_COMPUTER]
    return None if "whatif" in values or others else "host_shutdown"


def _wmic(judge, args, context, depth):
    """``wmic process where CLAUSE delete`` (or ``call terminate``, or a handle for the clause),
    ``wmic service ... call stopservice``, ``wmic os call reboot``; not ``/node:`` another computer."""
    if any(w.lower().startswith("/node:") and w[6:].lower().strip("'\"") not in _THIS_COMPUTER for w in args):
        return None
    words = [w for w in args if not w.startswith("/")]
    low = [w.lower() for w in words]
    end = next((i for i, w in enumerate(low) if i and w in ("delete", "call")), None)
    if end is None:
        return None
    action = low[end + 1] if low[end] == "call" and end + 1 < len(low) else low[end]
    alias, clause = low[0], words[1:end]
    if action not in _WMIC_STOPS.get(alias, ()):
        return None
    if alias == "os":
        return "host_shutdown"
    if alias == "service":
        return _service_hit(judge, [n for n in _wql(clause, "name", "displayname") if not n.startswith("%")])
    if not clause:
        return "host_kill"  # every process
    if clause[0].lower() != "where":  # a handle: the process id
        return "host_kill" if judge.hits_pid(clause[0]) else None
    ids = _wql(clause, "processid", "handle", "parentprocessid")
    names = _wql(clause, "name", "caption", "commandline", "executablepath")
    if any(judge.hits_pid(i) for i in ids):
        return "host_kill"
    lines = judge.host.names + judge.host.command_lines  # WQL's wildcards as the shell's
    if any(_name_hits(name.replace("%", "*").replace("_", "?"), lines) for name in names):
        return "process_kill"
    if not ids and not names and judge.host.names:
        raise Unreadable("unreadable", "which processes a WMI filter passes to a stop cannot be read")
    return None


def _wql(words, *keys):
    """The values a WQL clause compares ``keys`` to with ``=`` or ``like``, unquoted."""
    text = " ".join(str(w) for w in words).replace("(", " ").replace(")", " ")
    tokens = text.replace("=", " = ").replace("! =", "!=").replace("< >", "<>").split()
    return [value.strip("'\"") for key, operator, value in zip(tokens, tokens[1:], tokens[2:])
            if key.lower().strip("'\"") in keys and operator.lower() in ("=", "like")]
