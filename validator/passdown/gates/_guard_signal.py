"""Self-signals in any text (spec/gates/guard.md GRD-026): a call of a ``kill`` function aimed
at the parent (``getppid``, ``ppid``), every process or its own group (``-1``, ``0``; ``killpg``
of the own group), or the host's pid. The guard looks for them in every string of every call
that holds ``kill``, so this module stays small and apart from the code reader
(:mod:`passdown.gates._guard_code`), which loads only for code and shares the scanning here.
"""

#: The characters of an identifier in the languages the guard reads.
IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
#: In a kill call's arguments, the parent or the own group, whatever the pids are.
_PARENT_OR_GROUP = ("ppid", "getpgrp", "getpgid(0", "getpgid(os.getpid")


def self_signal(text, host_pid, host_group=None):
    """Whether the text holds a call of a kill function aimed at the host (see above)."""
    # pids aimed at the host: every process, the own group, the host, its group (negated pids)
    aimed = {"-1", "0", "-0", str(host_pid), "-" + str(host_pid), "-" + str(host_group or host_pid)}
    at = -1
    while (at := text.find("kill", at + 1)) >= 0:
        before, end = text[at - 1:at], skip(text, at + 4, IDENT)
        name, k = text[at:end], skip(text, end, " \t")
        perl = not text.startswith("(", k)  # Perl's list operator, the signal first: kill 'TERM', $pid
        if before in IDENT and before != "_" or name not in ("kill", "killpg") or \
                perl and (k == end or before == "." or k == len(text) or text[k] in "-=\n"):
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
