"""Hostile implementations of the toy shout gate, for the runner's resource tests.

    hostile.py MODE [GATE]    (program mode when GATE is given, else a harness)

Modes:

- ``setsid_holder`` (program): answers, but first forks a child that starts its own session
  with ``setsid`` and sleeps a minute holding the program's stdout;
- ``daemon`` (program): answers, but first double-forks a daemon in its own session that
  closes every inherited descriptor and replaces itself with ``sleep`` in an empty
  environment (no mark of the runner left on it);
- ``chatty`` (program): writes 2 MiB to stderr before it reads its input, then answers;
- ``flood`` (harness): answers ``start``, then from the first bytes of the first ``run`` on
  never reads its stdin again, and writes to stdout without end, never a newline.

Every process started on the side writes its pid into the folder ``HOSTILE_PIDS``.
"""

import json
import os
import sys
import time


def note_pid(pid=None):
    folder = os.environ.get("HOSTILE_PIDS")
    if folder:
        with open(os.path.join(folder, str(pid or os.getpid())), "w") as handle:
            handle.write("")


def shout(raw):
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {"error": "invalid_input"}, 2
    if len(raw) > 64 or not isinstance(value, dict) or not isinstance(value.get("text"), str):
        return {"error": "invalid_input"}, 2
    output = {"text": value["text"].upper(), "length": len(value["text"])}
    if isinstance(value.get("scale"), (int, float)) and not isinstance(value["scale"], bool):
        output["scaled"] = value["scale"] * 1.5
    return output, 0


def _started(child):
    """Fork; in the child, run ``child(ready)`` where ``ready()`` tells the parent the child
    has noted its pid; the parent returns once it has (so no test races the note)."""
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        os.close(read_end)

        def ready():
            os.write(write_end, b"x")
            os.close(write_end)

        child(ready)
        os._exit(0)
    os.close(write_end)
    os.read(read_end, 1)
    os.close(read_end)


def setsid_holder():
    def child(ready):
        os.setsid()
        note_pid()
        ready()
        time.sleep(60)

    _started(child)


def daemon():
    def child(ready):
        os.setsid()
        if os.fork() == 0:
            note_pid()
            ready()
            for fd in range(0, 256):
                try:
                    os.close(fd)
                except OSError:
                    pass
            os.execve("/bin/sleep", ["sleep", "60"], {})
        os._exit(0)

    _started(child)


def program(mode):
    if mode == "setsid_holder":
        setsid_holder()
    elif mode == "daemon":
        daemon()
    elif mode == "chatty":
        for _ in range(32):
            sys.stderr.write("e" * 65535 + "\n")
        sys.stderr.flush()
    output, status = shout(sys.stdin.buffer.read())
    sys.stdout.write(json.dumps(output, sort_keys=True) + "\n")
    sys.stdout.flush()
    return status


def harness(mode):
    sys.stdin.buffer.readline()  # start
    sys.stdout.write(json.dumps({"ready": True, "version": 1, "implementation": {
        "name": "hostile", "language": "python", "version": "0", "gates": {"shout": "1.0.0"}}}) + "\n")
    sys.stdout.flush()
    os.read(0, 16)  # the first bytes of a run line: from here on, stdin is never read again
    chunk = b"x" * 65536
    while mode == "flood":
        sys.stdout.buffer.write(chunk)
    return 0


if __name__ == "__main__":
    sys.exit(program(sys.argv[1]) if len(sys.argv) > 2 else harness(sys.argv[1]))
