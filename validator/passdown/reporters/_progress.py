"""The progress line of a long folder walk: files checked of the total, the rate and the time
left, redrawn in place on a terminal's stderr and erased when the walk ends, so that what the
command prints on stdout (text, JSON, SARIF) is the same with or without it.

Nothing is drawn for a walk that ends within :data:`DELAY` seconds, and the line is redrawn
at most every :data:`INTERVAL` seconds. :func:`wanted` says when to draw at all: stdout and
stderr both terminals, and no ``-q``.
"""

from __future__ import annotations

import sys
import time

#: Seconds a walk runs before its progress is first drawn.
DELAY = 0.5
#: Seconds between two redraws.
INTERVAL = 0.2
#: Erases the current terminal line (carriage return, then erase to the end of the line).
ERASE = "\r\x1b[K"


def wanted(quiet: bool, stdout=None, stderr=None) -> bool:
    """Draw progress: both streams are terminals (nothing is piped) and ``-q`` was not given."""
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    return not quiet and _isatty(stdout) and _isatty(stderr)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False


def line(done: int, total: int, elapsed: float) -> str:
    """``checked 1,200 of 5,000 files, 800 files/s, about 5 s left`` (the rate and the time
    left once a file was checked)."""
    text = f"checked {done:,} of {total:,} files"
    if done and elapsed > 0:
        rate = done / elapsed
        left = (total - done) / rate
        text += f", {rate:,.0f} files/s, about {_duration(left)} left"
    return text


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds:02d} s"


class Progress:
    """A callable ``progress(done, total)`` the walk calls after each file, drawing on
    ``stream``; :meth:`close` erases the line. ``clock`` is :func:`time.monotonic` unless a
    test gives another."""

    def __init__(self, stream=None, clock=time.monotonic, delay: float | None = None,
                 interval: float | None = None):
        self._stream = sys.stderr if stream is None else stream
        self._clock = clock
        self._delay = DELAY if delay is None else delay
        self._interval = INTERVAL if interval is None else interval
        self._started = clock()
        self._drawn_at = None

    def __call__(self, done: int, total: int) -> None:
        now = self._clock()
        if now - self._started < self._delay:
            return
        if self._drawn_at is not None and now - self._drawn_at < self._interval and done < total:
            return
        self._drawn_at = now
        self._stream.write(ERASE + line(done, total, now - self._started))
        self._stream.flush()

    def close(self) -> None:
        if self._drawn_at is not None:
            self._stream.write(ERASE)
            self._stream.flush()
            self._drawn_at = None
