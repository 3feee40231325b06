"""Child processes that can never hang the runner or exhaust its memory, and never outlive it.

- Every read and write has a deadline, and stdout and stderr are drained while input is
  written, so a child that writes before it reads (or floods stderr) cannot block the runner.
- Output is bounded while it is read: stdout beyond the child's bound ends the exchange
  (:class:`OutputTooLarge`), and only the tail of stderr is kept. A child that floods stdout
  and stops reading its input costs at most the bound, never more.
- A program's answer is complete when the program itself exits, not when every copy of its
  stdout is closed: a descendant that keeps the pipe open (a daemon, a ``setsid`` grandchild)
  cannot turn an answered case into a timeout.
- Every process a child started is ended: its process group with it, and every process
  carrying its token (an environment variable each child's descendants inherit, so one that
  left the session with ``setsid`` is found too) with it while one still holds its pipes, else
  by :func:`sweep` when the implementation is done. With :func:`adopt_orphans` (the CLI's own
  process only) orphans are re-parented to the runner rather than to init, so the last sweep
  finds even those that cleared their environment.
"""

from __future__ import annotations

import itertools
import os
import secrets
import select
import selectors
import signal
import subprocess
import threading
import time

#: The most stderr kept per child: the tail is what explains a crash.
STDERR_TAIL = 64 * 1024
#: The environment variable that marks every process a child starts, and its descendants.
TOKEN_VARIABLE = "PASSDOWN_CONFORMANCE_PROCESS"
#: How long to wait for killed processes to disappear before giving up on reaping them.
_REAP_GRACE = 2.0
#: Without a pidfd, how often the child's exit is polled while waiting on its pipes.
_POLL = 0.05

_RUN = f"{os.getpid()}-{secrets.token_hex(4)}"
_NUMBERS = itertools.count(1)
_LIVE: set[int] = set()  # pids of children not yet ended, never swept as orphans
_LIVE_LOCK = threading.Lock()
_ADOPTING = False


class ChildTimeout(Exception):
    """The child did not answer before the deadline."""


class ChildGone(Exception):
    """The child closed its stdout (it exited or crashed)."""


class OutputTooLarge(Exception):
    """The child wrote more than the bound allows."""


def family() -> str:
    """A new mark for the children of one implementation (and so for their descendants), a
    prefix of every :class:`Child` token made with it: :func:`sweep` of it ends them all."""
    return f"{_RUN}.{next(_NUMBERS)}."


class Child:
    """One child process in its own session and process group, spoken to through pipes.
    ``out_limit`` bounds the stdout held at any time; ``family`` (from :func:`family`) marks
    it as one of an implementation's processes."""

    def __init__(self, argv: list[str], *, env: dict | None = None, out_limit: int, family: str | None = None):
        self.argv = argv
        self.token = f"{family or _RUN + '.'}{next(_NUMBERS)}"
        environment = dict(os.environ if env is None else env)
        environment[TOKEN_VARIABLE] = self.token
        self._proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, start_new_session=True, env=environment, close_fds=True,
        )
        self.pid = self._proc.pid
        with _LIVE_LOCK:
            _LIVE.add(self.pid)
        self._out_limit = out_limit
        self._stdin = self._proc.stdin.fileno()
        self._out_fd = self._proc.stdout.fileno()
        self._err_fd = self._proc.stderr.fileno()
        for fd in (self._stdin, self._out_fd, self._err_fd):
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out_fd, selectors.EVENT_READ)
        self._selector.register(self._err_fd, selectors.EVENT_READ)
        self._pidfd = _pidfd(self.pid)
        if self._pidfd is not None:
            self._selector.register(self._pidfd, selectors.EVENT_READ)
        self._exited = False
        self._pending = memoryview(b"")
        self._stdin_open = True
        self._out = bytearray()
        self._out_eof = False
        self._err = bytearray()
        self._err_eof = False
        self._err_mark = 0  # bytes of stderr already handed out by take_stderr()
        self._closed = False

    # -- pumping -------------------------------------------------------------------------

    def _pump(self, deadline: float, done) -> None:
        """Write pending input and read both outputs until ``done()`` or the deadline."""
        while not done():
            if self._out_eof and not self._pending:
                raise ChildGone()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChildTimeout()
            if self._pending and self._stdin_open:
                self._watch_stdin(True)
            wait = remaining if self._pidfd is not None or self._exited else min(remaining, _POLL)
            for key, _ in self._selector.select(wait):
                if key.fd == self._stdin:
                    self._write_some()
                elif key.fd == self._out_fd:
                    self._read(self._out_fd)
                elif key.fd == self._err_fd:
                    self._read(self._err_fd)
                else:
                    self._mark_exited()
            if self._pidfd is None and not self._exited and self._proc.poll() is not None:
                self._mark_exited()

    def _mark_exited(self) -> None:
        self._exited = True
        if self._pidfd is not None and self._pidfd in self._selector.get_map():
            self._selector.unregister(self._pidfd)

    def _watch_stdin(self, on: bool) -> None:
        registered = self._stdin in self._selector.get_map()
        if on and not registered:
            self._selector.register(self._stdin, selectors.EVENT_WRITE)
        elif not on and registered:
            self._selector.unregister(self._stdin)

    def _write_some(self) -> None:
        try:
            written = os.write(self._stdin, self._pending[:65536])
        except BlockingIOError:
            return
        except (BrokenPipeError, OSError):
            # The child stopped reading (it exited): what it printed still counts. The pipe
            # is closed here, not left for the garbage collector.
            self._pending = memoryview(b"")
            self.close_stdin()
            return
        self._pending = self._pending[written:]
        if not self._pending:
            self._watch_stdin(False)

    def _read(self, fd: int) -> bool:
        """Read what is there; whether anything was (``False`` at the end or when empty)."""
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return False
        except OSError:
            chunk = b""
        if fd == self._out_fd:
            if not chunk:
                self._out_eof = True
                self._selector.unregister(fd)
                return False
            self._out += chunk
            if len(self._out) > self._out_limit:
                raise OutputTooLarge()
            return True
        if not chunk:
            self._err_eof = True
            self._selector.unregister(fd)
            return False
        self._err += chunk
        if len(self._err) > 2 * STDERR_TAIL:
            cut = len(self._err) - STDERR_TAIL
            del self._err[:cut]
            self._err_mark = max(0, self._err_mark - cut)
        return True

    def _drain(self) -> None:
        """Read what the pipes hold now, without waiting for more."""
        for fd, at_end in ((self._out_fd, lambda: self._out_eof), (self._err_fd, lambda: self._err_eof)):
            while not at_end() and self._read(fd):
                pass

    # -- the two ways of talking ---------------------------------------------------------

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` to stdin (reading outputs meanwhile) before the deadline."""
        if not self._stdin_open:
            raise ChildGone()
        self._pending = memoryview(bytes(data))
        self._pump(deadline, lambda: not self._pending)
        if not self._stdin_open:
            raise ChildGone()

    def read_line(self, deadline: float) -> bytes:
        """The next line of stdout, without its newline."""
        try:
            self._pump(deadline, lambda: b"\n" in self._out)
        except ChildGone:
            if b"\n" not in self._out:
                raise
        line, _, rest = bytes(self._out).partition(b"\n")
        self._out = bytearray(rest)
        return line

    def communicate(self, data: bytes, deadline: float) -> bytes:
        """Send ``data``, close stdin, and read stdout until the child exits (or closes it).
        What the child wrote before it exited is all in the pipe: once it has exited, the
        pipe is drained and a descendant still holding it open is not waited for."""
        self._pending = memoryview(bytes(data))

        def finished():
            if not self._pending and self._stdin_open:
                self.close_stdin()
            if self._pending:
                return False
            if self._exited:
                self._drain()
                return True
            return self._out_eof

        try:
            self._pump(deadline, finished)
        except ChildGone:
            pass
        return bytes(self._out)

    def close_stdin(self) -> None:
        if self._stdin_open:
            self._stdin_open = False
            self._watch_stdin(False)
            try:
                self._proc.stdin.close()
            except OSError:  # a full pipe to a dead child: the fd is closed all the same
                pass

    # -- ending --------------------------------------------------------------------------

    def wait(self, timeout: float) -> int | None:
        """The exit status, or ``None`` if the child is still running after ``timeout``. With a
        pidfd the exit is waited for on it, not polled: a program that closes its stdout just
        before it exits (most do) is reaped as it ends, not after the next sleep of a poll."""
        if self._pidfd is not None and not self._closed and not self._exited \
                and self._proc.returncode is None:
            waiting = select.poll()  # not select(): a pidfd may be numbered past FD_SETSIZE
            waiting.register(self._pidfd, select.POLLIN)
            if not waiting.poll(max(0.0, timeout) * 1000):
                return None
            self._mark_exited()
        try:
            return self._proc.wait(timeout=max(0.0, timeout))
        except subprocess.TimeoutExpired:
            return None

    @property
    def returncode(self) -> int | None:
        return self._proc.poll()

    def take_stderr(self) -> str:
        """What the child wrote to stderr since the last call (the tail, if it was long)."""
        deadline = time.monotonic() + 0.05
        while not self._closed and not self._err_eof and time.monotonic() < deadline:
            if not self._read(self._err_fd):
                break
        text = bytes(self._err[self._err_mark:]).decode("utf-8", "replace")
        self._err_mark = len(self._err)
        return text

    def kill(self) -> None:
        """End the child and everything it started, reap it and close every pipe."""
        if self._closed:
            return
        self._closed = True
        _signal_group(self.pid)
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        with _LIVE_LOCK:
            _LIVE.discard(self.pid)
        try:
            self._drain()
        except OutputTooLarge:
            pass
        if not (self._out_eof and self._err_eof):
            # A descendant outside the group (its own session, say) still holds our pipes:
            # the token finds it wherever it went. Ones that let go are left to sweep().
            _end(_marked(self.token + "\0") | _in_session(self.pid))
        self.close_stdin()
        self._selector.close()
        if self._pidfd is not None:
            os.close(self._pidfd)
        for stream in (self._proc.stdout, self._proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()


# -- finding and ending descendants ----------------------------------------------------------

def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux, or a kernel older than 5.3
        return None


def _signal_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _proc_pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:  # no /proc: only process groups can be ended
        return []


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name: state, ppid, pgrp, session..."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def _marked(token: str) -> set[int]:
    """Processes whose environment carries ``TOKEN_VARIABLE`` starting with ``token`` (a run
    prefix ending in ``.``, or one child's token ending in NUL)."""
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    found = set()
    for pid in _proc_pids():
        if pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environment = handle.read()
        except OSError:  # gone, or another user's
            continue
        if environment.startswith(needle) or b"\0" + needle in environment:
            found.add(pid)
    return found


def _in_session(session: int) -> set[int]:
    """Every process of the session ``session`` leads (what the process group misses: a
    descendant that moved to a group of its own)."""
    found = set()
    for pid in _proc_pids():
        fields = _stat(pid)
        if fields and len(fields) > 3 and fields[3] == str(session) and fields[0] != "Z":
            found.add(pid)
    return found


def _adopted() -> set[int]:
    """Children of this process that no :class:`Child` owns: orphans re-parented to it."""
    me = str(os.getpid())
    with _LIVE_LOCK:
        live = set(_LIVE)
    return {pid for pid in _proc_pids()
            if pid not in live and (fields := _stat(pid)) and len(fields) > 1 and fields[1] == me}


def _end(pids: set[int]) -> None:
    """SIGKILL each of ``pids`` and reap the ones that are this process's children."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    deadline = time.monotonic() + _REAP_GRACE
    waiting = set(pids)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours: init reaps it; wait until it is gone
                fields = _stat(pid)
                done = pid if fields is None or fields[0] in ("Z", "X") else 0
            if done:
                waiting.discard(pid)
        if waiting:
            time.sleep(0.01)


def sweep(marked: str | None = None) -> None:
    """End every process left behind by the children of one :func:`family` (``marked``), or
    by every child of this process and, when it adopts orphans, every orphan it adopted."""
    found = _marked(marked or _RUN + ".")
    if marked is None and _ADOPTING:
        found |= _adopted()
    if found:
        _end(found)


def adopt_orphans() -> bool:
    """Make this process the subreaper of its descendants (Linux), so that an orphan is
    re-parented to it and :func:`sweep` can end it. For a process that only runs conformance
    (the CLI): a library caller's own children's orphans would be adopted too."""
    global _ADOPTING
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        _ADOPTING = libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        _ADOPTING = False
    return _ADOPTING
