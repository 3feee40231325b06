"""How the guard reads program source of any language, with one generic reading instead of a
reader per language (spec/gates/guard.md, "Code"):

- **executor calls**: a call whose name is one of :data:`EXECUTORS` (``os.system``,
  ``subprocess.run``, ``execSync``, ``spawn``, ``system``, ``shell_exec``...), its literal
  arguments read as the shell text or the argv it runs;
- **command forms**: backticks, ``qx``/``%x`` quotes, ``do shell script``, and a string piped to
  or from in awk, read as shell text;
- self-signals are :mod:`passdown.gates._guard_signal`'s.

Arguments computed at run time (names, expressions) are not evaluated: they read as nothing.
"""

from passdown.gates._guard_signal import IDENT as _IDENT

#: Call names (the last part of a dotted or ``::`` name, any case) whose literal arguments run.
EXECUTORS = frozenset({
    "system", "exec", "execsync", "execfile", "execfilesync", "spawn", "spawnsync", "popen",
    "popen2", "popen3", "popen4", "run", "call", "check_call", "check_output", "getoutput",
    "getstatusoutput", "shell_exec", "passthru", "proc_open", "pcntl_exec", "capture2",
    "capture2e", "capture3", "pipeline_r", "pipeline_w", "execl", "execle", "execlp", "execlpe",
    "execv", "execve", "execvp", "execvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv",
    "spawnve", "spawnvp", "spawnvpe", "posix_spawn", "posix_spawnp", "execa", "execasync",
    "execacommand", "command", "startprocess", "create_subprocess_exec",
    "create_subprocess_shell", "shell", "execute",
})
#: The most executor calls and command forms read in one program.
MAX_CALLS = 64
_QUOTES = "'\"`"
_CLOSERS = {"(": ")", "[": "]", "{": "}", "<": ">"}


def executor_calls(text):
    """``[("shell", text) | ("argv", words)]``: what the source runs, in order."""
    found, i, n = [], 0, len(text)
    while i < n and len(found) <= MAX_CALLS:
        c = text[i]
        if c in "'\"":
            value, i = _string(text, i)
            j = i
            while j < n and text[j] == " ":
                j += 1
            if text.startswith("|", j) and text[j + 1:].lstrip(" ").startswith("getline"):
                found.append(("shell", value))  # awk: "command" | getline
        elif c == "`":
            value, i = _string(text, i)
            found.append(("shell", value))
        elif c in _IDENT and (i == 0 or text[i - 1] not in _IDENT):
            j = i
            while j < n and text[j] in _IDENT:
                j += 1
            name = text[i:j]
            lowered = name.lower()
            if lowered in ("qx",) or (lowered == "x" and i > 0 and text[i - 1] == "%"):
                value, j = _delimited(text, j)
                if value is not None:
                    found.append(("shell", value))
            elif lowered == "do" and text.startswith(" shell script", j):
                value, j = _literals(text, j + len(" shell script"))
                found.extend(_runs(value))
            elif lowered in EXECUTORS:
                items, j = _literals(text, j)
                found.extend(_runs(items))
            i = j
        elif c == "|" and i + 1 < n:
            j = i + 1
            while j < n and text[j] == " ":
                j += 1
            if j < n and text[j] in "'\"":
                value, j = _string(text, j)
                found.append(("shell", value))
            i = max(j, i + 1)
        else:
            i += 1
    if len(found) > MAX_CALLS:
        from passdown.gates._guard_read import Unreadable

        raise Unreadable("too_long", f"the program makes more than {MAX_CALLS} calls to judge")
    return found


def _runs(items):
    """Literal arguments -> what they run: a list (argv), strings (the first as shell text, all
    of them as an argv when more than one), the program path of ``exec`` families once."""
    words, lists = [], []
    for item in items:
        if isinstance(item, list):
            lists.append(item)
            words.extend(item)
        else:
            words.append(item)
    runs = []
    if lists and items and isinstance(items[0], str) and lists[0][:1] and \
            lists[0][0].rsplit("/", 1)[-1] == items[0].rsplit("/", 1)[-1]:
        words = words[1:]  # execvp("kill", ["kill", ...]): the path, then argv[0] again
    elif len(words) > 1 and words[0].rsplit("/", 1)[-1] == words[1].rsplit("/", 1)[-1]:
        words = words[1:]
    if items and isinstance(items[0], str):
        runs.append(("shell", items[0]))
    if len(words) > 1 or lists:
        runs.append(("argv", words))
    return runs


def _literals(text, i):
    """The literal arguments after a call's name: ``(a, [b, c])``, ``"a", "b"`` or ``"a"``;
    stops at the first closer or end of statement; non-literals are skipped."""
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    parens = i < n and text[i] == "("
    if parens:
        i += 1
    elif i >= n or text[i] not in _QUOTES + "[%":
        return [], i
    items = []
    while i < n:
        c = text[i]
        if c in " \t\r\n,":
            if c == "\n" and not parens:
                break
            i += 1
        elif c in _QUOTES:
            value, i = _string(text, i)
            items.append(value)
        elif c == "[" or (c == "%" and text[i + 1:i + 2] in ("w", "W") and text[i + 2:i + 3] in "([{"):
            close_char = "]" if c == "[" else _CLOSERS[text[i + 2]]
            start = i + 1 if c == "[" else i + 3
            close = _closing(text, start, close_char)
            if c == "[":
                inner = _literals("(" + text[start:close] + ")", 0)[0]
                items.append([x for x in inner if isinstance(x, str)])
            else:
                items.append(text[start:close].split())
            i = close + 1
        elif c in ");" or (c == "}" and not parens):
            break
        else:
            i = _skip_value(text, i)
    return items, i


def _skip_value(text, i):
    """Past one non-literal argument: up to its comma or the call's closer, brackets nested."""
    level, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _QUOTES:
            i = _string(text, i)[1]
            continue
        if c in "([{":
            level += 1
        elif c in ")]}":
            if level == 0:
                return i
            level -= 1
        elif c in ",;\n" and level == 0:
            return i
        i += 1
    return i


def _closing(text, start, close_char):
    i, n = start, len(text)
    while i < n and text[i] != close_char:
        i = _string(text, i)[1] if text[i] in _QUOTES else i + 1
    return i


def _string(text, i):
    """A quoted literal at ``i`` -> (its value, escapes decoded; the index after it). Triple
    quotes read whole; a literal left open ends with the text."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        close = text.find(quote * 3, i + 3)
        close = len(text) if close < 0 else close
        return text[i + 3:close], close + 3
    out, j, n = [], i + 1, len(text)
    while j < n and text[j] != quote:
        if text[j] == "\\" and j + 1 < n:
            e = text[j + 1]
            out.append({"n": "\n", "t": "\t"}.get(e, e))
            j += 2
            continue
        out.append(text[j])
        j += 1
    return "".join(out), j + 1


def _delimited(text, i):
    """``qx{...}``, ``%x(...)``, ``qx/.../``: the quoted text."""
    if i >= len(text):
        return None, i
    opener = text[i]
    if opener in _IDENT or opener in " \t":
        return None, i
    close_char = _CLOSERS.get(opener, opener)
    close = text.find(close_char, i + 1)
    close = len(text) if close < 0 else close
    return text[i + 1:close], close + 1
