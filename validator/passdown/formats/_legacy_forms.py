"""The legacy forms ``passdown migrate --fix`` converts mechanically, as found in real legacy
checkpoints (spec/authoring.md, AUT-096): an item narrative written as a string, a reference
type without a namespace, a reference without a ``uri``, a version with a patch number, a plan
without an items list. The
one home of what each form is and what it becomes: the converter applies them, and the
checkpoint's legacy rule reports them, so ``validate`` and ``migrate`` name the same problems.
"""

from __future__ import annotations

#: The narrative key a string narrative is given: xBRIEF 0.8 equates an item's ``summary``
#: with ``narrative.Overview``.
OVERVIEW = "Overview"
#: The legacy namespace a reference type without one is read in (then mapped as any other).
LEGACY_NAMESPACE = "x-vbrief/"
_TYPE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")

#: code -> what the problem is, said of the value found.
CODES = {
    "authoring.string_narrative": "the item's narrative is a string; xBRIEF 0.8 wants an object "
                                  "of narratives: it becomes {\"Overview\": ...}, the key 0.8 "
                                  "equates with an item's summary",
    "authoring.reference_type": "the reference type has no namespace; xBRIEF 0.8 types are "
                                "`x-<namespace>/<name>`",
    "authoring.reference_without_uri": "the reference has no `uri`, which xBRIEF 0.8 requires: "
                                       "its `url` becomes the uri, or, with none, the reference "
                                       "is kept whole under `x-vbrief/references` beside it",
    "authoring.version_form": "the version has a patch number; xBRIEF versions are MAJOR.MINOR",
    "authoring.plan_without_items": "the plan has no items list, which xBRIEF 0.8 requires: an "
                                    "empty one is added",
}


def narrative_object(narrative):
    """The 0.8 form of a string item narrative, or ``None`` when it is not one."""
    return {OVERVIEW: narrative} if isinstance(narrative, str) else None


def namespaced_type(kind):
    """The legacy-namespace form (``x-vbrief/<name>``) of a reference type written without a
    namespace, or ``None``."""
    if isinstance(kind, str) and kind and kind[0].isalpha() and set(kind) <= _TYPE_CHARS:
        return LEGACY_NAMESPACE + kind
    return None


#: Where a reference with no link at all is kept, beside ``references``, in the legacy format's
#: own extension namespace (an ordinary consumer namespace in 0.8).
KEPT_REFERENCES = LEGACY_NAMESPACE + "references"


def lacks_uri(reference) -> bool:
    """Whether a reference is an object without the ``uri`` xBRIEF 0.8 requires."""
    return isinstance(reference, dict) and "uri" not in reference


def short_version(version, known):
    """``MAJOR.MINOR`` of a version written ``MAJOR.MINOR.0`` when that is one of ``known``,
    else ``None``."""
    if isinstance(version, str) and version.count(".") == 2 and version.endswith(".0"):
        short = version.rsplit(".", 1)[0]
        return short if short in known else None
    return None


def lacks_items(plan) -> bool:
    return isinstance(plan, dict) and "items" not in plan and "subItems" not in plan
