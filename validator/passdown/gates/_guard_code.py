"""How the guard reads program source of any language (spec/gates/guard.md, "Code"), with one
generic reading instead of a reader per language:

- self-signals in any text (GRD-026): a call of a ``kill`` function aimed at the parent
  (``getppid``, ``ppid``), every process or its own group (``-1``, ``0``; ``killpg`` of the own
  group), or the host's pid; the guard looks for them in every string of every call that holds
  ``kill``;
- what a program runs: the literal arguments of a call whose name is one of
  :data:`EXECUTORS`, read as the shell text or the argv it runs, and the command forms
  (backticks, ``qx``/``%x`` quotes, ``do shell script``, a string piped to or from in awk),
  read as shell text. Arguments computed at run time (names, expressions) read as nothing.

Both stand on one scanner of literals, brackets and commas (:func:`literal`, :func:`split`).
"""

#: The characters of an identifier in the languages the guard reads.
IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
#: In a kill call's arguments, the parent or the own group, whatever the pids are.
_PARENT_OR_GROUP = ("ppid", "getpgrp", "getpgid(0", "getpgid(os.getpid")
#: What names the parent in code, wherever a kill's statement holds it.
_PARENT = (".ppid", "getppid(", ".parent(")
#: Methods that signal the process object they are called on (psutil's ``Process``).
_SIGNAL_METHODS = (").kill(", ").terminate(", ").send_signal(")


def self_signal(text, host_pid, host_group=None):
    """Whether the text holds a call of a kill function aimed at the host (see above)."""
    # pids aimed at the host: every process, the own group, the host, its group (negated pids)
    aimed = {"-1", "0", "-0", str(host_pid), "-" + str(host_pid), "-" + str(host_group or host_pid)}
    for method in _SIGNAL_METHODS:  # psutil.Process(os.getppid()).terminate()
        for at in _finds(text, method):
            opening = text.rfind("Process(", max(0, at - 512), at)
            if opening >= 0 and any(sign in text[opening:at + 1] for sign in _PARENT):
                return True
    for at in _finds(text, "kill"):
        before, end = text[at - 1:at], skip(text, at + 4, IDENT)
        name, k = text[at:end], skip(text, end, " \t")
        if before in IDENT and before != "_" or name not in ("kill", "killpg"):
            continue
        statement = text[at:at + 512].split(";", 1)[0].split("\n", 1)[0]
        if "(" in text and any(sign in statement for sign in _PARENT):
            return True  # the parent in code, however the call or command is built: 'kill ' + process.ppid
        perl = not text.startswith("(", k)  # Perl's list operator, the signal first: kill 'TERM', $pid
        if perl and (k == end or before == "." or k == len(text) or text[k] in "-=\n"):
            continue
        # the arguments: to the closing parenthesis, or (Perl) to the statement's end
        args = split(text[k:k + 512].split(";", 1)[0].split("\n", 1)[0], 0, "")[0] if perl else \
            split(text[k + 1:k + 512], 0, ")")[0]
        if perl and len(args) < 2:
            continue
        # the pids: after the signal in Perl and Ruby (Process.kill(:TERM, pid)), else first
        signal_first = name == "kill" and (perl or text.endswith("Process.", 0, at))
        if any(sign in ",".join(args) for sign in _PARENT_OR_GROUP) or \
                any(target in aimed for target in (args[1:] if signal_first else args[:1])):
            return True
    return False


def calls_kill(text):
    """Whether program source calls a kill function: ``os.kill(``, ``p.kill()``, ``.terminate()``,
    Perl's ``kill "TERM", ...``."""
    return "kill(" in text or "killpg(" in text or ".terminate(" in text or ".Kill(" in text or \
        any(text[at - 1:at] not in IDENT and text[at + 4:at + 6] in (' "', " '", " 9", " -")
            for at in _finds(text, "kill"))


def _finds(text, word):
    """Every index of ``word`` in ``text``."""
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


def strings(text):
    """The values of the quoted literals of program source, in order."""
    found, i = [], 0
    while i < len(text):
        if text[i] in _QUOTES:
            value, i = literal(text, i)
            found.append(value)
        else:
            i += 1
    return found


def skip(text, i, chars):
    """The first index from ``i`` whose character is not one of ``chars``."""
    while i < len(text) and text[i] in chars:
        i += 1
    return i


def split(text, i, stops, quotes=""):
    """``text`` from ``i`` to its first character of ``stops`` outside brackets and quoted
    literals (if ``quotes`` names their quotes), cut at the commas outside them -> (the parts,
    stripped of spaces and quotes; the index where it stopped)."""
    parts, start, level = [], i, 0
    while i < len(text) and (level or text[i] not in stops):
        c = text[i]
        if c in quotes:
            i = literal(text, i)[1]
            continue
        if c == "," and level == 0:
            parts.append(text[start:i])
            start = i + 1
        level += (c in "([{") - (c in ")]}")
        i += 1
    return [part.strip().strip("'\" ") for part in parts + [text[start:i]] * (start < i)], i


def literal(text, i):
    """The quoted literal at ``i`` -> (its value, escapes decoded; the index after it). Triple
    quotes read whole; a literal left open ends with the text."""
    quote, n = text[i], len(text)
    if text.startswith(quote * 3, i):
        close = text.find(quote * 3, i + 3)
        close = n if close < 0 else close
        return text[i + 3:close], close + 3
    value, j = [], i + 1
    while j < n and text[j] != quote:
        escaped = text[j] == "\\" and j + 1 < n
        value.append({"n": "\n", "t": "\t"}.get(text[j + 1], text[j + 1]) if escaped else text[j])
        j += 1 + escaped
    return "".join(value), j + 1


#: Call names (the last part of a dotted or ``::`` name, any case) whose literal arguments run.
EXECUTORS = frozenset("""system exec execsync execfile execfilesync spawn spawnsync popen popen2 popen3
    popen4 run call check_call check_output getoutput getstatusoutput shell_exec passthru proc_open
    pcntl_exec capture2 capture2e capture3 pipeline_r pipeline_w execl execle execlp execlpe execv execve
    execvp execvpe spawnl spawnle spawnlp spawnlpe spawnv spawnve spawnvp spawnvpe posix_spawn
    posix_spawnp execa execasync execacommand command startprocess create_subprocess_exec
    create_subprocess_shell shell execute""".split())
#: The most executor calls and command forms read in one program.
MAX_CALLS = 64
_QUOTES = "'\"`"
_CLOSERS = {"(": ")", "[": "]", "{": "}", "<": ">"}


def executor_calls(text):
    """``[("shell", text) | ("argv", words)]``: what the source runs, in order."""
    found, i, n, piped = [], 0, len(text), -1
    while i < n and len(found) <= MAX_CALLS:
        c = text[i]
        if c in _QUOTES:
            shell = c == "`" or i == piped  # `command`, or awk's print | "command"
            value, i = literal(text, i)
            j = skip(text, i, " ")
            if shell or text.startswith("|", j) and text.startswith("getline", skip(text, j + 1, " ")):
                found.append(("shell", value))  # or awk's "command" | getline
        elif c == "|":
            piped = i = skip(text, i + 1, " ")
        elif c in IDENT and (i == 0 or text[i - 1] not in IDENT):
            start, i = i, skip(text, i, IDENT)
            name = text[start:i].lower()
            if name == "do" and text.startswith(" shell script", i):  # AppleScript
                name, i = "shell", i + len(" shell script")
            if (name == "qx" or name == "x" and text[start - 1:start] == "%") and i < n and \
                    text[i] not in IDENT and text[i] not in " \t":  # qx{...}, %x(...), qx/.../
                quoted = text[i + 1:].split(_CLOSERS.get(text[i], text[i]), 1)[0]
                found.append(("shell", quoted))
                i += len(quoted) + 2
            elif name in EXECUTORS:  # name(...), or Perl's and Ruby's name "...", [...], %w(...)
                i = skip(text, i, " \t")
                items, i = _literals(text, i + 1, False) if text.startswith("(", i) else \
                    _literals(text, i, True) if text[i:i + 1] in ("'", '"', "`", "[", "%") else ([], i)
                found.extend(_runs(items))
        else:
            i += 1
    if len(found) > MAX_CALLS:
        from passdown.gates._guard_read import Unreadable  # on this error only: start-up
        raise Unreadable("too_long", f"the program makes more than {MAX_CALLS} calls to judge")
    return found


def _runs(items):
    """Literal arguments -> what they run: the first string as shell text; all the words as an
    argv when there is a list or more than one, the program path of ``exec`` families once."""
    program = items[:1] if items and isinstance(items[0], str) else []
    lists = [item for item in items if isinstance(item, list)]
    words = [word for item in items for word in (item if isinstance(item, list) else [item])]
    name = {word: word.rsplit("/", 1)[-1] for word in words}
    if program and lists and lists[0] and name[program[0]] == name[lists[0][0]] or \
            len(words) > 1 and name[words[0]] == name[words[1]]:
        words = words[1:]  # execvp("kill", ["kill", ...]): the path, then argv[0] again
    return [("shell", value) for value in program] + [("argv", words)] * (len(words) > 1 or bool(lists))


def _literals(text, i, bare):
    """The literal arguments from ``i`` -> (strings and lists of strings, where they end: at a
    closer, ``;``, or the line's end when ``bare``). Other values are skipped whole."""
    items = []
    while i < len(text) and text[i] not in (";)]}\n" if bare else ";)]}"):
        c = text[i]
        if c in " \t\r\n,":
            i += 1
        elif c in _QUOTES:
            value, i = literal(text, i)
            items.append(value)
        elif c == "[" or text.startswith(("%w", "%W"), i) and text[i + 2:i + 3] in ("(", "[", "{"):
            i = start = i + 1 if c == "[" else i + 3  # [a, b] or Ruby's %w(a b), to the first closer
            while i < len(text) and text[i] != _CLOSERS[text[start - 1]]:
                i = literal(text, i)[1] if text[i] in _QUOTES else i + 1
            # a list's strings, read as if the call ended with it (which closes a string left open)
            strings = [x for x in _literals(text[start:i] + ")", 0, False)[0] if isinstance(x, str)]
            items.append(strings if c == "[" else text[start:i].split())
            i += 1
        elif c == "{":  # an options object, whose values are read: Deno.Command("x", {args: [...]})
            i += 1
        elif c in IDENT and text[(at := skip(text, skip(text, i, IDENT), " \t")):at + 1] in (":", "=") \
                and text[at + 1:at + 2] not in ("=", ":"):
            i = skip(text, at + 1, " \t")  # a key (``args: [...]``, ``args=[...]``): its value is read
        else:
            i = split(text, i, ",;\n)]}", _QUOTES)[1]
    return items, i
