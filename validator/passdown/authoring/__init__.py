"""Creating and updating Passdown's artifacts so that every file is valid by construction:
agents and their hooks call these (or the ``passdown`` commands over them) instead of writing
JSON by hand (spec/authoring.md).

Every update is one compare-and-swap step: the file's lock, the revision checked against
``expect_revision``, the change, the revision bumped by exactly one, the result validated,
an atomic write. Unknown fields and other tools' ``x-.../`` blocks are kept verbatim, in
their key order. Errors are :class:`~passdown.errors.PassdownError` subclasses with stable codes.

- :func:`init`: a project's checkpoint and registry (:class:`Identity`, :class:`Policy`);
- :func:`update_checkpoint`: one ``passdown checkpoint`` change (``OPERATIONS``);
- :func:`show_checkpoint`: the checkpoint read as ``passdown checkpoint show`` prints it;
- :func:`render_packet`: register the restart attempt, write the packet, read it back;
- :func:`attempt_step`: a later step of one attempt (``STEPS``);
- :func:`fence_check`, :func:`fence_renew`, :func:`fence_release`,
  :func:`authority_settings`: whether this clone and a session still own the
  goal's writes at its ownership authority, the owner's lease renewed or given up, the policy's
  record of an ``--authority`` choice;
- :func:`migrate`: a legacy vBRIEF checkpoint to xBRIEF;
- :func:`write_ack`: the target's ACK from a fresh readback (``passdown ack write``);
- :func:`recover_registry`: a lost registry rebuilt from the packet and the checkpoint;
- :class:`Outcome`: what a call did (``to_dict()`` is the CLI's JSON output);
  :func:`outcome_text`, the line a command prints for it;
- :func:`show_attempt`, :func:`verify_attempt_ack`, :func:`record_packet`: reading an
  attempt, accepting its ACK, recording a packet's digest;
- :func:`locate_folder`, :func:`require_folder`, :func:`locate_registry`, :func:`registries_in`:
  the handoff folder found upward as git finds its repository, and its registry;
- the checkpoint read for people and hooks: :func:`checkpoint_block`,
  :func:`checkpoint_summary`, :func:`pending_items`, :func:`checkpoint_value`;
- the registry's observation records: :func:`record_assessment`, :func:`record_calibration`,
  :func:`calibration_factor`, :func:`set_policy`, :func:`read_registry`;
- :func:`write_draft`: a draft checkpoint reconstructed from a dead session, written once;
- the file names: ``CHECKPOINT_PATH``, ``PACKET_NAME``, ``ACK_NAME``, ``RESUME_NARRATIVE``.

The command line, the MCP server and the hooks use these names only, never the private
modules behind them (``tests/architecture`` checks this).
"""

from passdown._lazy import attributes

# Loaded on first use, so that a hook's `passdown checkpoint ...` imports only what it needs.
_LAZY = {
    "OPERATIONS": ("passdown.authoring._checkpoint", "OPERATIONS"),
    "update_checkpoint": ("passdown.authoring._checkpoint", "apply"),
    "show_checkpoint": ("passdown.authoring._checkpoint", "show"),
    "STEPS": ("passdown.authoring._attempt", "STEPS"),
    "attempt_step": ("passdown.authoring._attempt", "apply"),
    "fence_check": ("passdown.authoring._fence", "check"),
    "authority_settings": ("passdown.authoring._fence", "settings_for"),
    "fence_renew": ("passdown.authoring._fence", "renew"),
    "fence_release": ("passdown.authoring._fence", "release"),
    "migrate": ("passdown.authoring._migrate", "migrate"),
    "Identity": ("passdown.authoring._project", "Identity"),
    "Policy": ("passdown.authoring._project", "Policy"),
    "init": ("passdown.authoring._project", "init"),
    "SourceFacts": ("passdown.authoring._render", "SourceFacts"),
    "render_packet": ("passdown.authoring._render", "render"),
    "host_environment": ("passdown.authoring._working", "from_environment"),
    "successor_facts": ("passdown.authoring._prompt", "read"),
    "successor_target": ("passdown.authoring._prompt", "target_of"),
    "successor_message": ("passdown.authoring._prompt", "message"),
    "manual_handoff": ("passdown.authoring._prompt", "manual"),
    "NOTHING_PERSISTS": ("passdown.authoring._prompt", "NOTHING_PERSISTS"),
    "Outcome": ("passdown.authoring._store", "Outcome"),
    "write_ack": ("passdown.authoring._ack", "write"),
    "recover_registry": ("passdown.authoring._recover", "recover"),
    "outcome_text": ("passdown.authoring._text", "outcome_text"),
    "show_attempt": ("passdown.authoring._attempt", "show"),
    "verify_attempt_ack": ("passdown.authoring._attempt", "verify_ack"),
    "record_packet": ("passdown.authoring._record", "record_packet"),
    "locate_folder": ("passdown.authoring._where", "locate"),
    "require_folder": ("passdown.authoring._where", "require"),
    "locate_registry": ("passdown.authoring._registry", "locate"),
    "registries_in": ("passdown.authoring._where", "registries_in"),
    "record_assessment": ("passdown.authoring._observation", "record_assessment"),
    "record_calibration": ("passdown.authoring._observation", "record_calibration"),
    "calibration_factor": ("passdown.authoring._observation", "calibration_factor"),
    "set_policy": ("passdown.authoring._observation", "set_policy"),
    "read_registry": ("passdown.authoring._observation", "read"),
    "write_draft": ("passdown.authoring._draft", "write_draft"),
    "checkpoint_block": ("passdown.authoring._checkpoint", "block_of"),
    "checkpoint_summary": ("passdown.authoring._checkpoint", "summary"),
    "pending_items": ("passdown.authoring._checkpoint", "pending_items"),
    "checkpoint_value": ("passdown.authoring._checkpoint", "convert"),
    "CHECKPOINT_PATH": ("passdown.authoring._checkpoint", "PATH"),
    "RESUME_NARRATIVE": ("passdown.authoring._checkpoint", "RESUME"),
    "ACK_NAME": ("passdown.authoring._ack", "NAME"),
    "PACKET_NAME": ("passdown.formats._packet", "TEXT_NAME"),
}

__all__ = sorted(_LAZY)
__getattr__ = attributes(_LAZY, __name__)
