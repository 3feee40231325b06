"""The semantic rules: one small function per rule, registered with its code, severity,
requirement id and fix hint. The validator runs every rule registered for an artifact kind
after the schema check; cross-file rules run on a whole handoff directory.

Writing a rule::

    @rule("checkpoint", "checkpoint.auto_on_leaf", requirement="CKP-012",
          summary="`auto` status only on containers with children",
          hint="give the item children, or a concrete status such as `pending`")
    def _auto_on_leaf(artifact):
        for path, item in walk_items(artifact.data):
            if item.get("status") == "auto" and not item.get("items"):
                yield Hit(path + ("status",), "`auto` on an item with no children")

A rule receives an :class:`Artifact` whose data already passed loading and the schema (rules
may still meet unexpected shapes when the schema check failed, and must not raise: the engine
turns an exception into a ``rule.crashed`` finding, which tests treat as a defect).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from passdown._findings import ERROR, WARNING


@dataclass(frozen=True)
class Hit:
    """What a rule found: where (JSON path parts), what, and optionally a better hint."""

    path: tuple = ()
    message: str = ""
    hint: str | None = None
    line: int | None = None


class _Derives:
    """Values worked out once per artifact or folder and read by several rules."""

    _derived: dict

    def derived(self, name: str, compute: Callable):
        """``compute(self)``, computed once: values several rules read (the plan's items,
        the packet parsed, the ACK's verdict) are not worked out again."""
        if name not in self._derived:
            self._derived[name] = compute(self)
        return self._derived[name]


@dataclass(frozen=True)
class Artifact(_Derives):
    """One loaded artifact as the rules see it. Rules treat its data as read-only: what
    :meth:`derived` keeps is computed from it once."""

    kind: str  # "checkpoint", "packet", "registry", "ack", "handoff", ...
    file: str | None  # path as given, or None for stdin
    data: object  # parsed JSON/YAML, or the packet's field mapping
    text: str  # the decoded text
    legacy: bool = False  # a vBRIEF-era checkpoint
    _derived: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def fields(self) -> dict:
        """The data when it is an object, else an empty one: rules meet documents that may
        have failed the schema, and read them without a type check of their own."""
        return self.data if isinstance(self.data, dict) else {}


@dataclass(frozen=True)
class Crossfile(_Derives):
    """A handoff folder as the cross-file rules (kind ``"crossfile"``) see it: the folder
    and every artifact in it that loaded, by kind. A hit whose path starts with one of those
    kinds (``("ack", "restart_id")``) is reported in that artifact's file, at the rest of
    the path; any other hit is reported on the folder."""

    file: str  # the folder
    artifacts: Mapping[str, Artifact]
    kind: str = "crossfile"
    _derived: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Rule:
    kind: str
    code: str
    severity: str
    requirement: str
    summary: str
    hint: str
    check: Callable[[Artifact | Crossfile], Iterable[Hit]] = field(compare=False)
    #: When this rule finds something, the document is not this kind's at all: its findings
    #: are the only ones reported (the schema's and the other rules' would only mislead).
    exclusive: bool = False


_RULES: dict[str, list[Rule]] = {}


def rule(kind: str, code: str, *, requirement: str, summary: str, hint: str,
         severity: str = ERROR, exclusive: bool = False):
    """Register ``check`` as the rule ``code`` for artifacts of ``kind``."""
    if severity not in (ERROR, WARNING):
        raise ValueError(f"unknown severity {severity!r}")

    def register(check):
        entry = Rule(kind, code, severity, requirement, summary, hint, check, exclusive)
        existing = _RULES.setdefault(kind, [])
        if any(r.code == code for r in existing):
            raise ValueError(f"rule {code} registered twice")
        existing.append(entry)
        return check

    return register


_RULE_MODULES = ("checkpoint", "packet", "registry", "ack", "handoff", "receipt", "crossfile",
                 "procedure", "members", "xbrief")


_LOADED: list[bool] = []


def _load_all() -> None:
    if _LOADED:  # once per process: a validation run asks for every file
        return
    import importlib

    for name in _RULE_MODULES:
        try:
            importlib.import_module(f"passdown.rules.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"passdown.rules.{name}":
                raise
    _LOADED.append(True)


def rules_for(kind: str) -> list[Rule]:
    _load_all()
    return list(_RULES.get(kind, ()))


def all_rules() -> list[Rule]:
    _load_all()
    return [r for rules in _RULES.values() for r in rules]
