"""What the SessionStart, compaction and Stop hooks of every host add to the checkpoint hooks
of :mod:`passdown.hosts._hook_context` (spec/hosts.md HST-116 to HST-119, HST-304): the seed's
START, AFTER_COMPACTION and MATERIAL_TRANSITION moments.

- SessionStart assesses the session (:mod:`passdown.hosts._assess`) and records the
  observation and the decision; its line goes into the context;
- the host's compaction hook (:data:`passdown.hosts._compactions.EVENTS`: Claude Code's
  PreCompact, Codex CLI's PostCompact) counts the compaction for the session in
  ``.passdown/compactions.json``, so ``compactions`` is measured without reading the
  transcript;
- Stop assesses from the transcript's tail and says its line (as the ``reason`` the model
  continues with) only when a restart is recommended for the first time, or the decision
  changed to one that asks for a step (:data:`QUIET` never does: those leave the work as it
  is).

The hook input's ``transcript_path`` and ``session_id`` name the session; ``host`` names whose
transcript it is. Nothing is said when the handoff folder has no registry, the session is not
the one that owns the work, or the transcript cannot be read: a hook never fails a turn for an
observation.
"""

from __future__ import annotations

from passdown.errors import PassdownError
from passdown.hosts import _assess, _compactions, _observe

#: Decisions a Stop hook does not interrupt the end of a turn for.
QUIET = ("CONTINUE", "CHECKPOINT_ONLY", "FINISH", "COMPLETE")


def _assessed(hook, folder, options, state, *, safe_boundary, host):
    path = hook.get("transcript_path")
    registry = _assess.registry_of(folder)
    if not isinstance(path, str) or not path or registry is None:
        return None
    try:
        return _assess.assess(host, path, folder=folder, registry_path=registry,
                              context_capacity=options.get("context_capacity"),
                              safe_boundary=safe_boundary, state=state)
    except (_observe.ObserveError, PassdownError):
        return None


def session_start(hook, folder, options, state, host):
    """The line SessionStart adds to the context, or None; ``state`` is the hook's own
    readback of the checkpoint (:func:`passdown.hosts._hook_context.read_state`)."""
    found = _assessed(hook, folder, options, state, safe_boundary=True, host=host)
    return found["line"] if found else None


def count_compaction(hook, folder, host):
    """Count the compaction of the hook's session."""
    session = hook.get("session_id")
    if isinstance(session, str) and session.strip():
        try:
            _compactions.record(folder, host, session, hook.get("trigger"))
        except (OSError, PassdownError):
            pass


def stop(hook, folder, options, state, host):
    """The line Stop says, only when the decision changed or a first recommendation is due."""
    found = _assessed(hook, folder, options, state, safe_boundary=True, host=host)
    if found is None:
        return None
    if found["recommend"] or (found["changed"] and found["decision"]["action"] not in QUIET):
        return found["line"]
    return None
