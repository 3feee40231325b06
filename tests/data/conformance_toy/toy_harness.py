"""A toy implementation of the shout gate, for the runner's tests: speaks the harness
protocol, or runs one case in program mode (gate name as last argument). TOY_MODE makes it
misbehave: wrong, crash, silent, garbage, badseq, noready, slowstart, stderr, exit_wrong,
skip, error, crash_always, orphan (leaves a sleeping child, its pid in TOY_PIDFILE), deaf
(stops reading stdin after start), and in program mode skip77, skip77_bare, skip77_bad
(exit status 77 with a skip object, nothing, or garbage). TOY_GATES (JSON) replaces the
gates its ready line lists (default: the protocol's first form, ["shout"])."""

import base64
import json
import os
import sys
import time

MODE = os.environ.get("TOY_MODE", "")
TARGET = os.environ.get("TOY_CASE", "")  # the case id a misbehaviour applies to


def shout(raw):
    if len(raw) > 64:
        return {"error": "invalid_input"}, 2
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return {"error": "invalid_input"}, 2
    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        return {"error": "invalid_input"}, 2
    output = {"text": value["text"].upper(), "length": len(value["text"])}
    if isinstance(value.get("scale"), (int, float)) and not isinstance(value["scale"], bool):
        output["scaled"] = value["scale"] * 1.5
    if MODE == "wrong":
        output["text"] = output["text"].lower()
    return output, 2 if MODE == "exit_wrong" else 0


def raw_of(case):
    if "input" in case:
        return json.dumps(case["input"]).encode()
    if "input_text" in case:
        return case["input_text"].encode()
    return base64.b64decode(case["input_base64"])


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def harness():
    if os.environ.get("TOY_SELFPIDFILE"):
        with open(os.environ["TOY_SELFPIDFILE"], "w") as handle:
            handle.write(str(os.getpid()))
    if MODE == "slowstart":
        time.sleep(30)
    if MODE == "orphan":
        import subprocess

        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        with open(os.environ["TOY_PIDFILE"], "w") as handle:
            handle.write(str(child.pid))
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "start":
            if MODE == "noready":
                send({"ready": True, "version": 2, "implementation": {}})
                continue
            if MODE == "crash_always":
                sys.stderr.write("cannot start: missing dependency\n")
                sys.exit(3)
            gates = json.loads(os.environ.get("TOY_GATES") or '["shout"]')
            send({"ready": True, "version": 1, "implementation": {
                "name": "toy", "language": "python", "version": "0.1", "gates": gates}})
            if MODE == "deaf":
                time.sleep(120)
        elif request["cmd"] == "run":
            seq, case = request["seq"], request["case"]
            hit = not TARGET or case["id"] == TARGET
            if hit and MODE == "crash":
                sys.stderr.write(f"toy: crashing on {case['id']}\n")
                sys.stderr.flush()
                os._exit(7)
            if hit and MODE == "silent":
                sys.stderr.write("toy: going quiet\n")
                sys.stderr.flush()
                time.sleep(60)
            if hit and MODE == "garbage":
                print("debug: about to answer")
                sys.stdout.flush()
                continue
            if hit and MODE == "badseq":
                seq += 100
            if hit and MODE == "skip":
                send({"seq": seq, "skipped": True, "message": "not today", "issue_url": "https://example.org/toy/issues/7"})
                continue
            if hit and MODE == "error":
                send({"seq": seq, "errored": True, "context": {"message": "boom", "traceback": "line 1"}})
                continue
            if hit and MODE == "stderr":
                sys.stderr.write("x" * 300000 + "\n")
                sys.stderr.flush()
            output, code = shout(raw_of(case))
            send({"seq": seq, "output": output, "exit_code": code,
                  "stdout": json.dumps(output, sort_keys=True) + "\n"})
        elif request["cmd"] == "stop":
            return


def program(gate):
    raw = sys.stdin.buffer.read()
    if MODE == "skip77":
        print(json.dumps({"skipped": True, "message": f"no {os.environ['PASSDOWN_GATE_VERSION']} here",
                          "issue_url": "https://example.org/toy/issues/8"}))
        return 77
    if MODE == "skip77_bare":
        return 77
    if MODE == "skip77_bad":
        print("nope")
        return 77
    if MODE == "crash":
        sys.stderr.write("toy: crashing\n")
        sys.exit(1)
    if MODE == "silent":
        time.sleep(60)
    if MODE == "garbage":
        print("not json")
        return 0
    if gate != "shout":
        print(json.dumps({"error": "unknown_gate"}))
        return 2
    output, code = shout(raw)
    sys.stdout.write(json.dumps(output, sort_keys=True) + "\n")
    return code


if __name__ == "__main__":
    if len(sys.argv) > 1:
        sys.exit(program(sys.argv[-1]))
    harness()
