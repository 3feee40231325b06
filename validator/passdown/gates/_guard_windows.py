"""The guard's rules for Windows shells and their commands (spec/gates/guard.md): PowerShell's
``Stop-Process`` (by name, by id, or of what ``Get-Process`` or .NET's process lookups hand it,
their ``.Kill()``), ``Restart-Service``/``Stop-Service`` (named, or of what ``Get-Service``
pipes into them), ``Restart-Computer``/``Stop-Computer``, ``Invoke-Expression`` and
``Start-Process``; ``taskkill``, ``wmic``, ``sc`` and ``net``; the payloads of
``pwsh -Command``/``-EncodedCommand`` and ``cmd /c``.

The kernel (:mod:`passdown.gates._guard_judge`) loads this module only when a command names
one of these verbs, so that judging a POSIX command never pays for them.
"""

from passdown.gates._guard_judge import _ALIASES, _before, _Context, _Dynamic, glob_match, program_name
from passdown.gates._guard_read import Command, Unreadable, Word


_PS_VALUES = frozenset({"executionpolicy", "ep", "ex", "windowstyle", "w", "configurationname",
                        "inputformat", "outputformat", "workingdirectory", "wd", "settingsfile",
                        "version", "psconsolefile"})


def _powershell(judge, args, context, depth):
    """``pwsh -Command TEXT`` / ``-EncodedCommand BASE64``: the text runs as PowerShell;
    ``-File`` runs a file the text does not hold; a bare operand is the command."""
    i = 0
    while i < len(args):
        word = args[i]
        name = word.lower().lstrip("-/")
        if word[:1] not in "-/" or not name:
            return judge.shell(" ".join(args[i:]), "powershell", depth + 1)
        if name in ("c", "command") or (len(name) >= 3 and "command".startswith(name)):
            return judge.shell(" ".join(args[i + 1:]), "powershell", depth + 1) if args[i + 1:] else None
        if name in ("e", "ec", "enc") or (len(name) >= 3 and "encodedcommand".startswith(name)):
            return judge.shell(_decode_encoded(args[i + 1:i + 2]), "powershell", depth + 1)
        if name in ("f", "file") or (len(name) >= 2 and "file".startswith(name)):
            return None
        i += 2 if name in _PS_VALUES else 1
    return None


def _decode_encoded(words):
    import binascii

    try:
        return binascii.a2b_base64(words[0].encode("ascii"), strict_mode=True).decode("utf-16-le")
    except (IndexError, ValueError, UnicodeError):
        raise Unreadable("unreadable", "an encoded PowerShell command cannot be decoded") from None


def _cmd_shell(judge, args, context, depth):
    """``cmd /c TEXT`` (and ``/k``): the text runs as ``cmd``."""
    for i, word in enumerate(args):
        if word.lower() in ("/c", "/k", "/r"):
            return judge.shell(" ".join(args[i + 1:]), "cmd", depth + 1)
        if word[:2].lower() in ("/c", "/k") and len(word) > 2 and word[2] != " ":
            return judge.shell(word[2:] + " " + " ".join(args[i + 1:]), "cmd", depth + 1)
    return None


def _start_process(judge, args, context, depth):
    """PowerShell's ``Start-Process FILE -ArgumentList ARGS``: the program and its arguments."""
    values = _ps_params(args, {"filepath": 1, "argumentlist": 1, "verb": 1, "workingdirectory": 1})
    program = (values.get("filepath") or values.get("")) or []
    if not program:
        return None
    extra = values.get("argumentlist", []) + values.get("", [])[1:]
    words = [w for item in extra for w in str(item).replace(",", " ").split()]
    return [program[0]] + words


def _taskkill(judge, args, context, depth):
    """``taskkill /IM NAME`` (wildcards), ``/PID N``, ``/FI "IMAGENAME eq NAME"``."""
    lowered = [a.lower() for a in args]
    if "/s" in lowered:
        return None  # another computer
    for i, word in enumerate(lowered[:-1]):
        value = args[i + 1]
        if word in ("/im", "-im"):
            if _windows_name_hits(judge, value):
                return "process_kill"
        elif word in ("/pid", "-pid") and judge.hits_pid(value):
            return "host_kill"
        elif word in ("/fi", "-fi"):
            parts = value.split()
            if len(parts) == 3 and parts[0].lower() == "imagename" and parts[1].lower() == "eq" and \
                    _windows_name_hits(judge, parts[2]):
                return "process_kill"
            if len(parts) == 3 and parts[0].lower() == "pid" and parts[1].lower() == "eq" and \
                    judge.hits_pid(parts[2]):
                return "host_kill"
    return None


def _windows_name_hits(judge, pattern):
    if getattr(pattern, "dynamic", False):
        raise Unreadable("unreadable", "a kill by name takes its pattern from a variable")
    asked = program_name(pattern)
    return any(glob_match(asked, program_name(name), fold=True) or
               glob_match(pattern, name, fold=True) for name in judge.host.names)


def _ps_params(args, takes_value):
    """PowerShell parameters (any case, any unambiguous prefix) -> name -> values; positional
    values under ``""``. ``-Name:value`` is read too; commas split a value into several."""
    values, i = {}, 0
    names = tuple(takes_value)
    while i < len(args):
        word = args[i]
        if word[:1] == "-" and len(word) > 1 and not word[1:].lstrip("-").isdigit():
            given, colon, inline = word[1:].partition(":")
            given = given.lower()
            full = next((n for n in names if n == given), None) or \
                next((n for n in names if n.startswith(given)), given)
            if full in takes_value and takes_value[full]:
                if colon:
                    values.setdefault(full, []).extend(_split_commas(inline))
                elif i + 1 < len(args):
                    values.setdefault(full, []).extend(_split_commas(args[i + 1]))
                    i += 1
            else:
                values.setdefault(full, [])
        else:
            values.setdefault("", []).extend(_split_commas(word))
        i += 1
    return values


def _split_commas(word):
    parts = [part.strip().strip("'\"") for part in str(word).split(",") if part.strip()]
    if getattr(word, "dynamic", False):
        return [_Dynamic(p) for p in parts]
    return parts


_PS_STOP = {"name": 1, "processname": 1, "id": 1, "inputobject": 1, "whatif": 0, "force": 0,
            "passthru": 0, "confirm": 0}


def _stop_process(judge, args, context, depth):
    """``Stop-Process -Name NAME | -Id ID``; without either, the processes piped into it."""
    values = _ps_params(args, _PS_STOP)
    if "whatif" in values:
        return None
    names = values.get("name", []) + values.get("processname", [])
    ids = values.get("id", []) + values.get("", [])
    if "inputobject" in values:
        return None
    verdict = _ps_targets(judge, names, ids)
    if verdict or names or ids:
        return verdict
    return _ps_piped(judge, context)


def _ps_targets(judge, names, ids):
    for word in ids:
        if word in ("$PID",):
            continue
        if isinstance(word, _Dynamic):
            raise Unreadable("unreadable", "a stop takes its process id from a variable")
        if judge.hits_pid(word) and word not in ("0", "-0", "-1"):
            return "host_kill"
    for name in names:
        if _windows_name_hits(judge, name):
            return "process_kill"
    return None


_PS_GET = {"name": 1, "id": 1, "processname": 1, "includeusername": 0, "module": 0,
           "fileversioninfo": 0, "computername": 1}


_PS_FILTERS = frozenset({"where-object", "where", "?", "select-object", "select", "sort-object",
                         "sort", "foreach-object", "foreach", "%", "group-object", "out-gridview"})


def _ps_piped(judge, context):
    """The processes a pipeline hands to ``Stop-Process``: from ``Get-Process``'s names or
    ids; every process when it names none; a filter between them cannot be read."""
    command, previous, filtered = context.command, context.previous, False
    while command is not None and command.piped and previous is not None:
        words = (previous.words and _dotnet_lookup(previous.words[0])) or previous.words
        verb = program_name(words[0]).lower() if words else ""
        verb = _ALIASES.get(("powershell", verb), verb)
        if verb == "get-process":
            values = _ps_params(words[1:], _PS_GET)
            if "computername" in values:
                return None
            names = values.get("name", []) + values.get("processname", []) + values.get("", [])
            ids = values.get("id", [])
            if not names and not ids:
                if filtered:
                    raise Unreadable("unreadable", "which processes a filter passes to a stop "
                                                   "cannot be read")
                return "host_kill"
            return _ps_targets(judge, names, ids)
        if verb not in _PS_FILTERS:
            return None
        filtered = True
        command, previous = previous, _before(context, previous)
    return None


def _dotnet_lookup(word):
    """``[Diagnostics.Process]::GetProcessById(ID)`` and ``::GetProcessesByName(NAME)``, read as
    the ``Get-Process`` they stand for; ``None`` for any other word."""
    text = str(word)
    lowered = text.lower()
    for method, parameter in (("::getprocessbyid(", "-Id"), ("::getprocessesbyname(", "-Name"),
                              ("::getprocesses(", None)):
        at = lowered.find(method)
        if at < 0 or "process]" not in lowered[:at]:
            continue
        close = text.find(")", at)
        argument = text[at + len(method):close if close >= 0 else len(text)].strip().strip("'\"")
        if parameter is None:
            return [Word("Get-Process")]
        if argument.lower() == "$pid":  # PowerShell's own process, as Stop-Process -Id $PID
            argument = "$PID"
        elif not argument or argument.startswith("$") or "(" in argument:
            raise Unreadable("unreadable", "a process lookup takes its target from a variable")
        return [Word("Get-Process"), Word(parameter), Word(argument.split(",")[0].strip())]
    return None


def _ps_method_kill(judge, words):
    """``(Get-Process NAME).Kill()``: a stop of the processes the parenthesis gets, and
    ``[Diagnostics.Process]::GetProcessById(ID).Kill()``: of the process it looks up."""
    for word in words:
        lookup = _dotnet_lookup(word) if ").kill(" in word.lower() else None
        if lookup is not None:
            source, stop = Command(False), Command(True)
            source.words = lookup
            verdict = _ps_piped(judge, _Context(stop, source, "powershell", chain=[source, stop]))
            if verdict:
                return verdict
            continue
        for program in getattr(word, "nested", ()):
            if program:
                stop = Command(True)
                verdict = _ps_piped(judge, _Context(stop, program[-1], "powershell",
                                                    chain=list(program) + [stop]))
                if verdict:
                    return verdict
    return None


def _foreach_kill(judge, args, context, depth):
    """``... | ForEach-Object { $_.Kill() }``: a stop of the processes piped in."""
    if any(".kill(" in str(a).lower() for a in args):
        return _ps_piped(judge, context)
    return None


def _windows_service(judge, args, context, depth):
    """``Restart-Service`` / ``Stop-Service NAME``; ``sc stop NAME``; ``net stop NAME``."""
    values = _ps_params(args, {"name": 1, "displayname": 1, "inputobject": 1, "force": 0,
                               "whatif": 0, "passthru": 0, "exclude": 1, "include": 1})
    if "whatif" in values:
        return None
    names = values.get("name", []) + values.get("displayname", []) + values.get("", [])
    if not names and "inputobject" not in values:
        return _services_piped(judge, context)
    return "service_restart" if any(judge.matches_unit(n, fold=True) for n in names) else None


def _services_piped(judge, context):
    """The services a pipeline hands to ``Restart-Service``/``Stop-Service``: ``Get-Service``'s
    names; every service (the host's among them) when it names none; a filter between them
    cannot be read while the host's units are known."""
    command, previous, filtered = context.command, context.previous, False
    while command is not None and command.piped and previous is not None:
        words = previous.words
        verb = program_name(words[0]).lower() if words else ""
        if verb in ("get-service", "gsv"):
            values = _ps_params(words[1:], {"name": 1, "displayname": 1, "computername": 1,
                                            "include": 1, "exclude": 1, "inputobject": 1})
            if "computername" in values or not judge.host.units:
                return None
            names = values.get("name", []) + values.get("displayname", []) + values.get("", [])
            if not names and filtered:
                raise Unreadable("unreadable", "which services a filter passes to a stop cannot be read")
            if not names:
                judge.unit = judge.host.units[0]
                return "service_restart"
            return "service_restart" if any(judge.matches_unit(n, fold=True) for n in names) else None
        if verb not in _PS_FILTERS:
            return None
        filtered = True
        command, previous = previous, _before(context, previous)
    return None


def _sc_net(judge, args, context, depth):
    """``sc stop|pause NAME`` (not ``sc \\\\server ...``) and ``net stop NAME``."""
    if len(args) >= 2 and args[0].lower() in ("stop", "pause") and judge.matches_unit(args[1], fold=True):
        return "service_restart"
    return None


def _windows_machine(judge, args, context, depth):
    """``Restart-Computer`` / ``Stop-Computer``, unless aimed at another computer."""
    values = _ps_params(args, {"computername": 1, "whatif": 0, "force": 0, "wait": 0})
    if "whatif" in values:
        return None
    others = [c for c in values.get("computername", []) if c.lower() not in
              ("localhost", ".", "127.0.0.1")]
    return None if others else "host_shutdown"


def _iex(judge, args, context, depth):
    values = _ps_params(args, {"command": 1})
    text = " ".join(values.get("command", []) + values.get("", []))
    return judge.shell(text, "powershell", depth + 1) if text else None


def _wmic(judge, args, context, depth):
    """``wmic process where CLAUSE delete`` (or ``call terminate``, or a handle instead of a
    clause), ``wmic service ... call stopservice``, ``wmic os call reboot|shutdown|
    win32shutdown``; ``/node:`` another computer is out of reach."""
    lowered = [a.lower() for a in args]
    if any(w.startswith("/node:") and w[6:].strip("'\"") not in ("localhost", ".", "127.0.0.1")
           for w in lowered):
        return None
    words = [w for w in args if not w.startswith("/")]
    low = [w.lower() for w in words]
    if not low:
        return None
    alias, rest = low[0], low[1:]
    ends = [i for i, w in enumerate(rest) if w in ("delete", "call")]
    if not ends:
        return None
    end = ends[0]
    action = rest[end + 1] if rest[end] == "call" and end + 1 < len(rest) else rest[end]
    if alias == "os" and action in ("reboot", "shutdown", "win32shutdown", "win32shutdowntracker"):
        return "host_shutdown"
    if alias == "service" and action in ("stopservice", "delete", "pauseservice"):
        names = _wql_values(words[1:end + 1], ("name", "displayname"))
        if any(judge.matches_unit(n, fold=True) for n in names if not n.startswith("%")):
            return "service_restart"
        return None
    if alias != "process" or action not in ("delete", "terminate"):
        return None
    clause = words[1:end + 1]
    if not clause:
        return "host_kill"  # every process
    if clause[0].lower() != "where":  # a handle: the process id
        return "host_kill" if judge.hits_pid(clause[0]) else None
    ids = _wql_values(clause[1:], ("processid", "handle", "parentprocessid"))
    names = _wql_values(clause[1:], ("name", "caption", "commandline", "executablepath"))
    if any(judge.hits_pid(i) for i in ids):
        return "host_kill"
    lines = judge.host.names + judge.host.command_lines
    for name in names:
        pattern = name.replace("%", "*").replace("_", "?")
        if any(glob_match(pattern, line, fold=True) or glob_match(program_name(pattern),
                                                                  program_name(line), fold=True)
               for line in lines):
            return "process_kill"
    if not ids and not names and judge.host.names:
        raise Unreadable("unreadable", "which processes a WMI filter passes to a stop cannot be read")
    return None


def _wql_values(words, keys):
    """The values a WQL clause compares ``keys`` to with ``=`` or ``like`` (quotes and
    parentheses dropped)."""
    text = " ".join(str(w) for w in words).replace("(", " ").replace(")", " ")
    tokens = text.replace("=", " = ").replace("! =", "!=").replace("< >", "<>").split()
    values = []
    for i, token in enumerate(tokens[:-2]):
        if token.lower().strip("'\"") in keys and tokens[i + 1].lower() in ("=", "like"):
            values.append(tokens[i + 2].strip("'\""))
    return values
