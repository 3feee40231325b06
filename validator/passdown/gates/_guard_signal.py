"""Self-signals in any text (spec/gates/guard.md GRD-026): a call of a ``kill`` function aimed
at the parent (``getppid``, ``ppid``), at every process or its own group (``-1``, ``0``), at
its group (``killpg`` of the own group), or at the host's pid. The guard looks for them in
every string of every call, so this module is on the path of each call that holds ``kill``:
it is kept apart from the code reader (:mod:`passdown.gates._guard_code`), which loads only
for an interpreter given code.
"""

#: The characters of an identifier in the languages the guard reads.
IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def self_signal(text, host_pid, host_group=None):
    """Whether the text holds a call of a kill function aimed at the host: its parent
    (``getppid``, ``ppid``), every process or its own group (``-1``, ``0``), its group
    (``killpg`` of the own group), or the host's pid."""
    start = 0
    while True:
        at = text.find("kill", start)
        if at < 0:
            return False
        start = at + 4
        before = text[at - 1] if at else " "
        if before in IDENT and before != "_" and text[max(0, at - 6):at] != "posix_":
            continue
        j = at + 4
        while j < len(text) and text[j] in IDENT:
            j += 1
        name = text[at:j]
        if name not in ("kill", "killpg", "Kill"):
            continue
        k = j
        while k < len(text) and text[k] in " \t":
            k += 1
        if k < len(text) and text[k] == "(":
            close = _closing_paren(text, k)
            args = _split_args(text[k + 1:close])
            perl = False
        elif k > j and before not in "." and k < len(text) and text[k] not in "-=\n":
            end = min(len(text), k + 512)
            for stop in (";", "\n"):
                found = text.find(stop, k, end)
                if 0 <= found < end:
                    end = found
            args = _split_args(text[k:end])
            perl = True
            if len(args) < 2:
                continue
        else:
            continue
        joined = ",".join(args)
        if "ppid" in joined or "getpgrp" in joined or "getpgid(0" in joined or \
                "getpgid(os.getpid" in joined:
            return True
        owner = text[max(0, at - 8):at]
        targets = args[1:] if perl or owner.endswith("Process.") else args[:1]
        if name == "killpg":
            targets = args[:1]
        own = {str(host_pid), "-" + str(host_pid)} | ({"-" + str(host_group)} if host_group else set())
        if any(t in ("-1", "0", "-0") or t in own for t in targets):
            return True


def _closing_paren(text, k):
    level = 0
    for index in range(k, min(len(text), k + 512)):
        if text[index] == "(":
            level += 1
        elif text[index] == ")":
            level -= 1
            if level == 0:
                return index
    return min(len(text), k + 512)


def _split_args(inner):
    parts, level, current = [], 0, []
    for c in inner:
        if c in "([{":
            level += 1
        elif c in ")]}":
            level -= 1
        if c == "," and level == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(c)
    if current:
        parts.append("".join(current).strip())
    return [p.strip("'\" ") for p in parts]
