"""``passdown assess HOST``: observe the session, run the restart gate, record the observation and
the decision in the registry, and say one short line to the agent (spec/hosts.md HST-110 to
HST-115, spec/procedure.md PRC-043, PRC-100).

The gate's input is put together from four places, each value labelled: the registry (identity,
policy, the attempt so far, as ``passdown attempt show --gate-input`` reads it), the observation
(the numbers, :mod:`passdown.hosts._observe`), the continue checkpoint (remaining work, its
readback and currency, live leases and external operations) and the host's capabilities
(:data:`CAPABILITIES`). Without the owner's consent a restart that would qualify is found by
asking the same pure gate the same question with consent, and is recommended once per session
and condition (the registry's ``recommendations``), never again.
"""

from __future__ import annotations

from passdown.authoring import (locate_registry, pending_items,
                                read_registry, record_assessment, record_calibration,
                                show_attempt)
from passdown.errors import PassdownError
from passdown.formats._clock import parse_ms, utc_now
from passdown.gates._table import run_gate
from passdown.hosts import _observe, _startup

#: What each host can do, as the restart gate asks it: a fresh session is started with the
#: host's own command (``passdown packet prompt --host``), the target's session file is read
#: back on this machine (``passdown observe --session``), and the ownership transfer is the
#: registry's compare-and-swap (``passdown attempt commit``).
CAPABILITIES = {
    "claude": {"fresh_create_supported": True, "target_read_supported": True,
               "transfer_supported": True},
    "codex": {"fresh_create_supported": True, "target_read_supported": True,
              "transfer_supported": True},
}
#: The checkpoint, create and ACK overhead of one restart: the packet's bound and the
#: procedure's messages, as bytes (estimated, like the start-up).
OVERHEAD_BYTES = _startup.PACKET_BOUND_BYTES + _startup.PROCEDURE_BYTES
#: The actions after which the hypothetical "with consent" answer means a restart qualifies.
QUALIFYING = ("CREATE_FRESH", "MANUAL_HANDOFF", "CHECKPOINT", "WAIT_SAFE_BOUNDARY")
#: Action -> the one next step said to the agent ({host}, {session} filled in).
NEXT = {
    "CONTINUE": "keep working",
    "CHECKPOINT_ONLY": "keep the checkpoint current and the units small",
    "CHECKPOINT": "bring the checkpoint up to date (`passdown checkpoint set-resume TEXT`), "
                  "then assess again",
    "WAIT_SAFE_BOUNDARY": "finish the current unit, settle writers and operations, then "
                          "`passdown assess {host} --safe-boundary`",
    "CREATE_FRESH": "`passdown packet render --source-id {session}`, then "
                    "`passdown packet prompt --host {host}`",
    "MANUAL_HANDOFF": "`passdown packet render --source-id {session}`, then hand the packet "
                      "over by hand (nothing starts the successor for you)",
    "RECONCILE_TARGET": "reconcile the open attempt (`passdown attempt reconcile RESTART_ID`); "
                        "never create another successor",
    "VERIFY_TARGET": "verify the target's ACK (`passdown ack verify ack.json`)",
    "COMMIT_TRANSFER": "commit the transfer (`passdown attempt commit RESTART_ID`)",
    "VERIFY_TAKEOVER": "stay read-only until the target reads back its takeover",
    "VERIFY_SOURCE_RELEASE": "stay read-only; record the release "
                             "(`passdown attempt release RESTART_ID`)",
    "RECONCILE_ARCHIVE": "the target owns the work: reconcile the source's archive",
    "ARCHIVE_PENDING": "the target owns the work: the source stays read-only",
    "ARCHIVE_SOURCE": "archive this exact source session only",
    "COMPLETE": "nothing left: the takeover and the archive are verified",
    "FINISH": "no work remains: nothing to hand over",
    "BLOCKED": "fix the registry or the checkpoint (`passdown validate`)",
}


#: No checkpoint state handed in: read it.
_UNREAD = object()


class AssessError(_observe.ObserveError):
    """Assessing is refused: a stable ``code``, a message and a hint."""


def _checkpoint_facts(folder, now_ms, state=_UNREAD):
    """What the checkpoint says for the gate, read back from disk (or from ``state``, the
    hook's own readback of it a moment ago); None without one."""
    from passdown.hosts import _hook_context

    if state is _UNREAD:
        state = _hook_context.read_state(folder)
    if state is None or not isinstance(state.document, dict):
        return None, state
    block = state.block
    leases = [lease for lease in block.get("leases") or () if isinstance(lease, dict)]
    live = [lease for lease in leases
            if (parse_ms(lease.get("expires_at")) or 0) > now_ms]
    operations = [op for op in block.get("external_operations") or ()
                  if isinstance(op, dict) and op.get("status") != "settled"]
    facts = {"remaining_work": bool(pending_items(state.document)),
             "checkpoint_readback": not state.errors,
             "checkpoint_current": not state.errors and state.work is None and not state.consumed,
             "active_writers": len(live), "pending_operations": len(operations)}
    return facts, state


def _progress(registry, state):
    """Progress since the previous restart: no attempt yet, or the checkpoint was written
    after the latest attempt was registered and records completed work."""
    attempts = [entry for entry in registry.get("attempts") or () if isinstance(entry, dict)]
    if not attempts:
        return True
    written = parse_ms(state.block.get("written_at")) if state else None
    registered = parse_ms(attempts[-1].get("registered_at"))
    done = bool((state.block.get("completed_work") if state else None))
    return bool(written and registered and written > registered and done)


def gate_input(host, observation, registry_path, folder, *, safe_boundary=False,
               explicit=False, pressure=False, remaining_calls=None, now=None, state=_UNREAD):
    """``(inputs, basis, registry)``: the restart gate's input for the observed session."""
    registry = read_registry(registry_path)
    _, values = show_attempt(registry_path)
    session = observation["session_id"]["value"]
    if session is None:
        raise AssessError("assess.no_session_id", "the session file states no session id",
                          "pass the session file the host writes for this session")
    owner = values.get("source_id")
    if owner != session:
        raise AssessError("assess.not_owner",
                          f"the observed session {session} is not the source the registry "
                          f"assesses ({owner})", "assess from the session that owns the work; a "
                          "successor assesses once the handoff is complete")
    numbers, basis = _observe.gate_values(observation)
    values.update(numbers)
    overhead = _startup.tokens_of(OVERHEAD_BYTES)
    values["restart_overhead_tokens"], basis["restart_overhead_tokens"] = overhead, "estimated"
    if remaining_calls is not None:
        values["remaining_calls"], basis["remaining_calls"] = remaining_calls, "estimated"
    now_ms = parse_ms(now or utc_now())
    facts, state = _checkpoint_facts(folder, now_ms, state)
    if facts is not None:
        for name in ("active_writers", "pending_operations"):
            basis[name] = "measured"
        values.update(facts)
        values["progress_since_restart"] = _progress(registry, state)
    values.update(CAPABILITIES[host])
    values["safe_boundary"] = safe_boundary
    if explicit:
        values["explicit_restart"] = True
    if pressure:
        values["context_pressure"] = True
    return values, basis, registry


def _condition(values):
    """The qualifying condition a restart without consent would have, or None."""
    hypothetical = dict(values, policy_authorized=True,
                        mode=values.get("mode") if values.get("mode") in ("adaptive", "daily")
                        else "adaptive")
    answer = run_gate("restart", hypothetical).output
    if answer.get("action") not in QUALIFYING:
        return None
    assessment = answer.get("assessment") or {}
    if values.get("explicit_restart") is True:
        return "explicit_restart"
    if assessment.get("health_rotation_qualified") or assessment.get("context_pressure"):
        return "context_pressure"
    if assessment.get("pays_back_with_margin"):
        return "pays_back"
    if (values.get("compactions") or 0) >= 2:
        return "compactions"
    return "session_age"


def _numbers(values):
    parts = []
    current, capacity = values.get("current_input_tokens"), values.get("context_capacity_tokens")
    if current is not None:
        parts.append(f"context {current:,} tokens" + (f" of {capacity:,} ({current / capacity:.0%})"
                                                      if capacity else ""))
    if values.get("fresh_input_tokens") is not None:
        parts.append(f"a fresh start about {values['fresh_input_tokens']:,}")
    if values.get("compactions") is not None:
        parts.append(f"{values['compactions']} compactions")
    return "; ".join(parts)


def line(host, session, decision, values, condition, recommend):
    """The one short line for the agent."""
    action, reason = decision["action"], decision["reason"]
    numbers = _numbers(values)
    if condition is not None and recommend:
        return (f"Passdown: a restart qualifies ({condition.replace('_', ' ')}: {numbers}) but "
                f"restarts are not authorized: bring the checkpoint up to date and ask the owner "
                f"once; consent is `passdown registry policy --mode adaptive --scope TEXT`.")
    step = NEXT[action].format(host=host, session=session)
    return f"Passdown: {action} ({reason}{'; ' + numbers if numbers else ''}): {step}."


def assess(host, path, *, folder, registry_path, context_capacity=None, safe_boundary=False,
           explicit=False, pressure=False, remaining_calls=None, environ=None, state=_UNREAD):
    """Observe, decide, record: a dict with the observation, the gate input and its basis,
    the decision, whether it changed, the recommendation and the line."""
    registry = read_registry(registry_path)
    observation = _observe.observe(host, path, folder=folder, registry=registry,
                                   context_capacity=context_capacity, environ=environ)
    calibrated = calibrate(observation, registry_path, registry)
    values, basis, _ = gate_input(host, observation, registry_path, folder,
                                  safe_boundary=safe_boundary, explicit=explicit,
                                  pressure=pressure, remaining_calls=remaining_calls,
                                  now=observation["observed_at"], state=state)
    result = run_gate("restart", values)
    output = result.output
    decision = {"action": output["action"], "reason": output["reason"],
                "decided_at": observation["observed_at"]}
    if "assessment" in output:
        decision["assessment"] = output["assessment"]
    condition = _condition(values) if output["reason"] == "restart_not_authorized" else None
    session = observation["session_id"]["value"]
    record = {"session_id": session, "source": f"passdown observe {host}: {observation['path']}",
              "observed_at": observation["observed_at"], "inputs": values, "basis": basis}
    outcome = record_assessment(registry_path, observation=record, decision=decision,
                                condition=condition)
    previous = outcome.result.get("previous") or {}
    changed = (previous.get("action"), previous.get("reason")) != (decision["action"],
                                                                   decision["reason"])
    recommend = outcome.result.get("recommend", False)
    return {"observation": observation, "gate_input": values, "basis": basis,
            "decision": decision, "exit_code": result.exit_code, "changed": changed,
            "condition": condition, "recommend": recommend, "registry": registry_path,
            "revision": outcome.revision, "recorded": outcome.changed, "calibration": calibrated,
            "line": line(host, session, decision, values, condition, recommend)}


def calibrate(observation, registry_path, registry):
    """After a takeover by the observed session: record its observed start-up (PRC-101)."""
    session = observation["session_id"]["value"]
    startup = observation["startup_observed"]
    if session is None or startup["value"] is None:
        return None
    if not any(isinstance(entry, dict) and entry.get("target_id") == session
               for entry in registry.get("attempts") or ()):
        return None
    outcome = record_calibration(registry_path, target_id=session,
                                 observed_tokens=startup["value"], source=startup["source"])
    return outcome.result.get("recorded")


def registry_of(folder):
    """The registry of the handoff folder, or None when it has none (or several)."""
    try:
        return locate_registry(folder)
    except PassdownError:
        return None
