"""Child processes that can never hang the runner: every read and write has a deadline,
stdout and stderr are drained together (a chatty stderr cannot block the child), output is
bounded, and the whole process group is killed on the way out."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time

#: The most stderr kept per child: the tail is what explains a crash.
STDERR_TAIL = 64 * 1024


class ChildTimeout(Exception):
    """The child did not answer before the deadline."""


class ChildGone(Exception):
    """The child closed its stdout (it exited or crashed)."""


class OutputTooLarge(Exception):
    """The child wrote more than the bound allows."""


class Child:
    """One child process in its own process group, spoken to through pipes."""

    def __init__(self, argv: list[str], *, env: dict | None = None):
        self.argv = argv
        self._proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0, start_new_session=True, env=env, close_fds=True,
        )
        self.pid = self._proc.pid
        self._stdin = self._proc.stdin.fileno()
        self._out_fd = self._proc.stdout.fileno()
        self._err_fd = self._proc.stderr.fileno()
        for fd in (self._stdin, self._out_fd, self._err_fd):
            os.set_blocking(fd, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out_fd, selectors.EVENT_READ)
        self._selector.register(self._err_fd, selectors.EVENT_READ)
        self._pending = memoryview(b"")
        self._stdin_open = True
        self._out = bytearray()
        self._out_eof = False
        self._err = bytearray()
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
            for key, events in self._selector.select(remaining):
                if key.fd == self._stdin:
                    self._write_some()
                elif key.fd == self._out_fd:
                    self._read(self._out_fd)
                else:
                    self._read(self._err_fd)

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
            # The child stopped reading (it exited): what it printed still counts.
            self._pending = memoryview(b"")
            self._watch_stdin(False)
            self._stdin_open = False
            return
        self._pending = self._pending[written:]
        if not self._pending:
            self._watch_stdin(False)

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if fd == self._out_fd:
            if chunk:
                self._out += chunk
            else:
                self._out_eof = True
                self._selector.unregister(fd)
        elif chunk:
            self._err += chunk
            if len(self._err) > 2 * STDERR_TAIL:
                cut = len(self._err) - STDERR_TAIL
                del self._err[:cut]
                self._err_mark = max(0, self._err_mark - cut)
        else:
            self._selector.unregister(fd)

    # -- the two ways of talking ---------------------------------------------------------

    def send(self, data: bytes, deadline: float) -> None:
        """Write ``data`` to stdin (reading outputs meanwhile) before the deadline."""
        if not self._stdin_open:
            raise ChildGone()
        self._pending = memoryview(bytes(data))
        self._pump(deadline, lambda: not self._pending)
        if not self._stdin_open:
            raise ChildGone()

    def read_line(self, deadline: float, limit: int) -> bytes:
        """The next line of stdout, without its newline."""
        def ready():
            if len(self._out) > limit and b"\n" not in self._out:
                raise OutputTooLarge()
            return b"\n" in self._out
        try:
            self._pump(deadline, ready)
        except ChildGone:
            if b"\n" not in self._out:
                raise
        line, _, rest = bytes(self._out).partition(b"\n")
        self._out = bytearray(rest)
        return line

    def communicate(self, data: bytes, deadline: float, limit: int) -> bytes:
        """Send ``data``, close stdin, and read stdout to its end."""
        self._pending = memoryview(bytes(data))

        def finished():
            if len(self._out) > limit:
                raise OutputTooLarge()
            if not self._pending and self._stdin_open:
                self.close_stdin()
            return self._out_eof and not self._pending

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
        """The exit status, or ``None`` if the child is still running after ``timeout``."""
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
        while not self._closed and self._err_fd in self._selector.get_map() \
                and time.monotonic() < deadline:
            events = self._selector.select(0)
            if not events:
                break
            for key, _ in events:
                self._read(key.fd)
        text = bytes(self._err[self._err_mark:]).decode("utf-8", "replace")
        self._err_mark = len(self._err)
        return text

    def kill(self) -> None:
        """Kill the child's whole process group, reap it and close every pipe."""
        if self._closed:
            return
        self._closed = True
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self.close_stdin()
        self._selector.close()
        for stream in (self._proc.stdout, self._proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
