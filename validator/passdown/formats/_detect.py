"""The artifact kinds and how a file is placed in one. Owns THE kind table.

Adding an artifact kind is one row in :data:`KINDS`: its file names, what its content looks
like, its schema and the syntaxes it is written in. Detection goes by name first (exact
names, or one ``*`` wildcard), then by content (a ``kind`` field, a top-level key, a first
line); a file that fits nothing is never guessed: the caller reports ``detect.unknown_kind``.
"""

from __future__ import annotations

from passdown.formats import _fastjson
from passdown.formats._files import syntax_for


class Kind:
    """One artifact kind.

    ``names``: file-name patterns (at most one ``*``), the first is the canonical name;
    ``legacy_names``: names of a legacy form, read with a warning; ``legacy_form(data)``: the
    legacy version the content declares, or None for a current document; ``keys``: top-level
    keys that place a document in this kind; ``kind_values``: values of a top-level ``kind``
    field that do (default: the kind's name); ``first_line``:
    the prefix of a text document's first line; ``schema``: path under ``schemas/v1/``;
    ``syntaxes``: the syntaxes it is written in, the first is the default for nameless input;
    ``parser`` / ``projection`` / ``text_lines``: ``"module:function"`` names, for kinds with
    a text syntax: ``parser(text)`` reads the text (its ``problems``, if any, become
    findings), ``projection(parsed)`` turns that into the data the schema and the rules
    check, and ``text_lines(parsed)`` gives ``{JSON path parts: line}`` for that data.
    ``own_members``: for a kind whose file names other tools use too (``registry.json``),
    top-level members of its own; an object found by name that holds neither
    ``passdown_version``, a ``kind`` of this kind, nor two of these, is another tool's file
    and is left alone (:func:`foreign`). ``None``: the name is Passdown's alone.
    """

    # Frozen data, written out by hand: a dataclass would load ``dataclasses`` (and with it
    # ``inspect``) on the path of every ``passdown digest``, which only needs the names.
    __slots__ = ("name", "title", "names", "schema", "syntaxes", "keys", "kind_values",
                 "first_line", "legacy_names", "legacy_form", "parser", "projection", "text_lines",
                 "own_members")

    def __init__(self, name: str, title: str, names: tuple[str, ...], schema: str,
                 syntaxes: tuple[str, ...] = ("json",), keys: tuple[str, ...] = (),
                 kind_values: tuple[str, ...] | None = None, first_line: str | None = None,
                 legacy_names: tuple[str, ...] = (), legacy_form=None, parser: str | None = None,
                 projection: str | None = None, text_lines: str | None = None,
                 own_members: tuple[str, ...] | None = None):
        values = (name, title, names, schema, syntaxes, keys, kind_values, first_line,
                  legacy_names, legacy_form, parser, projection, text_lines, own_members)
        for slot, value in zip(self.__slots__, values):
            object.__setattr__(self, slot, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"a Kind is frozen: cannot set {name!r}")

    def _values(self) -> tuple:
        return tuple(getattr(self, slot) for slot in self.__slots__)

    def __eq__(self, other):
        return self._values() == other._values() if isinstance(other, Kind) else NotImplemented

    def __hash__(self):
        return hash(self._values())

    def __repr__(self):
        return f"Kind({', '.join(f'{slot}={getattr(self, slot)!r}' for slot in self.__slots__)})"

    def matches_name(self, filename: str) -> bool:
        return any(_name_matches(pattern, filename) for pattern in self.names)

    def is_legacy(self, filename: str | None, data) -> bool:
        if filename and any(_name_matches(p, filename) for p in self.legacy_names):
            return True
        return self.legacy_form is not None and self.legacy_form(data) is not None

    def syntax_for(self, filename: str | None, raw: bytes) -> str:
        """The syntax to read this kind's document in: the file's own when the kind is
        written in it, else JSON for a document that opens with ``{``, else the default."""
        if filename:
            by_name = syntax_for(filename)
            if by_name in self.syntaxes:
                return by_name
        if "json" in self.syntaxes and raw.lstrip()[:1] == b"{":
            return "json"
        return next((s for s in self.syntaxes if s != "json"), "json")


#: The xBRIEF versions before 0.8 (called vBRIEF until 0.7, with a root `vBRIEFInfo`): a
#: checkpoint in one of them is read with a warning until ``passdown migrate`` rewrites it (CKP-003).
LEGACY_VERSIONS = ("0.4", "0.5", "0.6", "0.7")
LEGACY_HEADER = "vBRIEFInfo"
HEADER = "xBRIEFInfo"


def legacy_version(data) -> str | None:
    """The version a legacy checkpoint declares: its ``vBRIEFInfo`` version (any value, shown
    as JSON text when it is not a string: the schema judges it), or an ``xBRIEFInfo`` version
    before 0.8. None for any other document."""
    if not isinstance(data, dict):
        return None
    if LEGACY_HEADER in data:
        header = data[LEGACY_HEADER]
        version = header.get("version") if isinstance(header, dict) else None
        return version if isinstance(version, str) else _fastjson.dumps(version)
    header = data.get(HEADER)
    version = header.get("version") if isinstance(header, dict) else None
    return version if version in LEGACY_VERSIONS else None


KINDS: tuple[Kind, ...] = (
    Kind(
        "checkpoint", "continue checkpoint",
        names=("continue.xbrief.json", "continue.vbrief.json", "continue-*.json"),
        schema="checkpoint.schema.json",
        keys=("x-passdown/checkpoint", "xBRIEFInfo", "vBRIEFInfo"),
        legacy_names=("continue.vbrief.json",), legacy_form=legacy_version,
    ),
    Kind(
        "packet", "continuation packet",
        names=("continuation.packet.txt", "continuation.packet.json"),
        schema="packet.schema.json", syntaxes=("text", "json"), first_line="GOAL_ID:",
        parser="passdown.formats._packet:parse", projection="passdown.formats._packet:projection",
        text_lines="passdown.engine._locate:packet_lines",
    ),
    Kind(
        "registry", "restart registry",
        names=("registry.json", "registry.yaml", "registry.yml"),
        schema="registry.schema.json", syntaxes=("json", "yaml"),
        own_members=("fencing_epoch", "policy", "titles", "attempts", "observation", "decision"),
    ),
    Kind("ack", "ACK", names=("ack.json",), schema="ack.schema.json",
         own_members=("goal_id", "restart_id", "source_id", "target_id", "checkpoint_digest",
                      "checkout", "dirty_artifacts", "first_safe_action", "read_at")),
    Kind("handoff", "handoff record", names=("handoff.json",), schema="handoff.schema.json",
         own_members=("handoff_id", "ttl_ms", "writer_incarnation", "requested_by",
                      "continue_prompt", "subagents")),
    Kind("handoff_pending", "pending confirmation", names=("handoff.pending.json",),
         schema="handoff-pending.schema.json",
         own_members=("token", "expires_at", "writer_incarnation", "spent_at")),
    Kind("receipt", "relaunch receipt", names=("relaunch-receipt.json", "*.relaunch-receipt.json"),
         schema="relaunch-receipt.schema.json", kind_values=("relaunch_receipt",),
         own_members=("receipt_id", "seat", "harness", "ended_session_id", "launches",
                      "new_session_id", "signalled_at", "settled_at", "settlement")),
    # Any xBRIEF 0.8 document (a plan, a specification, a scope), linted against the core and
    # upstream's own rules without the checkpoint profile: only by `--kind xbrief`, never
    # found by name or content (CNF-113).
    Kind("xbrief", "xBRIEF document", names=(), schema="xbrief-0.8.schema.json",
         kind_values=()),
)

_BY_NAME = {kind.name: kind for kind in KINDS}

#: Folders a directory walk never enters.
SKIPPED_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__", ".hg", ".svn"})


def kind_names() -> tuple[str, ...]:
    return tuple(_BY_NAME)


def get(name: str) -> Kind:
    """The kind called ``name``; ``KeyError`` for an unknown one."""
    return _BY_NAME[name]


#: Base names already placed: a folder walk meets the same few names thousands of times.
_PLACED: dict[str, Kind | None] = {}
_PLACED_MAX = 1024


def by_filename(filename: str) -> Kind | None:
    """The kind a file's base name places it in, or ``None``."""
    base = _basename(filename)
    if base in _PLACED:
        return _PLACED[base]
    found = next((kind for kind in KINDS if kind.matches_name(base)), None)
    if len(_PLACED) < _PLACED_MAX:
        _PLACED[base] = found
    return found


def by_content(data, text: str | None) -> Kind | None:
    """The kind a loaded document's content places it in, or ``None``."""
    if isinstance(data, dict):
        declared = data.get("kind")
        if isinstance(declared, str):
            for kind in KINDS:
                if declared in ((kind.name,) if kind.kind_values is None else kind.kind_values):
                    return kind
        for kind in KINDS:
            if any(key in data for key in kind.keys):
                return kind
        return None
    if data is None and text is not None:
        first = text.lstrip("\n").split("\n", 1)[0]
        for kind in KINDS:
            if kind.first_line and first.startswith(kind.first_line):
                return kind
    return None


def foreign(kind: Kind, data) -> str | None:
    """Why a document found by ``kind``'s file name is another tool's file (spec/gates/
    validate.md, CNF-112), or ``None`` when it is (maybe a broken) one of ``kind``'s."""
    if kind.own_members is None or not isinstance(data, dict):
        return None  # not an object: a broken one of ours as likely as not; the schema says why
    declared = data.get("kind")
    if "passdown_version" in data or declared in ((kind.name,) if kind.kind_values is None else kind.kind_values):
        return None
    if sum(1 for member in kind.own_members if member in data) >= 2:
        return None
    shown = ", ".join(_fastjson.dumps(key) for key in list(data)[:4])
    more = ", ..." if len(data) > 4 else ""
    article = "an" if kind.title[0] in "AEIOUaeiou" else "a"
    found = [member for member in kind.own_members if member in data]
    members = (f"only one of its members, {_fastjson.dumps(found[0])}," if found
               else "none of its members")
    return (f"not {article} {kind.title}: it has no passdown_version, no \"kind\" of one, and "
            f"{members} (its own are {shown or 'none'}{more}); another tool's file, left alone")


def artifact_names() -> str:
    """Every file name a folder walk finds artifacts by, for hints."""
    return ", ".join(pattern for kind in KINDS for pattern in kind.names)


def unknown_kind_hint() -> str:
    return (f"name the file after its artifact ({', '.join(k.names[0] for k in KINDS if k.names)}), "
            f"give it a top-level \"kind\" field, or pass --kind ({'|'.join(kind_names())})")


def _basename(path: str) -> str:
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _name_matches(pattern: str, filename: str) -> bool:
    if "*" not in pattern:
        return filename == pattern
    head, _, tail = pattern.partition("*")
    return len(filename) >= len(head) + len(tail) and filename.startswith(head) and filename.endswith(tail)
