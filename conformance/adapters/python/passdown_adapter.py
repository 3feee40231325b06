#!/usr/bin/env python3
"""An example Passdown conformance adapter in plain Python (standard library only).

It implements two gates from their spec pages, without importing Passdown: ``restart``
(spec/gates/restart.md) and ``title`` (spec/gates/title.md). Copy it as the starting point
for your own adapter: replace the two gate functions with calls into your implementation.

Two ways to run it (``passdown conformance adapters`` prints both commands with this file's
full path, in a checkout or an installed package):

- harness mode (persistent, fast)::

      passdown conformance run --harness "python3 conformance/adapters/python/passdown_adapter.py"

  It reads JSON Lines on stdin (``start``, ``run``, ``stop``) and answers on stdout, one line
  per message, as conformance/protocol/v1/ describes. Its ``ready`` line lists the gates it
  implements with their versions; the runner skips the cases of other gates and versions.

- program mode (one process per case)::

      passdown conformance run --program "python3 conformance/adapters/python/passdown_adapter.py"

  With the gate name as its last argument it reads the input bytes on stdin, prints the
  gate's output and exits with the gate's exit status. For a gate it does not implement,
  or cases of a version it does not (``PASSDOWN_GATE_VERSION``), it exits with status 77 and
  prints why: the runner counts the case as skipped.

For the runner's own tests, ``PASSDOWN_ADAPTER_FAULT`` makes it misbehave on the cases whose
id matches the glob ``PASSDOWN_ADAPTER_FAULT_CASE`` (default: every case): ``wrong`` (the title
ignores the time zone; the restart horizon is not capped at three calls), ``crash`` (exits
at once) or ``hang`` (never answers).
"""

import base64
import fnmatch
import json
import os
import sys
import time
from datetime import datetime, timezone

NAME = "passdown-adapter-python"
VERSION = "1.1.0"
#: The gates implemented, with the version of each (the runner sends only their cases).
GATE_VERSIONS = {"restart": "2.2.1", "title": "1.0.0"}
#: The exit status that tells the runner, in program mode, that a case is skipped.
SKIP_STATUS = 77
FAULT = os.environ.get("PASSDOWN_ADAPTER_FAULT", "")
FAULT_CASE = os.environ.get("PASSDOWN_ADAPTER_FAULT_CASE", "*")


def _wrong():
    return FAULT == "wrong"


# -- the restart gate ----------------------------------------------------------------------

RESTART_LIMIT = 65536
MODES = ("off", "adaptive", "daily")


def restart_run(raw):
    """Raw input bytes -> (output, exit code, printed text)."""
    if len(raw) > RESTART_LIMIT:
        return _restart_plain("BLOCKED", "invalid_input")
    try:
        # json.loads on the bytes, as the published helper reads them: UTF-8 (a byte order
        # mark dropped), UTF-16 or UTF-32 guessed, lone surrogates decoded; NaN and Infinity
        # parse, then count as unknown.
        value = json.loads(raw)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _restart_plain("BLOCKED", "invalid_input")
    return restart_decide(value)


def restart_decide(value):
    try:
        action, reason, assessment = _restart(value)
        output = {"action": action, "reason": reason}
        if assessment is not None:
            output["assessment"] = assessment
        text = json.dumps(output, sort_keys=True) + "\n"
    except Exception:  # numbers too large to compute or print: the input is unusable
        return _restart_plain("BLOCKED", "invalid_input")
    return output, 2 if action == "BLOCKED" else 0, text


def _restart_plain(action, reason):
    output = {"action": action, "reason": reason}
    return output, 2 if action == "BLOCKED" else 0, json.dumps(output, sort_keys=True) + "\n"


def _usable(number):
    return (isinstance(number, (int, float)) and not isinstance(number, bool)
            and 0 <= number < float("inf"))


def _named(text):
    return isinstance(text, str) and text.strip() != ""


def _restart(obs):
    if not isinstance(obs, dict):
        return "BLOCKED", "invalid_input", None
    flag = lambda name: obs.get(name) is True  # noqa: E731 - only the literal true is set
    schema = obs.get("schema")
    if type(schema) is not int or schema != 1:
        return "BLOCKED", "unsupported_schema", None
    source, target = obs.get("source_id"), obs.get("target_id")
    if not _named(source):
        return "BLOCKED", "source_identity", None
    if not _named(obs.get("goal_id")):
        return "BLOCKED", "goal_identity", None
    if flag("ownership_committed"):
        if not _named(target) or target == source:
            return "BLOCKED", "committed_target_identity", None
        if not flag("target_takeover_readback") or not flag("ack_matches"):
            return "VERIFY_TAKEOVER", "source_remains_readonly", None
        if not flag("source_retired_readback"):
            return "VERIFY_SOURCE_RELEASE", "do_not_archive_an_unreleased_source", None
        if obs.get("archive_status") == "unknown":
            return "RECONCILE_ARCHIVE", "target_owns_work_never_recreate", None
        if flag("source_archived_readback"):
            return "COMPLETE", "takeover_and_archive_verified", None
        if not (flag("archive_authorized") and flag("archive_supported")):
            return "ARCHIVE_PENDING", "target_owns_work_source_remains_readonly", None
        return "ARCHIVE_SOURCE", "archive_exact_source_only", None
    creation = obs.get("creation_status")
    if creation == "unknown":
        return "RECONCILE_TARGET", "never_retry_uncertain_create", None
    if creation not in ("not_sent", "confirmed"):
        return "BLOCKED", "creation_status", None
    not_sent = creation == "not_sent"
    if not_sent and target:
        return "RECONCILE_TARGET", "unexpected_target", None
    if not not_sent and (not _named(target) or target == source):
        return "BLOCKED", "target_identity", None
    remaining = obs.get("remaining_work")
    if remaining is not True:
        return ("FINISH" if remaining is False else "BLOCKED"), "remaining_work", None
    if flag("required_budget_unmeasurable"):
        return "BLOCKED", "required_budget_unmeasurable", None
    mode = obs.get("mode")
    if mode not in MODES:
        return "BLOCKED", "invalid_mode", None
    if mode == "off" or not flag("policy_authorized"):
        return "CHECKPOINT_ONLY", "restart_not_authorized", None

    current, fresh = obs.get("current_input_tokens"), obs.get("fresh_input_tokens")
    overhead, calls = obs.get("restart_overhead_tokens"), obs.get("remaining_calls")
    capacity = obs.get("context_capacity_tokens")
    measured = all(_usable(n) for n in (current, fresh, overhead, calls))
    pays_back = False
    assessment = {}
    if measured:
        horizon = calls if _wrong() else min(calls, 3)
        avoided = (current - fresh) * horizon
        pays_back = horizon >= 1 and avoided > 2 * overhead
        assessment.update(basis="estimated_token_proxy_not_billing", horizon_calls=horizon,
                          estimated_net_tokens_saved=avoided - overhead, pays_back_with_margin=pays_back)
    occupancy = None
    if _usable(current) and _usable(capacity) and capacity != 0:
        occupancy = current / capacity
    pressure = flag("context_pressure") or (occupancy is not None and occupancy >= 0.70)
    smaller = _usable(current) and current > 0 and _usable(fresh) and fresh <= 0.80 * current
    health = pressure and smaller
    assessment.update(context_occupancy=occupancy, context_pressure=pressure,
                      materially_smaller_start=smaller, health_rotation_qualified=health)
    explicit = flag("explicit_restart")
    compactions, age = obs.get("compactions"), obs.get("session_age_seconds")
    triggered = (explicit or pressure or pays_back or (_usable(compactions) and compactions >= 2)
                 or (mode == "daily" and _usable(age) and age >= 86400))

    def zero(count):
        return _usable(count) and count == 0

    if not_sent and not triggered:
        return "CONTINUE", "no_observed_trigger", assessment
    if not flag("safe_boundary") or not zero(obs.get("active_writers")) or not zero(obs.get("pending_operations")):
        return "WAIT_SAFE_BOUNDARY", "writes_or_operations_not_released", assessment
    if not flag("checkpoint_readback") or not flag("checkpoint_current"):
        return "CHECKPOINT", "persist_and_verify_current_state", assessment
    if not_sent:
        if not explicit and not pays_back and not health:
            if measured:
                return "CONTINUE", "restart_does_not_pay_back", assessment
            return "CHECKPOINT_ONLY", "benefit_unmeasured", assessment
        if not explicit and not flag("progress_since_restart"):
            return "CONTINUE", "prevent_restart_without_progress", assessment
        if not flag("transfer_supported"):
            return "MANUAL_HANDOFF", "no_authoritative_ownership_transfer", assessment
        if not flag("fresh_create_supported") or not flag("target_read_supported"):
            return "MANUAL_HANDOFF", "native_transport_unavailable", assessment
        return "CREATE_FRESH", "record_identity_and_receipt_before_retry", assessment
    if not flag("ack_matches"):
        return "VERIFY_TARGET", "exact_goal_checkpoint_and_target_ack_required", assessment
    if not flag("transfer_supported"):
        return "MANUAL_HANDOFF", "no_authoritative_ownership_transfer", assessment
    return "COMMIT_TRANSFER", "conditional_transfer_required_target_stays_readonly", assessment


# -- the title gate ------------------------------------------------------------------------

TITLE_LIMIT = 8192
UNAVAILABLE = {"status": "TITLE_UNAVAILABLE"}
SUFFIX = " | started "


def title_run(raw):
    if len(raw) > TITLE_LIMIT:
        return _title_unavailable()
    try:
        value = json.loads(raw)  # the bytes, read as the restart gate reads them
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _title_unavailable()
    return title_decide(value)


def _title_unavailable():
    return dict(UNAVAILABLE), 2, json.dumps(UNAVAILABLE) + "\n"


def _strip_suffixes(title):
    # a trailing run of " | started DD-MM", where D and M are any decimal digits
    while (len(title) >= len(SUFFIX) + 5 and title[-16:-5] == SUFFIX and title[-5:-3].isdecimal()
           and title[-3] == "-" and title[-2:].isdecimal()):
        title = title[:-16]
    return title


def title_decide(value):
    try:
        return _title(value)
    except Exception:  # a date pushed outside the calendar by the zone, and the like
        return _title_unavailable()


def _title(value):
    if not isinstance(value, dict):
        return _title_unavailable()
    title, started, zone_name = value.get("title"), value.get("started_at"), value.get("timezone", "UTC")
    if not isinstance(title, str) or not title.strip() or not isinstance(started, str) or not isinstance(zone_name, str):
        return _title_unavailable()
    try:
        moment = datetime.fromisoformat(started.replace("Z", "+00:00"))
    except ValueError:
        return _title_unavailable()
    if moment.tzinfo is None:
        return _title_unavailable()
    base = _strip_suffixes(title.strip()).strip()
    if not base:
        return _title_unavailable()
    if zone_name == "UTC" or _wrong():
        zone = timezone.utc
    else:
        try:
            from zoneinfo import ZoneInfo

            zone = ZoneInfo(zone_name)
        except Exception:  # unknown or malformed key, or no zone database
            return _title_unavailable()
    output = {"title_base": base, "started_at": moment.isoformat(), "timezone": zone_name,
              "display_title": f"{base} | started {moment.astimezone(zone).strftime('%d-%m')}"}
    return output, 0, json.dumps(output) + "\n"


GATES = {"restart": (restart_decide, restart_run), "title": (title_decide, title_run)}


# -- the harness protocol ------------------------------------------------------------------

def _misbehave(case_id):
    if FAULT and fnmatch.fnmatchcase(case_id, FAULT_CASE):
        if FAULT == "crash":
            sys.stderr.write(f"passdown_adapter: crashing on {case_id}\n")
            sys.stderr.flush()
            os._exit(70)
        if FAULT == "hang":
            time.sleep(3600)


def answer(seq, case):
    _misbehave(case["id"])
    entry = GATES.get(case["gate"])
    if entry is None:
        return {"seq": seq, "skipped": True, "message": f"the {case['gate']} gate is not implemented"}
    decide, run = entry
    if "input" in case:
        output, exit_code, text = decide(case["input"])
    elif "input_text" in case:
        output, exit_code, text = run(case["input_text"].encode("utf-8"))
    else:
        output, exit_code, text = run(base64.b64decode(case["input_base64"]))
    return {"seq": seq, "output": output, "exit_code": exit_code, "stdout": text}


def _send(message):
    # ASCII-only JSON: one line whatever the strings hold (lone surrogates included)
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve():
    for line in sys.stdin:
        request = json.loads(line)
        command = request.get("cmd")
        if command == "start":
            if request.get("version") != 1:
                sys.stderr.write(f"passdown_adapter: protocol version {request.get('version')} is not supported\n")
                return 1
            _send({"ready": True, "version": 1, "implementation": {
                "name": NAME, "language": "python", "version": VERSION,
                "homepage": "https://spec.passdown.dev/conformance/", "gates": GATE_VERSIONS}})
        elif command == "run":
            try:
                reply = answer(request["seq"], request["case"])
            except Exception as error:  # report it, and stay up for the next case
                import traceback

                reply = {"seq": request["seq"], "errored": True,
                         "context": {"message": f"{type(error).__name__}: {error}",
                                     "traceback": traceback.format_exc()}}
            _send(reply)
        elif command == "stop":
            return 0
    return 0


def _not_run(gate, wanted):
    """Why this adapter does not run a case of ``gate`` written for version ``wanted``: a gate
    it does not implement, another major version, or a newer one; else ``None``."""
    if gate not in GATE_VERSIONS:
        return f"the {gate} gate is not implemented"
    if not wanted:
        return None
    have = tuple(int(part) for part in GATE_VERSIONS[gate].split("."))
    want = tuple(int(part) for part in wanted.split("."))
    if have[0] != want[0] or have < want:
        return f"the cases are for {gate} {wanted}; this adapter implements {gate} {GATE_VERSIONS[gate]}"
    return None


def program(gate):
    reason = _not_run(gate, os.environ.get("PASSDOWN_GATE_VERSION", ""))
    if reason:
        sys.stdout.write(json.dumps({"skipped": True, "message": reason}) + "\n")
        return SKIP_STATUS
    entry = GATES[gate]
    _misbehave(os.environ.get("PASSDOWN_CASE_ID", "*"))
    output, exit_code, text = entry[1](sys.stdin.buffer.read())
    sys.stdout.write(text)
    return exit_code


if __name__ == "__main__":
    sys.exit(program(sys.argv[1]) if len(sys.argv) > 1 else serve())
