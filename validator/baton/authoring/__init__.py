"""Creating and updating Baton's artifacts so that every file is valid by construction:
agents and their hooks call these (or the ``baton`` commands over them) instead of writing
JSON by hand (spec/authoring.md).

Every update is one compare-and-swap step: the file's lock, the revision checked against
``expect_revision``, the change, the revision bumped by exactly one, the result validated,
an atomic write. Unknown fields and other tools' ``x-.../`` blocks are kept verbatim, in
their key order. Errors are :class:`~baton.errors.BatonError` subclasses with stable codes.

- :func:`init`: a project's checkpoint and registry (:class:`Identity`, :class:`Policy`);
- :func:`update_checkpoint`: one ``baton checkpoint`` change (``OPERATIONS``);
- :func:`show_checkpoint`: the checkpoint read as ``baton checkpoint show`` prints it;
- :func:`render_packet`: register the restart attempt, write the packet, read it back;
- :func:`attempt_step`: a later step of one attempt (``STEPS``);
- :func:`migrate`: a legacy vBRIEF checkpoint to xBRIEF;
- :func:`write_ack`: the target's ACK from a fresh readback (``baton ack write``);
- :func:`recover_registry`: a lost registry rebuilt from the packet and the checkpoint;
- :class:`Outcome`: what a call did (``to_dict()`` is the CLI's JSON output);
  :func:`outcome_text`, the line a command prints for it;
- :func:`show_attempt`, :func:`verify_attempt_ack`, :func:`record_packet`: reading an
  attempt, accepting its ACK, recording a packet's digest;
- :func:`locate_folder`, :func:`require_folder`, :func:`locate_registry`: the handoff folder
  found upward as git finds its repository, and its registry;
- the checkpoint read for people and hooks: :func:`checkpoint_block`,
  :func:`checkpoint_summary`, :func:`pending_items`, :func:`checkpoint_value`;
- the file names: ``CHECKPOINT_PATH``, ``PACKET_NAME``, ``ACK_NAME``, ``RESUME_NARRATIVE``.

The command line, the MCP server and the hooks use these names only, never the private
modules behind them (``tests/architecture`` checks this).
"""

from baton._lazy import attributes

# Loaded on first use, so that a hook's `baton checkpoint ...` imports only what it needs.
_LAZY = {
    "OPERATIONS": ("baton.authoring._checkpoint", "OPERATIONS"),
    "update_checkpoint": ("baton.authoring._checkpoint", "apply"),
    "show_checkpoint": ("baton.authoring._checkpoint", "show"),
    "STEPS": ("baton.authoring._attempt", "STEPS"),
    "attempt_step": ("baton.authoring._attempt", "apply"),
    "migrate": ("baton.authoring._migrate", "migrate"),
    "Identity": ("baton.authoring._project", "Identity"),
    "Policy": ("baton.authoring._project", "Policy"),
    "init": ("baton.authoring._project", "init"),
    "SourceFacts": ("baton.authoring._render", "SourceFacts"),
    "render_packet": ("baton.authoring._render", "render"),
    "Outcome": ("baton.authoring._store", "Outcome"),
    "write_ack": ("baton.authoring._ack", "write"),
    "recover_registry": ("baton.authoring._recover", "recover"),
    "outcome_text": ("baton.authoring._text", "outcome_text"),
    "show_attempt": ("baton.authoring._attempt", "show"),
    "verify_attempt_ack": ("baton.authoring._attempt", "verify_ack"),
    "record_packet": ("baton.authoring._record", "record_packet"),
    "locate_folder": ("baton.authoring._where", "locate"),
    "require_folder": ("baton.authoring._where", "require"),
    "locate_registry": ("baton.authoring._registry", "locate"),
    "checkpoint_block": ("baton.authoring._checkpoint", "block_of"),
    "checkpoint_summary": ("baton.authoring._checkpoint", "summary"),
    "pending_items": ("baton.authoring._checkpoint", "pending_items"),
    "checkpoint_value": ("baton.authoring._checkpoint", "convert"),
    "CHECKPOINT_PATH": ("baton.authoring._checkpoint", "PATH"),
    "RESUME_NARRATIVE": ("baton.authoring._checkpoint", "RESUME"),
    "ACK_NAME": ("baton.authoring._ack", "NAME"),
    "PACKET_NAME": ("baton.formats._packet", "TEXT_NAME"),
}

__all__ = sorted(_LAZY)
__getattr__ = attributes(_LAZY, __name__)
