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
- :class:`Outcome`: what a call did (``to_dict()`` is the CLI's JSON output).
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
}

__all__ = sorted(_LAZY)
__getattr__ = attributes(_LAZY, __name__)
