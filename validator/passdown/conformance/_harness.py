"""The harness client: one persistent process speaking the harness protocol
(:mod:`passdown.conformance._protocol`). It reads the gates and versions the harness implements
from its ``ready`` line, times out a silent harness, captures its stderr, restarts it after a
crash, a timeout or a broken reply (up to a bound) and carries on, and ends it with
everything it started when done. Nothing here can hang or grow without bound: every read and
write has a deadline, and what a harness writes is capped while it is read."""

from __future__ import annotations

import time

from passdown.errors import PassdownError
from passdown.conformance import _protocol
from passdown.conformance._implementations import ANSWERED, Answer, errored, skipped
from passdown.conformance._process import Child, ChildGone, ChildTimeout, OutputTooLarge, family, sweep

#: How long a harness may take to exit after ``stop`` before its group is killed.
STOP_GRACE = 1.0


class HarnessFailed(PassdownError):
    """The harness could not be started (or restarted) and answered no ``start``."""

    exit_code = 1
    code = "conformance.harness_failed"


class Harness:
    """A harness process driven case by case. ``start()`` must succeed before ``answer``;
    ``restarts`` bounds how often a crashed or stuck harness is started again."""

    def __init__(self, argv: list[str], *, timeout: float, restarts: int = 10,
                 env: dict | None = None):
        self._argv = list(argv)
        self._timeout = timeout
        self._restarts_left = restarts
        self.restarts = 0
        self._env = env
        self._family = family()
        self._child: Child | None = None
        self._seq = 0
        self._gave_up: str | None = None
        self.info: dict | None = None
        self.versions: dict[str, str | None] | None = None

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        """Start the harness and read its ``ready`` line; :class:`HarnessFailed` if it fails."""
        try:
            child = Child(self._argv, env=self._env, out_limit=_protocol.MAX_REPLY_BYTES, family=self._family)
        except OSError as error:
            raise HarnessFailed(f"cannot start {self._argv[0]!r}: {error.strerror or error}",
                                hint="check the --harness command and that it is executable") from None
        deadline = time.monotonic() + self._timeout
        try:
            child.send(_protocol.start(), deadline)
            line = child.read_line(deadline)
            ready = _protocol.decode(line, "ready")
        except (ChildTimeout, ChildGone, OutputTooLarge, _protocol.ProtocolError) as error:
            reason = _describe(error, child, self._timeout, "ready")
            stderr = child.take_stderr()
            child.kill()
            raise HarnessFailed(f"the harness did not start: {reason}" + _stderr_note(stderr),
                                hint="run the command by hand and send it {\"cmd\": \"start\", \"version\": 1}") from None
        self._child = child
        self._seq = 0
        if self.info is None:
            self.info = dict(ready["implementation"])
            self.versions = _protocol.gate_versions(ready)

    def close(self) -> None:
        """Send ``stop``, give the harness a moment to exit, then end it and everything any
        of its incarnations started."""
        child, self._child = self._child, None
        try:
            if child is not None:
                child.send(_protocol.stop(), time.monotonic() + STOP_GRACE)
                child.close_stdin()
                child.wait(STOP_GRACE)
        except (ChildGone, ChildTimeout, OutputTooLarge):
            pass
        finally:
            if child is not None:
                child.kill()
            sweep(self._family)

    def _abandon(self) -> None:
        if self._child is not None:
            self._child.kill()
            self._child = None

    def _ensure_running(self) -> str | None:
        """Restart the harness if it is down; the reason it cannot be, or ``None``."""
        last_failure = None
        while self._child is None:
            if self._gave_up:
                return self._gave_up
            if self._restarts_left <= 0:
                self._gave_up = (f"the harness stopped and was restarted {self.restarts} times; "
                                 "giving up on the remaining cases")
                if last_failure:
                    self._gave_up += f" (last restart: {last_failure})"
                return self._gave_up
            self._restarts_left -= 1
            self.restarts += 1
            try:
                self.start()
            except HarnessFailed as error:
                last_failure = error.message
        return None

    # -- cases ---------------------------------------------------------------------------

    def answer(self, case) -> Answer:
        problem = self._ensure_running()
        if problem:
            return errored(problem)
        child = self._child
        self._seq += 1
        seq = self._seq
        deadline = time.monotonic() + self._timeout
        try:
            child.take_stderr()  # what came before this case belongs to no case
            child.send(_protocol.run(seq, case), deadline)
            line = child.read_line(deadline)
            reply = _protocol.decode(line, "result")
            if reply["seq"] != seq:
                raise _protocol.ProtocolError(f"the reply carries seq {reply['seq']}, expected {seq}")
        except (ChildTimeout, ChildGone, OutputTooLarge, _protocol.ProtocolError) as error:
            reason = _describe(error, child, self._timeout, "result")
            stderr = child.take_stderr()
            self._abandon()
            return errored(reason + "; the harness will be restarted", {}, stderr)
        stderr = child.take_stderr()
        if reply.get("skipped"):
            return skipped(reply.get("message") or "skipped by the harness", issue_url=reply.get("issue_url"))
        if reply.get("errored"):
            context = reply.get("context") or {}
            message = context.get("message") if isinstance(context.get("message"), str) else None
            return errored(message or "the harness reported an error", context, stderr)
        return Answer(ANSWERED, output=reply["output"], exit_code=reply["exit_code"],
                      stdout=reply.get("stdout"), stderr=stderr or None)


def _describe(error, child, timeout, expected) -> str:
    if isinstance(error, ChildTimeout):
        return f"no {expected} line within {timeout:g} s"
    if isinstance(error, OutputTooLarge):
        return f"more than {_protocol.MAX_REPLY_BYTES} bytes of output without a complete {expected} line"
    if isinstance(error, ChildGone):
        status = child.wait(0.5)
        how = "exited" if status is None or status >= 0 else "was killed"
        detail = "" if status is None else (f" with status {status}" if status >= 0 else f" by signal {-status}")
        return f"the harness {how}{detail} before answering"
    return f"protocol error: {error}"


def _stderr_note(stderr: str) -> str:
    stderr = stderr.strip()
    if not stderr:
        return ""
    tail = stderr[-2000:]
    return "\n  stderr:\n" + "\n".join("    " + line for line in tail.splitlines())
