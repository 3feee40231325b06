"""A progress bar on stderr for long runs, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
import time

_WIDTH = 30
_EVERY = 0.1  # seconds between redraws
_AFTER = 0.5  # a run shorter than this never shows a bar


class Progress:
    """Call with ``(done, total)`` after each case; :meth:`finish` clears the line."""

    def __init__(self, stream=None):
        self._stream = sys.stderr if stream is None else stream
        self._last = time.monotonic() + _AFTER - _EVERY
        self._drawn = False

    @classmethod
    def for_terminal(cls):
        """A bar when stderr is a terminal, else ``None`` (no bar in logs or pipes)."""
        try:
            return cls() if sys.stderr.isatty() else None
        except (AttributeError, ValueError):
            return None

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < _EVERY:
            return
        self._last = now
        filled = _WIDTH * done // max(total, 1)
        self._stream.write(f"\r[{'#' * filled}{'.' * (_WIDTH - filled)}] {done}/{total}")
        self._stream.flush()
        self._drawn = True

    def finish(self) -> None:
        if self._drawn:
            self._stream.write("\r" + " " * (_WIDTH + 30) + "\r")
            self._stream.flush()
