"""Creating and updating Baton's artifacts so that every file is valid by construction:
agents and their hooks call these (or the ``baton`` commands over them) instead of writing
JSON by hand (spec/authoring.md).

Every update is one compare-and-swap step: the file's lock, the revision checked against
``expect_revision``, the change, the revision bumped by exactly one, the result validated,
an atomic write. Unknown fields and other tools' ``x-.../`` blocks are kept verbatim, in
their key order. Errors are :class:`~baton._errors.BatonError` subclasses with stable codes.

- :func:`init`: a project's checkpoint and registry (:class:`Identity`, :class:`Policy`);
- :func:`update_checkpoint`: one ``baton checkpoint`` change (``OPERATIONS``);
- :func:`render_packet`: register the restart attempt, write the packet, read it back;
- :func:`attempt_step`: a later step of one attempt (``STEPS``);
- :func:`migrate`: a legacy vBRIEF checkpoint to xBRIEF;
- :class:`Outcome`: what a call did (``to_dict()`` is the CLI's JSON output).
"""

from baton.authoring._attempt import STEPS
from baton.authoring._attempt import apply as attempt_step
from baton.authoring._checkpoint import OPERATIONS
from baton.authoring._checkpoint import apply as update_checkpoint
from baton.authoring._migrate import migrate
from baton.authoring._project import Identity, Policy, init
from baton.authoring._render import SourceFacts
from baton.authoring._render import render as render_packet
from baton.authoring._store import Outcome

__all__ = ["OPERATIONS", "STEPS", "Identity", "Outcome", "Policy", "SourceFacts",
           "attempt_step", "init", "migrate", "render_packet", "update_checkpoint"]
