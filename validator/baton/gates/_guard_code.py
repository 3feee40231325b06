"""The guard's code readers: executor calls in a code payload, and code-shaped self-signals.

An executor call (``execSync('pkill -f node')``, ``subprocess.run(['kill', '-1'])``,
``tools.bash({command: 'reboot'})``) runs its literal argument exactly as a shell would, so
the guard reads that literal back out and judges it. A self-signal
(``os.kill(os.getppid(), ...)``, ``process.kill(process.ppid, ...)``) is code that signals the
host, its parent or its group; prose never contains one. This module imports ``re``, which the
guard loads only when it judges something.
"""

import re

_NAME = r"[A-Za-z_$][\w$]*"
_CALL = re.compile(
    r"(?<![\w$])(?:" + _NAME + r"\s*\.\s*)*"
    r"(execSync|execFileSync|execFile|exec|execv|execve|execvp|execvpe|execl|execle|execlp|"
    r"execlpe|spawnSync|spawn|system|popen|run|call|check_call|check_output|Popen|getoutput|"
    r"getstatusoutput|bash|shell|sh)\s*\("
)
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
_COMMAND_KEYS = ("command", "cmd", "script", "code", "args", "argv")


def self_signal(text, host_pid):
    """Whether ``text`` holds a code-shaped signal to the host, its parent, its group or all."""
    if _SELF_SIGNAL.search(text):
        return True
    pid = str(host_pid)
    return re.search(r"\b(?:os|process)\s*\.\s*kill\s*\(\s*0*" + pid + r"\s*[,)]", text) is not None


def executor_calls(text):
    """Each executor call's literal program, as ``("shell", text)`` or ``("argv", words)``;
    ``None`` when the text holds more calls than the guard reads."""
    programs = []
    for count, match in enumerate(_CALL.finditer(text)):
        if count >= _MAX_CALLS:
            return None
        region = text[match.end():match.end() + _MAX_ARGUMENT_CHARS]
        arguments, keywords = _arguments(region, 0)
        programs.extend(_programs(match.group(1), arguments, keywords))
    return programs


def _programs(name, arguments, keywords):
    first = arguments[0] if arguments else None
    if first is None:
        first = next((keywords[key] for key in ("args", "cmd", "command") if key in keywords), None)
    second = arguments[1] if len(arguments) > 1 else None
    found = []
    if isinstance(first, str):
        found.append(("shell", first))
        if name.startswith("execl"):
            found.append(("argv", [a for a in arguments[1:] if isinstance(a, str)]))
        if isinstance(second, list):
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
    """Parse call arguments from just after ``(``: positional values and ``name=value`` keywords.
    Anything that is not a literal reads as ``None``."""
    values, keywords = [], {}
    while len(values) + len(keywords) < _MAX_ITEMS:
        i = _skip_blanks(text, i)
        if i >= len(text) or text[i] == ")":
            break
        keyword = re.match(_NAME + r"\s*=(?!=)", text[i:i + 300])
        if keyword:
            name = keyword.group(0).rstrip("= \t")
            value, i = _value(text, i + keyword.end(), 1)
            keywords[name] = value
        else:
            value, i = _value(text, i, 1)
            values.append(value)
        i = _skip_blanks(text, i)
        if i < len(text) and text[i] == ",":
            i += 1
        else:
            break
    return values, keywords


def _value(text, i, depth):
    i = _skip_blanks(text, i)
    if i >= len(text) or depth > _MAX_LITERAL_DEPTH:
        return None, _skip_expression(text, i)
    start = i
    while i < len(text) and i - start < 2 and text[i] in "rRbBuUfF":
        i += 1
    if i < len(text) and text[i] in "'\"`":
        return _string(text, i, "r" in text[start:i].lower())
    i = start
    c = text[i]
    if c == "[" or c == "(":
        return _sequence(text, i + 1, _CLOSERS[c], depth)
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


def _sequence(text, i, closer, depth):
    items = []
    while len(items) < _MAX_ITEMS:
        i = _skip_blanks(text, i)
        if i >= len(text):
            return items, i
        if text[i] == closer:
            return items, i + 1
        value, i = _value(text, i, depth + 1)
        items.append(value)
        i = _skip_blanks(text, i)
        if i < len(text) and text[i] == ",":
            i += 1
        elif i < len(text) and text[i] == closer:
            return items, i + 1
        else:
            return items, _skip_expression(text, i)
    return items, i


def _mapping(text, i, depth):
    result = {}
    while len(result) < _MAX_ITEMS:
        i = _skip_blanks(text, i)
        if i >= len(text):
            return result, i
        if text[i] == "}":
            return result, i + 1
        if text[i] in "'\"":
            key, i = _string(text, i, False)
        else:
            name = re.match(_NAME, text[i:i + 300])
            if not name:
                return result, _skip_expression(text, i)
            key, i = name.group(0), i + name.end()
        i = _skip_blanks(text, i)
        if i < len(text) and text[i] == ":":
            value, i = _value(text, i + 1, depth + 1)
        else:
            value = None  # shorthand {command}: not a literal
        result[key] = value
        i = _skip_blanks(text, i)
        if i < len(text) and text[i] == ",":
            i += 1
        elif i < len(text) and text[i] == "}":
            return result, i + 1
        else:
            return result, _skip_expression(text, i)
    return result, i


def _skip_expression(text, i):
    """Skip one expression that is not a literal: up to a ``,`` or an unmatched closer."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "'\"`":
            _, i = _string(text, i, False)
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
