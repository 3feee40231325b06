"""Who the host is, observed from the system by a hook the host started (spec/hosts.md, "The
host the guard judges"): the host's pid, its parent, process group and session, its process
names and command line, and the systemd units it runs in, as the guard gate's input fields.

The host is found up the parent chain from the hook's parent, past the shell the host runs hook
commands with (and wrappers such as ``env``). Everything is read from ``/proc``; what cannot
be read is left out (without ``/proc`` only the pid is known: the hook's parent). Any host
that starts hooks through a shell can use :func:`observe`; nothing here is specific to one
host. On the hook's fast path: imports nothing but the C module under ``os``, which the hook's
Python started without site (spec/hosts.md HST-207) has loaded; ``os`` would cost 1.2 ms more.
"""

try:
    import posix as system
except ImportError:  # Windows: without /proc, only the parent's pid is read
    import nt as system

#: Process names walked past when looking for the host above the hook.
WRAPPERS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "busybox", "env",
                      "nice", "nohup", "timeout", "cmd.exe", "pwsh", "powershell"})
#: Steps up the parent chain before giving up and taking the last process reached.
MAX_HOPS = 16
#: The guard reads at most this much of a command line.
MAX_COMMAND_LINE = 512
#: Unit kinds whose stop ends every process in them.
_UNIT_SUFFIXES = (".service", ".scope")


def _read(path, limit=65536):
    try:
        fd = system.open(path, system.O_RDONLY)
    except OSError:
        return None
    try:
        return system.read(fd, limit)
    except OSError:
        return None
    finally:
        system.close(fd)


def stat(pid, proc="/proc"):
    """``(name, parent, group, session)`` of ``pid`` from ``/proc/<pid>/stat``, or ``None``."""
    raw = _read(f"{proc}/{pid}/stat", 4096)
    if raw is None:
        return None
    text = raw.decode("utf-8", "replace")
    open_paren, close_paren = text.find("("), text.rfind(")")
    fields = text[close_paren + 2:].split()
    if open_paren < 0 or len(fields) < 4 or not all(f.lstrip("-").isdigit() for f in fields[1:4]):
        return None
    return (text[open_paren + 1:close_paren],) + tuple(int(f) for f in fields[1:4])


def host_pid(start=None, proc="/proc"):
    """The host's pid: up the parent chain from ``start`` (the hook's parent), past wrappers,
    to the first other process. Without ``/proc`` the start is taken as it is."""
    return _found_host(start, proc)[0]


def _found_host(start, proc):
    """``(the host's pid, its stat or None)``, as :func:`host_pid` finds it; the stat read
    on the way is kept, so that observing the host reads it once."""
    pid = system.getppid() if start is None else start
    for _ in range(MAX_HOPS):
        found = stat(pid, proc)
        if found is None or found[0] not in WRAPPERS or found[1] <= 1:
            return pid, found
        pid = found[1]
    return pid, stat(pid, proc)


def command_line(pid, proc="/proc"):
    """The words of ``pid``'s command line, or ``[]``."""
    raw = _read(f"{proc}/{pid}/cmdline")
    if not raw:
        return []
    return [word.decode("utf-8", "replace") for word in raw.rstrip(b"\0").split(b"\0")]


def units(pid, proc="/proc"):
    """The systemd units ``pid`` runs in, innermost first, from ``/proc/<pid>/cgroup``: every
    ``.service`` and ``.scope`` of its cgroup path (stopping any of them stops it)."""
    raw = _read(f"{proc}/{pid}/cgroup")
    if not raw:
        return []
    found = []
    for line in raw.decode("utf-8", "replace").splitlines():
        hierarchy, _, path = line.partition(":")[2].partition(":")
        if hierarchy not in ("", "name=systemd"):
            continue
        for part in reversed(path.split("/")):
            if part.endswith(_UNIT_SUFFIXES) and part not in found and "\\" not in part:
                found.append(part)
    return found


def _readable(text):
    return bool(text.strip()) and min(text) >= " " and "\x7f" not in text


def observe(pid=None, proc="/proc"):
    """The guard input fields that say who the host is. ``pid`` given: that process is the
    host; else it is found up the parent chain from this process's parent."""
    pid, found = _found_host(None, proc) if pid is None else (pid, stat(pid, proc))
    fields = {"host_pid": pid}
    if found is None:
        return fields
    name, parent, group, session = found
    if parent >= 1:
        fields["host_parent_pid"] = parent
    if group >= 1:
        fields["host_pgid"] = group
    if session >= 1:
        fields["host_sid"] = session
    words = command_line(pid, proc)
    names = [name] if _readable(name) else []
    if words:
        base = _base(words[0])
        if _readable(base) and base not in names:
            names.append(base)
    if names:
        fields["host_names"] = names
    line = " ".join(words)[:MAX_COMMAND_LINE]
    if _readable(line):
        fields["host_command_lines"] = [line]
    found_units = units(pid, proc)
    if found_units:
        fields["host_units"] = found_units[:16]
    held_by = _session_names(pid, session, proc)
    if held_by:
        fields["host_session_names"] = held_by
    return fields


def _session_names(pid, session, proc):
    """The names of what the host's session hangs on: its leader (the shell the host was
    started from) and the leader's parent (the terminal, multiplexer or remote login holding
    it), whose end ends the session and the host with it. None when the host leads its own."""
    leader = stat(session, proc) if 1 < session != pid else None
    if leader is None:
        return []
    names = [leader[0]]  # a shell, known by its name
    holder = stat(leader[1], proc) if leader[1] > 1 else None
    if holder is not None:  # a multiplexer may retitle itself ("tmux: server"): its program too
        words = command_line(leader[1], proc)
        names += [holder[0]] + ([_base(words[0])] if words else [])
    return [name for i, name in enumerate(names) if _readable(name) and name not in names[:i]]


def _base(word):
    """A command line's first word without its folder (or a login shell's ``-``), as the guard
    compares names."""
    return word.replace("\\", "/").rsplit("/", 1)[-1].lstrip("-")[:256]
