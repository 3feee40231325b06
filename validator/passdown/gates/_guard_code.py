"""The guard's code readers: executor calls in a code payload, and code-shaped self-signals.

An executor call (``execSync('pkill -f node')``, ``subprocess.run(['kill', '-1'])``,
``tools.bash({command: 'reboot'})``) runs its literal argument exactly as a shell would, so
the guard reads that literal back out and judges it. Some languages run commands in forms of
their own, read here too: backticks and ``qx{}`` / ``%x()`` (Perl, Ruby, PHP), ``system "..."``
without parentheses (Perl, Ruby), the tagged template ``$`...``` (zx, Bun), ``"cmd" | getline``
and ``print ... | "cmd"`` (awk), ``do shell script "..."`` (AppleScript). A self-signal
(``os.kill(os.getppid(), ...)``, ``process.kill(process.ppid, ...)``) is code that signals the
host, its parent or its group; prose never contains one. This module imports ``re``, which the
guard loads only when it judges something.
"""

import re
from itertools import islice

_NAME = r"[A-Za-z_$][\w$]*"
_KEY = re.compile(_NAME)
_KEYWORD = re.compile("(" + _NAME + r")\s*=(?!=)")
# The name alone, not the object before it: ``os.system(`` and ``system(`` are found alike,
# and a chain such as ``a.a.a.a`` costs nothing to pass over.
_CALL = re.compile(
    r"(?<![\w$])"
    r"(execSync|execFileSync|execFile|exec|execv|execve|execvp|execvpe|execl|execle|execlp|"
    r"execlpe|spawnSync|spawn|system|system2|popen|popen2|popen3|run|call|check_call|"
    r"check_output|Popen|getoutput|getstatusoutput|bash|shell|sh|execute|shell_exec|passthru|"
    r"proc_open|capture2|capture2e|capture3|create_subprocess_shell|create_subprocess_exec|"
    r"Command)\s*\("
)
# Executors whose string arguments are the words of the argv (exec.Command), or of the argv
# after the program's path (execl).
_VARIADIC = frozenset({"Command", "create_subprocess_exec"})
_BARE_CALL = re.compile(r"(?<![\w$.])(system|exec)[ \t]+(?=['\"])")
_TAGGED = re.compile(r"(?<![\w$])\$\s*(?=`)")
_QUOTED_COMMAND = re.compile(r"(?<![\w$])(qx|%x)\s*([^\w\s])")
_AWK_GETLINE = re.compile(r'("(?:[^"\\]|\\.)*")\s*\|\s*getline')
_AWK_PIPE = re.compile(r'\|\s*("(?:[^"\\]|\\.)*")')
_AWK_PRINT = re.compile(r"\bprintf?\b")
_SHELL_SCRIPT = re.compile(r"\bdo\s+shell\s+script\s+(?=\")")
_SHELL_NAMES = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
# What a language runs besides executor calls.
_EXTRAS = {
    "js": ("tagged",), "perl": ("backticks", "bare"), "ruby": ("backticks", "bare"),
    "php": ("backticks",), "awk": ("awk",), "applescript": ("applescript",),
    "source": ("tagged", "bare", "awk", "applescript"),
}
_SELF_SIGNALS = (
    r"\bkill\s*\(\s*(?:os\s*\.\s*)?getppid\s*\(",  # os.kill(os.getppid(), ...) and kill(getppid(), ...)
    r"\bos\s*\.\s*killpg\s*\(",
    r"\bos\s*\.\s*kill\s*\(\s*(?:-\s*1|0)\s*,",
    r"\bprocess\s*\.\s*kill\s*\(\s*(?:process\s*\.\s*(?:ppid|pid)\b|-\s*1\b|0\s*[,)])",
)
_SELF_SIGNAL = re.compile("|".join(_SELF_SIGNALS))
_MAX_LITERAL_DEPTH = 8
_MAX_ITEMS = 256
#: Each call's arguments are read from at most this many characters, and at most
#: ``_MAX_CALLS`` calls per payload, so hostile text costs linear time, never quadratic.
_MAX_ARGUMENT_CHARS = 16384
_MAX_CALLS = 64
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "v": "\v"}
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
#: The letters that may prefix a string literal (``r'...'``, ``b"..."``, ``f'...'``), at most two.
_STRING_PREFIXES = "rRbBuUfF"
_QUOTE_CLOSERS = dict(_CLOSERS, **{"<": ">"})
_COMMAND_KEYS = ("command", "cmd", "script", "code", "args", "argv")


def self_signal(text, host_pid):
    """Whether ``text`` holds a code-shaped signal to the host, its parent, its group or all."""
    if _SELF_SIGNAL.search(text):
        return True
    pid = str(host_pid)
    return re.search(r"\b(?:os|process)\s*\.\s*kill\s*\(\s*0*" + pid + r"\s*[,)]", text) is not None


def executor_calls(text, language=None, charge=None):
    """Each executor call's literal program in source of ``language`` (``"python"``,
    ``"js"``, ``"perl"``... or ``"source"`` when unknown), as ``("shell", text)`` or
    ``("argv", words)``; ``None`` when the text holds more calls than the guard reads.
    ``charge`` is told how many characters each call's arguments took to read."""
    calls = _first_forms(_CALL.finditer(text))
    if calls is None:
        return None
    programs = []
    for match in calls:
        region = text[match.end():match.end() + _MAX_ARGUMENT_CHARS]
        arguments, keywords, end = _arguments(region, 0)
        if charge is not None:
            charge(end)
        programs.extend(_programs(match.group(1), arguments, keywords))
    for extra in _EXTRAS.get(language, ()):
        found = _READERS[extra](text)
        if found is None:
            return None
        programs.extend(found)
    return programs


def _bare_calls(text):
    """``system "reboot"``, ``exec 'kill', '-1'``: Perl and Ruby calls without parentheses
    (``None`` past ``_MAX_CALLS`` of them, as for every command form)."""
    calls = _first_forms(_BARE_CALL.finditer(text))
    if calls is None:
        return None
    programs = []
    for match in calls:
        arguments, _, _ = _arguments(text[match.end():match.end() + _MAX_ARGUMENT_CHARS], 0)
        programs.extend(_programs(match.group(1), arguments, {}))
    return programs


def _tagged(text):
    """The tagged template ``$`reboot``` of zx and Bun, a shell command: zx runs its text with
    the escapes read, Bun as written, so both are judged."""
    matches = _first_forms(_TAGGED.finditer(text))
    return None if matches is None else [
        ("shell", _string(text, match.end(), raw)[0]) for match in matches for raw in (False, True)]


def _backticks(text):
    """Backticks, ``qx{...}`` and ``%x(...)``: commands in Perl, Ruby and PHP, which read the
    escapes in backticks as in a double-quoted string."""
    programs, i = [], text.find("`")
    while i >= 0:
        if len(programs) >= _MAX_CALLS:
            return None
        command, i = _string(text, i, False)
        programs.append(("shell", command))
        i = text.find("`", i)
    quoted = _first_forms(_QUOTED_COMMAND.finditer(text))
    if quoted is None:
        return None
    for match in quoted:
        opener = match.group(2)
        closer = _QUOTE_CLOSERS.get(opener, opener)
        close = text.find(closer, match.end())
        programs.append(("shell", text[match.end():close if close >= 0 else len(text)]))
    return programs


def _awk(text):
    """``"cmd" | getline`` runs cmd; ``print ... | "cmd"`` runs cmd and, when cmd is a shell,
    what is printed to it."""
    getlines, pipes = _first_forms(_AWK_GETLINE.finditer(text)), _first_forms(_AWK_PIPE.finditer(text))
    if getlines is None or pipes is None:
        return None
    programs = [("shell", _string(m.group(1), 0, False)[0]) for m in getlines]
    for match in pipes:
        target = _string(match.group(1), 0, False)[0]
        programs.append(("shell", target))
        if target.strip().rsplit("/", 1)[-1] in _SHELL_NAMES:
            printed = None
            for printed in _AWK_PRINT.finditer(text, 0, match.start()):
                pass
            if printed is not None:
                statement = text[printed.end():match.start()]
                quote = statement.find('"')
                if quote >= 0:
                    programs.append(("shell", _string(statement, quote, False)[0]))
    return programs


def _apple_script(text):
    """``do shell script "..."``: AppleScript's executor."""
    matches = _first_forms(_SHELL_SCRIPT.finditer(text))
    return None if matches is None else [("shell", _string(text, match.end(), False)[0]) for match in matches]


def _first_forms(matches):
    """The matches of one command form, or ``None`` past ``_MAX_CALLS`` of them."""
    found = list(islice(matches, _MAX_CALLS + 1))
    return None if len(found) > _MAX_CALLS else found


_READERS = {"bare": _bare_calls, "tagged": _tagged, "backticks": _backticks, "awk": _awk,
            "applescript": _apple_script}


def _programs(name, arguments, keywords):
    first = arguments[0] if arguments else None
    if first is None:
        first = next((keywords[key] for key in ("args", "cmd", "command") if key in keywords), None)
    second = arguments[1] if len(arguments) > 1 else None
    found = []
    if isinstance(first, str):
        found.append(("shell", first))
        # execl(path, argv0, args...) and execv(path, [argv0, args...]) run the path: argv0
        # is only the name the program is shown.
        if name.startswith("execl"):
            found.append(("argv", [first] + _words(arguments[2:])))
        elif name in _VARIADIC or (len(arguments) > 1 and all(isinstance(a, str) for a in arguments)):
            found.append(("argv", _words(arguments)))  # system("kill", "-1"): the list form
        if isinstance(second, list) and name.startswith("execv"):
            found.append(("argv", [first] + _words(second[1:])))
        elif isinstance(second, list):
            found.append(("argv", [first] + _words(second)))
            found.append(("argv", _words(second)))
    elif isinstance(first, list):
        found.append(("argv", _words(first)))
    elif isinstance(first, dict):
        for key in _COMMAND_KEYS:
            value = first.get(key)
            if isinstance(value, str):
                found.append(("shell", value))
            elif isinstance(value, list):
                found.append(("argv", _words(value)))
    return [(kind, value) for kind, value in found if value]


def _words(items):
    return [item for item in items if isinstance(item, str)]


# -- a small reader for the literals of JavaScript and Python ------------------------------


def _skip_blanks(text, i):
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _arguments(text, i):
    """Parse call arguments from just after ``(``: positional values, ``name=value`` keywords
    and the index where reading stopped. Anything that is not a literal reads as ``None``."""
    values, keywords = [], {}
    while len(values) + len(keywords) < _MAX_ITEMS:
        i = _skip_blanks(text, i)
        if i >= len(text) or text[i] in ")]}":
            break
        keyword = _KEYWORD.match(text, i)
        if keyword:
            value, i = _value(text, keyword.end(), 1)
            keywords[keyword.group(1)] = value
        else:
            value, i = _value(text, i, 1)
            values.append(value)
        # The rest of an expression a value starts (``(1 + 2) * 3``, ``'a' + b``): the
        # arguments after it are still read.
        i = _skip_expression(text, i)
        if i < len(text) and text[i] == ",":
            i += 1
    return values, keywords, i


def _value(text, i, depth):
    i = _skip_blanks(text, i)
    if i >= len(text) or depth > _MAX_LITERAL_DEPTH:
        return None, _skip_expression(text, i)
    start = i
    while i < len(text) and i - start < 2 and text[i] in _STRING_PREFIXES:
        i += 1
    if i < len(text) and text[i] in "'\"`":
        return _string(text, i, "r" in text[start:i].lower())
    i = start
    c = text[i]
    if c == "[" or c == "(":
        return _sequence(text, i + 1, depth)
    if c == "{":
        return _mapping(text, i + 1, depth)
    return None, _skip_expression(text, i)


def _string(text, i, raw):
    quote = text[i]
    if quote != "`" and text.startswith(quote * 3, i):
        quote, i = quote * 3, i + 3
    else:
        i += 1
    chars = []
    while i < len(text):
        if text.startswith(quote, i):
            return "".join(chars), i + len(quote)
        c = text[i]
        if c == "\\" and i + 1 < len(text) and not raw:
            following = text[i + 1]
            if following == "x" and _hex(text[i + 2:i + 4]):
                chars.append(chr(int(text[i + 2:i + 4], 16)))
                i += 4
            elif following == "u" and _hex(text[i + 2:i + 6]):
                chars.append(chr(int(text[i + 2:i + 6], 16)))
                i += 6
            else:
                chars.append(_ESCAPES.get(following, following))
                i += 2
            continue
        chars.append(c)
        i += 1
    return "".join(chars), i


def _hex(part):
    return len(part) in (2, 4) and all(c in "0123456789abcdefABCDEF" for c in part)


def _sequence(text, i, depth):
    """A list or tuple from just after its opener: its first ``_MAX_ITEMS`` items (those after
    are passed over unread) and the index after its closer. A closer of any kind ends it, as
    it ends an expression the reader skips, so a value ends at one place at every depth."""
    items = []
    while True:
        i = _skip_blanks(text, i)
        if i >= len(text):
            return items, i
        if text[i] in ")]}":
            return items, i + 1
        if len(items) < _MAX_ITEMS:
            value, i = _value(text, i, depth + 1)
            items.append(value)
        i = _skip_expression(text, i)
        if i < len(text) and text[i] == ",":
            i += 1


def _mapping(text, i, depth):
    """An object from just after ``{``, as :func:`_sequence` reads a list: its first
    ``_MAX_ITEMS`` entries; an entry whose key is computed (``[k]: v``, ``**rest``) is skipped."""
    result, entries = {}, 0
    while True:
        i = _skip_blanks(text, i)
        if i >= len(text):
            return result, i
        if text[i] in ")]}":
            return result, i + 1
        key = None
        if entries < _MAX_ITEMS:
            entries += 1
            key, i = _key(text, i)
        if key is not None:
            i = _skip_blanks(text, i)
            if i < len(text) and text[i] == ":":
                value, i = _value(text, i + 1, depth + 1)
            else:
                value = None  # shorthand {command}: not a literal
            result[key] = value
        i = _skip_expression(text, i)
        if i < len(text) and text[i] == ",":
            i += 1


def _key(text, i):
    """An object key written as a string or a name, and the index after it; ``None`` else."""
    if text[i] in "'\"":
        return _string(text, i, False)
    name = _KEY.match(text, i)
    return (name.group(0), name.end()) if name else (None, i)


def _is_raw(text, quote):
    """Whether the string opening at ``quote`` is raw: a prefix of at most two letters that
    holds ``r`` (``r'...'``, ``Rb"..."``), read as :func:`_value` reads a literal's prefix."""
    start = quote
    while start > 0 and quote - start < 2 and text[start - 1] in _STRING_PREFIXES:
        start -= 1
    before = text[start - 1] if start > 0 else " "
    return "r" in text[start:quote].lower() and not (before.isalnum() or before in "_$")


def _skip_expression(text, i):
    """Skip one expression that is not a literal: up to a ``,`` or an unmatched closer."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            _, i = _string(text, i, _is_raw(text, i))
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif c == "," and depth == 0:
            return i
        i += 1
    return i
