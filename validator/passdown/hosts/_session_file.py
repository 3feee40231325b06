"""A host's session file (a JSON Lines transcript or rollout) read from its two ends, never
whole (spec/hosts.md, HST-101): the head for what the session states once (its id, its start),
the tail, frame by frame from the end, for its latest state.

Both ends are bounded: the head by :data:`HEAD_BYTES`, the tail by :data:`TAIL_BYTES`, read in
blocks of :data:`BLOCK_BYTES`; what the reader took is counted in ``bytes_read``, so an
observation says how much of the file it looked at. A line that does not parse (the host is
still writing it, or it is not JSON) is skipped and counted, never guessed at. The file is
opened without following it into a FIFO or a device: only a regular file is read.
"""

from __future__ import annotations

import json
import os
import stat

#: The most read from the start of the file.
HEAD_BYTES = 256 * 1024
#: The most read from the end of the file, in blocks of BLOCK_BYTES.
TAIL_BYTES = 16 * 1024 * 1024
BLOCK_BYTES = 64 * 1024


class SessionFileError(Exception):
    """The file cannot be read as a session file: ``code`` and a message."""

    def __init__(self, code, message, hint):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


def host_folder(environ, variable, name):
    """A host's own folder: ``$variable`` when set, else ``~/name``."""
    environ = os.environ if environ is None else environ
    return environ.get(variable) or os.path.join(
        environ.get("HOME") or os.path.expanduser("~"), name)


def _parse(line):
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


class SessionFile:
    """One session file, opened for reading from its ends."""

    def __init__(self, path, *, head_bytes=HEAD_BYTES, tail_bytes=TAIL_BYTES):
        self.path = os.fspath(path)
        self.head_bytes, self.tail_bytes = head_bytes, tail_bytes
        self._head_end = 0
        self._tail_start = None
        self.skipped = 0
        #: Whether the tail reader stopped at its bound before the start of the file.
        self.tail_exhausted = False
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            raise SessionFileError("observe.no_transcript", f"{self.path}: no such file",
                                   "pass the session file with --transcript, or --session "
                                   "ID / --project DIR to find it") from None
        except OSError as error:
            raise SessionFileError("observe.no_transcript",
                                   f"{self.path}: {error.strerror or type(error).__name__}",
                                   "check the path and its permissions") from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise SessionFileError("observe.no_transcript", f"{self.path}: not a regular file",
                                   "pass the session's .jsonl file")
        self._fd = fd
        self.size = info.st_size
        self.mtime = info.st_mtime

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read(self, offset, count):
        return os.pread(self._fd, count, offset)

    @property
    def bytes_read(self):
        """The bytes of the file read, each counted once (the two ends may meet)."""
        if self._tail_start is None:
            return self._head_end
        return self._head_end + self.size - max(self._tail_start, self._head_end)

    def head(self):
        """The records of the complete lines in the first ``head_bytes``, in file order."""
        data = self._read(0, min(self.size, self.head_bytes))
        self._head_end = max(self._head_end, len(data))
        lines = data.split(b"\n")
        # the last piece is cut by the bound, or still being written: the tail reads it
        lines = lines[:-1]
        records = []
        for line in lines:
            if line.strip():
                record = _parse(line)
                if record is None:
                    self.skipped += 1
                else:
                    records.append(record)
        return records

    def tail(self):
        """The record of each line from the last one backwards, block by block, until the
        start of the file or ``tail_bytes`` read (then ``tail_exhausted``)."""
        end = self.size
        budget = self.tail_bytes
        carry = b""
        # the blocks of one line longer than a block, newest first: joined once, when the
        # line's start is found, so a long line costs its length, not its length squared
        pieces = []
        while end > 0:
            if budget <= 0:
                self.tail_exhausted = True
                return
            count = min(BLOCK_BYTES, end, budget)
            start = end - count
            data = self._read(start, count)
            self._tail_start = start
            budget -= count
            end = start
            if start > 0 and b"\n" not in data:
                pieces.append(data)
                continue
            if pieces:
                carry = b"".join(reversed(pieces)) + carry
                pieces = []
            lines = data.split(b"\n")
            lines[-1] += carry  # the carry holds no line feed: it ends the block's last line
            # the first piece may continue in the block before: keep it for the next round
            carry = lines[0] if start > 0 else b""
            complete = lines[1:] if start > 0 else lines
            for line in reversed(complete):
                if not line.strip():
                    continue
                record = _parse(line)
                if record is None:
                    self.skipped += 1
                    continue
                yield record
        if carry.strip():
            record = _parse(carry)
            if record is None:
                self.skipped += 1
            else:
                yield record
