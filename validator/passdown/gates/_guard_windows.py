"""The guard's rules for Windows shells and their commands (spec/gates/guard.md): PowerShell's
``Stop-Process`` (by name, by id, or of what ``Get-Process`` pipes into it, its ``.Kill()``),
``Restart-Service``/``Stop-Service``, ``Restart-Computer``/``Stop-Computer``,
``Invoke-Expression`` and ``Start-Process``; ``taskkill``, ``sc`` and ``net``; the payloads of
``pwsh -Command``/``-EncodedCommand`` and ``cmd /c``.

The kernel (:mod:`passdown.gates._guard_judge`) loads this module only when a command names
one of these verbs, so that judging a POSIX command never pays for them.
"""

from passdown.gates._guard_judge import _ALIASES, _before, _Context, _Dynamic, glob_match, program_name
from passdown.gates._guard_read import Command, Unreadable


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
        words = previous.words
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


def _ps_method_kill(judge, words):
    """``(Get-Process NAME).Kill()``: a stop of the processes the parenthesis gets."""
    for word in words:
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
    return "service_restart" if any(judge.matches_unit(n, fold=True) for n in names) else None


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
