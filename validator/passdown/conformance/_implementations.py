"""What the runner runs cases against, behind one small interface: ``info`` (what it is),
``versions`` (``{gate: version}`` it implements, a version ``None`` where it states none, or
``None`` when it does not say which gates), ``answer(case) -> Answer`` and ``close()``. Two
live here: :class:`Reference`, the gate table in-process, and :class:`Program`, one process
per case. The persistent harness is in :mod:`passdown.conformance._harness`."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass

from passdown.formats._loading import load_bytes
from passdown.conformance._process import Child, ChildTimeout, OutputTooLarge, family, sweep

#: How an implementation answered one case (an :class:`Answer`'s ``kind``): not a case's
#: status, which the runner derives from it (:data:`passdown.conformance._runner.STATUSES`).
ANSWERED, ANSWER_SKIPPED, ANSWER_ERRORED = "answered", "skipped", "errored"
#: Why a case was skipped: the implementation does not list its gate, implements another
#: version of it, or said so itself (a harness's skipped result, a program's exit status 77).
GATE_NOT_LISTED, VERSION_MISMATCH, BY_IMPLEMENTATION = "gate_not_listed", "version_mismatch", "by_implementation"
#: One case's output larger than this is not an answer (every gate's output is a few KiB).
MAX_OUTPUT_BYTES = 1024 * 1024
#: The exit status with which a program says it does not run a case (as automake's tests do).
SKIP_STATUS = 77


@dataclass(frozen=True)
class Answer:
    """An implementation's answer to one case. ``kind`` is ``answered`` (with output, exit
    code and, where known, the printed text), ``skipped`` (with a message, the ``skip_code``
    saying why, and where the gap is tracked) or ``errored`` (with a message and context:
    stderr, a traceback, what the harness said)."""

    kind: str
    output: object = None
    exit_code: int | None = None
    stdout: str | None = None
    outcome: str | None = None
    message: str | None = None
    context: dict | None = None
    stderr: str | None = None
    skip_code: str | None = None
    issue_url: str | None = None


def skipped(message: str, code: str = BY_IMPLEMENTATION, issue_url: str | None = None) -> Answer:
    return Answer(ANSWER_SKIPPED, message=message, skip_code=code, issue_url=issue_url or None)


def errored(message: str, context: dict | None = None, stderr: str | None = None) -> Answer:
    return Answer(ANSWER_ERRORED, message=message, context=context or {}, stderr=stderr or None)


class Reference:
    """The built-in reference: the gate table, in this process. ``table`` maps gate names
    to gate modules (default: Passdown's own gate table)."""

    def __init__(self, table: dict | None = None):
        from passdown._version import __version__
        from passdown.conformance.profiles import PROFILES
        from passdown.conformance.versions import reference_versions

        self._table = table
        self.versions = reference_versions(table)
        self.info = {
            "name": "passdown", "language": "python", "version": __version__,
            "homepage": "https://spec.passdown.dev/", "gates": list(self.versions),
            "profiles": [name for name, gates in PROFILES.items()
                         if set(gates or ("restart", "title")) <= set(self.versions)],
        }

    def _module(self, gate):
        if self._table is not None:
            return self._table[gate]
        from passdown.gates import load

        return load(gate)

    def answer(self, case) -> Answer:
        try:
            module = self._module(case.gate)
        except KeyError:
            return skipped(f"the {case.gate} gate is not implemented", GATE_NOT_LISTED)
        except ImportError as error:
            return errored(f"the {case.gate} gate cannot be loaded: {error}",
                           {"traceback": traceback.format_exc()})
        try:
            if case.input_kind == "input":
                decision = module.decide(case.input_value)
            else:
                decision = module.run(case.raw_input())
        except Exception as error:  # a defect in the gate: shown, never fatal to the run
            return errored(f"the gate raised {type(error).__name__}: {error}",
                           {"traceback": traceback.format_exc()})
        finally:
            if case.padded_to >= _LARGE_INPUT:
                _give_back_freed_memory()
        return Answer(ANSWERED, output=decision.output, exit_code=decision.exit_code,
                      stdout=decision.text, outcome=decision.outcome)

    def close(self) -> None:
        pass


#: A padded input this large leaves freed memory behind (:func:`_give_back_freed_memory`).
_LARGE_INPUT = 1 << 20


def _give_back_freed_memory():
    """Hand the memory a size-bound case's input held back to the system. glibc serves a
    block just above its (self-raising) mmap threshold from the heap, and keeps it there
    when it is freed: a 24 MiB case would stay in the run's resident memory to the end.
    Elsewhere (no ``malloc_trim``) nothing is done."""
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (ImportError, OSError, AttributeError):
        pass


class Program:
    """One process per case: ``argv`` plus the gate name as its last argument, the input
    bytes on stdin, the case id in ``PASSDOWN_CASE_ID`` and the version its fixture is for in
    ``PASSDOWN_GATE_VERSION``; its stdout must be the gate's JSON output, its status the exit
    code, or status 77 (and nothing, or a skip object, on stdout) for a case it does not run.
    Safe to call from several threads at once."""

    concurrent = True

    def __init__(self, argv: list[str], *, timeout: float, env: dict | None = None):
        self._argv = list(argv)
        self._timeout = timeout
        self._env = env
        self._family = family()
        self.versions = None
        self.info = {"name": " ".join(argv), "language": "unknown", "version": "unknown",
                     "gates": None}

    def answer(self, case) -> Answer:
        import os

        env = dict(os.environ if self._env is None else self._env,
                   PASSDOWN_CASE_ID=case.id, PASSDOWN_GATE_VERSION=case.gate_version)
        try:
            child = Child(self._argv + [case.gate], env=env, out_limit=MAX_OUTPUT_BYTES, family=self._family)
        except OSError as error:
            return errored(f"cannot start {self._argv[0]!r}: {error.strerror or error}")
        with child:
            deadline = time.monotonic() + self._timeout
            try:
                raw = child.communicate(case.raw_input(), deadline)
                status = child.wait(deadline - time.monotonic())
                if status is None:
                    raise ChildTimeout()
            except ChildTimeout:
                return errored(f"no answer within {self._timeout:g} s; the process was killed",
                               stderr=child.take_stderr())
            except OutputTooLarge:
                return errored(f"the output exceeded {MAX_OUTPUT_BYTES} bytes; the process was killed",
                               stderr=child.take_stderr())
            stderr = child.take_stderr()
        if status < 0:
            return errored(f"the process was killed by signal {-status}", stderr=stderr)
        if status == SKIP_STATUS:
            return _skip_of(raw, stderr)
        text = raw.decode("utf-8", "replace")
        if not raw.strip():
            return errored(f"the process printed nothing (exit status {status})", stderr=stderr)
        loaded, findings = load_bytes(raw, source=None, syntax="json")
        if loaded is None:
            return errored(f"the output is not strict JSON ({findings[0].code}: {findings[0].message})",
                           {"stdout": text[:2000]}, stderr)
        return Answer(ANSWERED, output=loaded.data, exit_code=status, stdout=text, stderr=stderr)

    def close(self) -> None:
        sweep(self._family)


def _skip_of(raw: bytes, stderr: str) -> Answer:
    """A program's exit status 77: skipped, with the reason it printed (if any)."""
    if not raw.strip():
        return skipped(f"the program does not run this case (exit status {SKIP_STATUS})")
    from passdown.conformance import _protocol

    try:
        message = _protocol.decode(raw.strip(), "skipped")
    except _protocol.ProtocolError as error:
        return errored(f"exit status {SKIP_STATUS} means skipped, but stdout is not a skip object: {error}",
                       {"stdout": raw[:2000].decode("utf-8", "replace")}, stderr)
    return skipped(message.get("message") or f"the program does not run this case (exit status {SKIP_STATUS})",
                   issue_url=message.get("issue_url"))
