"""Semantic rules of any xBRIEF 0.8 document (kind ``xbrief``, ``passdown validate --kind
xbrief``): the rules of the xBRIEF 0.8 core that JSON Schema cannot state, as upstream's own
validator checks them (unique item ids, edges that name existing items and form a DAG,
``auto`` only on containers with children), without the continue-checkpoint profile.

The checks are the checkpoint's (:mod:`passdown.rules.checkpoint`), one home for each: this
module registers them under the ``xbrief.*`` codes, with the requirement of the core rule.
"""

from __future__ import annotations

from passdown.formats._detect import legacy_version
from passdown.rules import Hit, checkpoint, rule

KIND = "xbrief"

#: ``(code, the checkpoint rule's code)``: the core rules, shared with the checkpoint.
CORE_RULES = (
    ("xbrief.auto_on_leaf", "checkpoint.auto_on_leaf"),
    ("xbrief.duplicate_id", "checkpoint.duplicate_id"),
    ("xbrief.edge_dangling", "checkpoint.edge_dangling"),
    ("xbrief.edge_cycle", "checkpoint.edge_cycle"),
)


def _register() -> None:
    from passdown.rules import _RULES

    shared = {entry.code: entry for entry in _RULES[checkpoint.KIND]}
    for code, source in CORE_RULES:
        entry = shared[source]
        rule(KIND, code, requirement=entry.requirement, summary=entry.summary,
             hint=entry.hint)(entry.check)


_register()


@rule(KIND, "xbrief.legacy_version", requirement="CNF-113", exclusive=True,
      summary="the document is xBRIEF 0.8, the version this lints",
      hint="convert it to xBRIEF 0.8 first, as upstream's migration guide says (the header "
           "becomes `xBRIEFInfo` with version \"0.8\"); a legacy continue checkpoint is "
           "converted by `passdown migrate`")
def _legacy_version(artifact):
    version = legacy_version(artifact.data)
    if version is not None:
        header = "vBRIEFInfo" if "vBRIEFInfo" in artifact.data else "xBRIEFInfo"
        yield Hit((header,), f"this is a legacy document (version {version}), not xBRIEF 0.8")
