"""Safe loading: bytes to data, or findings. Owns every input-hygiene rule about content.

Each violation is a finding with its own code (``load.*``), never a traceback: a size bound,
UTF-8 without BOM, no duplicate keys, no NaN/Infinity (nor a number so large it reads as
infinity), bounds on nesting depth, integer digits and string length, YAML only through a
safe loader (timestamps stay strings). Which files are read, and how, is
:mod:`passdown.formats._files`; :func:`read_bounded` turns its refusals into findings.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from passdown._text import cut
from passdown.formats import _fastjson, _files, _yamlblock
from passdown.formats._files import syntax_for  # noqa: F401 - where readers have found it
from passdown._findings import ERROR, Finding

#: xBRIEF recommends 10 MB as the largest document; Passdown's artifacts are far smaller.
DEFAULT_MAX_BYTES = _files.DEFAULT_MAX_BYTES
#: Deeper than any artifact needs, shallow enough for every recursive consumer.
MAX_DEPTH = 64
#: Far more digits than any count, revision or identifier needs (JSON numbers are exact
#: only to 2**53); the limit Python's own integer conversion applies by default, so no
#: reader meets that limit's error (which advises calling ``sys.set_int_max_str_digits``).
MAX_INTEGER_DIGITS = 4300
#: Characters in one string (a value or a key): a megabyte of text is far more than any
#: field holds; large evidence is linked, not copied in.
MAX_STRING_CHARS = 1 << 20


@dataclass(frozen=True)
class Loaded:
    """A document that passed every loading rule."""

    data: object
    text: str
    syntax: str  # "json", "yaml" or "text"


class _Reject(Exception):
    def __init__(self, code, message, hint, line=None, requirement="INP-001"):
        super().__init__(message)
        self.finding_args = (code, message, hint, line, requirement)


def _finding(source, code, message, hint, line=None, requirement=None):
    return Finding(
        file=source,
        json_path="$",
        code=code,
        severity=ERROR,
        message=message,
        requirement=requirement,
        hint=hint,
        line=line,
    )


def read_bounded(path: str, limit: int = DEFAULT_MAX_BYTES) -> tuple[bytes | None, list[Finding]]:
    """Read at most ``limit`` bytes of the regular file ``path`` (:mod:`passdown.formats._files`:
    never a FIFO or a device, never blocking, bounded while reading); any refusal, or a file
    that cannot be read, is a finding."""
    try:
        return _files.read_regular(path, limit), []
    except _files.FileRefused as refused:
        return None, [_finding(path, refused.code, refused.reason, refused.hint,
                               requirement=refused.requirement)]
    except OSError as error:
        return None, [unreadable(path, error)]


def unreadable(path: str, error: OSError) -> Finding:
    """The finding for a file the operating system would not open or read."""
    reason = error.strerror or type(error).__name__
    return _finding(path, "load.unreadable", f"cannot read the file: {reason}",
                    "check that the path exists and is readable", requirement="INP-001")


def too_large(source: str | None, limit: int = DEFAULT_MAX_BYTES) -> Finding:
    """The finding for an input over the size bound."""
    return _finding(source, "load.too_large", f"the input is larger than the {limit:,}-byte bound",
                    "split the content or link large evidence instead of copying it",
                    requirement="INP-002")


def decode_text(raw: bytes, source: str | None) -> tuple[str | None, list[Finding]]:
    """UTF-8 without BOM, or a finding."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return None, [_finding(source, "load.bom", "the file starts with a UTF-8 byte order mark",
                               "save the file as UTF-8 without BOM", line=1,
                               requirement="INP-003")]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [_finding(source, "load.encoding", "the file is UTF-16, not UTF-8",
                               "save the file as UTF-8 without BOM", line=1,
                               requirement="INP-003")]
    if b"\x00" in raw:
        # never valid in JSON, YAML or packet text: UTF-16/32 without a BOM, or binary
        return None, [_finding(source, "load.encoding",
                               "the file holds NUL bytes: UTF-16, UTF-32 or binary, not UTF-8 text",
                               "save the file as UTF-8 without BOM",
                               line=raw[: raw.index(b"\x00")].count(b"\n") + 1,
                               requirement="INP-003")]
    try:
        return raw.decode("utf-8"), []
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        return None, [_finding(source, "load.encoding",
                               f"invalid UTF-8 at byte {error.start}",
                               "save the file as UTF-8", line=line, requirement="INP-003")]


def _pairs_without_duplicates(pairs):
    result = dict(pairs)
    if len(result) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise _Reject("load.duplicate_key", f"the key {key!r} appears twice in one object",
                              "keep one entry per key: JSON readers disagree on which one wins",
                              requirement="INP-004")
            seen.add(key)
    return result


def _no_constants(name):
    raise _Reject("load.non_finite", f"{name} is not JSON",
                  "write a finite number, or null where the value is unknown",
                  requirement="INP-005")


def _too_many_digits(count: int | None = None, line: int | None = None):
    told = f"{count:,} digits, more than the bound of {MAX_INTEGER_DIGITS}" if count is not None \
        else f"more than {MAX_INTEGER_DIGITS} digits"
    return _Reject("load.too_many_digits", f"an integer has {told}",
                   "write a number this long as a string", line, requirement="INP-013")


def _bounded_integer(text: str) -> int:
    """A JSON integer within :data:`MAX_INTEGER_DIGITS` (a longer one is refused before any
    conversion: converting it is what used to fail with Python's own advice)."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_INTEGER_DIGITS:
        raise _too_many_digits(digits)
    try:
        return int(text)
    except ValueError:  # the interpreter's own conversion limit, set lower than ours
        raise _too_many_digits(digits) from None


_INFINITY = float("inf")


def _finite_float(text: str) -> float:
    """A JSON number that a double holds: ``1e400`` reads as infinity, which is refused as
    NaN and Infinity are."""
    value = float(text)
    if value in (_INFINITY, -_INFINITY):
        raise _Reject("load.non_finite",
                      f"the number {cut(text, 40)} is beyond the largest double and reads as infinity",
                      "write a finite number, or the value as a string", requirement="INP-005")
    return value


def _string_too_long(length: int, bound: int):
    return _Reject("load.string_too_long",
                   f"a string of {length:,} characters is longer than the "
                   f"{bound:,}-character bound",
                   "link large content (a file, a URL) instead of copying it in",
                   requirement="INP-014")


def _line_of(text: str, pos: int | None) -> int | None:
    return None if pos is None else text.count("\n", 0, pos) + 1


def _check_json_data(value, text: str, max_string: int) -> None:
    """Nesting within :data:`MAX_DEPTH`; every string and key within
    ``max_string`` (only a text longer than the bound can hold such a string, so shorter
    documents skip that look)."""
    strings = len(text) > max_string
    # level by level, without recursion: the document may be as deep as the parser allowed
    level, depth = [value], 1
    while level:
        if depth > MAX_DEPTH:
            raise _Reject("load.too_deep", f"the document nests deeper than {MAX_DEPTH} levels",
                          f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006")
        children = []
        for node in level:
            if type(node) is dict:
                children.extend(node.values())
                if strings:
                    _check_strings(node, max_string)
            elif type(node) is list:
                children.extend(node)
            elif strings and type(node) is str and len(node) > max_string:
                raise _string_too_long(len(node), max_string)
        level, depth = children, depth + 1


def _check_strings(keys, max_string: int) -> None:
    longest = max(map(len, keys), default=0)
    if longest > max_string:
        raise _string_too_long(longest, max_string)


def _check_yaml_data(value, text: str, max_string: int) -> None:
    """YAML can hold what JSON cannot, and aliases can repeat one node without end: the
    data must be plain JSON data (string keys; no binary, sets or non-finite numbers), at
    most ``MAX_DEPTH`` deep, and not much larger than its text once aliases are expanded."""
    budget = 2 * len(text) + 10_000
    strings = len(text) > max_string
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        budget -= 1
        if budget < 0:
            raise _Reject("load.too_large", "YAML aliases expand the document far beyond its size",
                          "write the values out instead of repeating anchors", requirement="INP-002")
        if depth > MAX_DEPTH:
            raise _Reject("load.too_deep", f"the document nests deeper than {MAX_DEPTH} levels",
                          f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006")
        if isinstance(node, dict):
            for key, child in node.items():
                if not isinstance(key, str):
                    raise _Reject("load.yaml_type", f"the key {key!r} is not a string",
                                  "quote the key: keys are strings in Passdown's data",
                                  requirement="INP-007")
                stack.append((child, depth + 1))
            if strings:
                _check_strings(node, max_string)
        elif isinstance(node, list):
            stack.extend((child, depth + 1) for child in node)
        elif isinstance(node, str):
            if strings and len(node) > max_string:
                raise _string_too_long(len(node), max_string)
        elif isinstance(node, float):
            if node != node or node in (_INFINITY, -_INFINITY):
                _no_constants("a NaN or infinite number (.nan, .inf, or one beyond the largest "
                              "double)")
        elif not (node is None or isinstance(node, (str, int))):
            raise _Reject("load.yaml_type", f"a YAML {type(node).__name__} value is not JSON data",
                          "write plain strings, numbers, booleans, lists and mappings",
                          requirement="INP-007")


def parse_json(text: str):
    """Strict JSON: raises :class:`_Reject` on any loading rule."""
    try:
        return _fastjson.loads(
            text, object_pairs_hook=_pairs_without_duplicates, parse_constant=_no_constants,
            parse_int=_bounded_integer, parse_float=_finite_float,
        )
    except _fastjson.JSONError as error:
        raise _Reject("load.syntax", f"not valid JSON: {error.located(text)}",
                      "fix the JSON syntax at the line and column shown", _line_of(text, error.pos),
                      requirement="INP-001") from None
    except RecursionError:
        raise _Reject("load.too_deep", "the document nests too deeply to read",
                      f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006") from None


#: Where libyaml and ruamel's own scanner part ways: libyaml takes a tab where ruamel's
#: scanner refuses one (``key: value\t``); reads NEL and the Unicode line and paragraph
#: separators as line breaks, which YAML 1.2 and ruamel do not; drops a byte order mark
#: inside the text; takes a block scalar header with a comment glued to it (``|#``); ends an
#: anchor name at ``:``; reads an empty node tagged ``!`` as an empty string; and does not hand
#: a ``%YAML`` directive's version to the resolver. A text where any of these may occur (a tab,
#: one of those characters, a ``!``, ``&`` or ``*`` that can start a node, such a header, a
#: directive) is read by the pure loader alone, so the C loader never
#: accepts what Passdown refused before, nor reads a text differently; Passdown's own
#: registries have none of them (tests/formats/test_yaml_loaders.py compares the loaders).
#: The characters every such place starts from.
_PURE_ONLY_STARTS = "\t\x85\u2028\u2029\ufeff!&*|>%"
#: Of those, the ones that are such a place wherever they are.
_PURE_ONLY_ANYWHERE = "\t\x85\u2028\u2029\ufeff"


def _yaml_loader(pure: bool):
    """A safe YAML loader: libyaml's parser (``ruamel.yaml.clib``) when installed and
    ``pure`` is false, else ruamel's own. Both build the data with one constructor, so the
    values, duplicate keys, tags and integer bounds are judged by the same code. A loader
    holds the state of one read: each read gets its own (threads may read at once)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=pure or not c_yaml_available())
    yaml.Constructor = _yaml_constructor()
    yaml.allow_duplicate_keys = False
    return yaml


@functools.cache
def _yaml_constructor():
    from ruamel.yaml.constructor import SafeConstructor

    class _Constructor(SafeConstructor):
        pass

    # Timestamps stay the strings they were written as: schemas check their form.
    _Constructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)
    _Constructor.add_constructor("tag:yaml.org,2002:int", _bounded_yaml_integer)
    _Constructor.add_constructor("tag:yaml.org,2002:float", _tagged_float)
    _Constructor.add_constructor("tag:yaml.org,2002:bool", _tagged_bool)
    _Constructor.add_constructor("tag:yaml.org,2002:null", _tagged_null)
    _Constructor.add_constructor("tag:yaml.org,2002:omap", _yaml_omap)
    return _Constructor


def _not_of_its_tag(node, tag: str):
    """INP-026: a text given a tag whose forms it has none of (``!!float x``) is ``load.syntax``."""
    return _Reject("load.syntax", f"the text {cut(repr(node.value), 40)} is no {tag}, as its "
                   f"!!{tag} tag says", f"write a {tag} in one of its YAML forms, or remove the tag",
                   node.start_mark.line + 1, requirement="INP-026")


def _tagged_float(constructor, node) -> float:
    from ruamel.yaml.constructor import SafeConstructor

    try:
        return SafeConstructor.construct_yaml_float(constructor, node)
    except ValueError:
        raise _not_of_its_tag(node, "float") from None


def _tagged_bool(constructor, node) -> bool:
    from ruamel.yaml.constructor import SafeConstructor

    try:
        return SafeConstructor.construct_yaml_bool(constructor, node)
    except KeyError:
        raise _not_of_its_tag(node, "bool") from None


#: The texts of YAML 1.2's null (the core schema), the empty text included.
_NULL_FORMS = frozenset({"", "~", "null", "Null", "NULL"})


def _tagged_null(constructor, node) -> None:
    if constructor.construct_scalar(node) not in _NULL_FORMS:
        raise _not_of_its_tag(node, "null")
    return None


def _yaml_omap(constructor, node):
    """``!!omap``: a sequence of one-member mappings read as one mapping (INP-026), a repeated
    key refused as in any mapping (ruamel's own constructor only asserts it), a key that is no
    string refused as any such key is."""
    from ruamel.yaml.constructor import ConstructorError
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    omap = {}
    yield omap
    if not isinstance(node, SequenceNode):
        raise ConstructorError("while constructing an ordered map", node.start_mark,
                               f"expected a sequence, but found {node.id!s}", node.start_mark)
    for entry in node.value:
        if not isinstance(entry, MappingNode) or len(entry.value) != 1:
            raise ConstructorError("while constructing an ordered map", node.start_mark,
                                   "expected a mapping of one item", entry.start_mark)
        key_node, value_node = entry.value[0]
        key = constructor.construct_object(key_node)
        if not isinstance(key, str):
            raise _Reject("load.yaml_type", f"the key {cut(repr(key), 40)} is not a string",
                          "quote the key: keys are strings in Passdown's data",
                          key_node.start_mark.line + 1, requirement="INP-025")
        if key in omap:
            raise _Reject("load.duplicate_key", f"the key {key!r} appears twice in one !!omap",
                          "keep one entry per key", key_node.start_mark.line + 1,
                          requirement="INP-004")
        omap[key] = constructor.construct_object(value_node)


class _NotPlain(Exception):
    """The text holds something the event reader leaves to the loaders (a tag, an anchor, a
    merge key, a repeated or complex key, a second document, deep nesting): it is read by
    the pure loader, which gives the data or the finding exactly as before."""


_STR = "tag:yaml.org,2002:str"


@functools.cache
def _plain_scalar_tags():
    """ruamel's YAML 1.2 implicit resolvers: ``{first character: [(tag, pattern)]}``."""
    from ruamel.yaml.resolver import VersionedResolver

    return VersionedResolver.versioned_resolver.fget(_FixedVersion(VersionedResolver()))


class _FixedVersion:
    """Lends a resolver the version 1.2, so its table for 1.2 can be read without a loader."""

    def __init__(self, resolver):
        self._resolver = resolver

    def __getattr__(self, name):
        return getattr(self._resolver, name)

    processing_version = (1, 2)


def _plain_tag(value, table):
    """The tag ruamel's resolver gives a plain scalar (its ``resolve``, for YAML 1.2)."""
    candidates = table.get(value[0] if value else "", []) + table.get(None, [])
    for tag, pattern in candidates:
        if pattern.match(value):
            return tag
    return _STR


def _parse_yaml_events(text: str):
    """The data of a plain YAML document, built from libyaml's events: what the loaders build
    (same resolver table, same constructors for every tag but ``str``), without composing a
    node per value. Raises :class:`_NotPlain` for whatever it leaves to the loaders."""
    from ruamel.yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent,
                                    MappingStartEvent, ScalarEvent, SequenceEndEvent,
                                    SequenceStartEvent, StreamEndEvent)
    from ruamel.yaml.nodes import ScalarNode

    from _ruamel_yaml import CParser

    table = _plain_scalar_tags()
    constructor = _scalar_constructor()
    constructors = constructor.yaml_constructors
    known = _PLAIN_SCALARS
    documents = 0
    stack = []  # [container, pending key or _NO_KEY]
    root = _NO_KEY
    parser = CParser(text)
    while (event := parser.get_event()) is not None:
        kind = type(event)
        if kind is ScalarEvent:
            if event.anchor is not None or event.tag is not None:
                raise _NotPlain
            if event.implicit[0] and not event.style:
                value = known.get(event.value, _NO_KEY)
                if value is _NO_KEY:
                    tag = _plain_tag(event.value, table)
                    if tag == _STR:
                        value = event.value
                    elif tag in constructors and not tag.endswith(":merge"):
                        value = constructors[tag](constructor, ScalarNode(
                            tag, event.value, event.start_mark, event.end_mark, style=None))
                    else:
                        raise _NotPlain
                    if len(event.value) <= _KNOWN_SCALAR_CHARS:
                        if len(known) >= _KNOWN_SCALARS:
                            known.clear()
                        known[event.value] = value
            else:
                value = event.value
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                raise _NotPlain
            stack.append([{} if kind is MappingStartEvent else [], _NO_KEY])
            continue
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            value = stack.pop()[0]
        elif kind is AliasEvent:
            raise _NotPlain
        elif kind is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _NotPlain
            continue
        elif kind is StreamEndEvent:
            break
        else:
            continue
        if not stack:
            root = value
            continue
        top = stack[-1]
        container = top[0]
        if type(container) is list:
            container.append(value)
        elif top[1] is _NO_KEY:
            if type(value) is not str or value in container:
                raise _NotPlain
            top[1] = value
        else:
            container[top[1]] = value
            top[1] = _NO_KEY
    if root is _NO_KEY:
        raise _NotPlain
    return root


_NO_KEY = object()
#: Plain scalars read so far and the values they stand for (strings, numbers, booleans,
#: null: all immutable, and a plain scalar's value depends on its text alone): keys and
#: states repeat in every attempt of a registry and across registries. Bounded: at most
#: :data:`_KNOWN_SCALARS` entries of at most :data:`_KNOWN_SCALAR_CHARS` characters.
_PLAIN_SCALARS: dict[str, object] = {}
_KNOWN_SCALARS = 4096
_KNOWN_SCALAR_CHARS = 128


@functools.cache
def _scalar_constructor():
    """The constructor the event reader builds plain scalars with (their constructors keep
    no state: one serves every read)."""
    return _yaml_loader(True).constructor


def _may_read_differently(text: str) -> bool:
    """Whether ``text`` holds a place where the two parsers may part ways (see above). Only
    the characters such a place starts from are visited: one character class finds them, far
    faster than a pattern of alternatives over a large file."""
    for match in _pure_only_starts().finditer(text):
        at = match.start()
        character = text[at]
        before = text[at - 1] if at else "\n"
        if character in _PURE_ONLY_ANYWHERE:
            return True
        if character in "!&*":
            if before.isspace() or before in "[{,":
                return True
        elif character == "%":
            if before == "\n":
                return True
        else:  # a block scalar header, "|" or ">" with its indicators, then "#"
            end = at + 1
            while end < len(text) and text[end] in "-+0123456789":
                end += 1
            if text[end:end + 1] == "#":
                return True
    return False


@functools.cache
def _pure_only_starts():
    import re

    return re.compile(f"[{re.escape(_PURE_ONLY_STARTS)}]")


@functools.cache
def c_yaml_available() -> bool:
    """Whether libyaml's parser for ruamel.yaml (``ruamel.yaml.clib``) is installed."""
    try:
        import _ruamel_yaml  # noqa: F401  (the extension module ruamel.yaml.clib installs)
    except ImportError:
        return False
    return True


#: Every integer below this has at most :data:`MAX_INTEGER_DIGITS` decimal digits.
_INTEGER_BOUND = 10**MAX_INTEGER_DIGITS


def _bounded_yaml_integer(constructor, node) -> int:
    """YAML's integer forms (decimal, ``0x``, ``0o``, ``_`` separators, sexagesimal) within
    :data:`MAX_INTEGER_DIGITS` decimal digits: a text too long is refused before conversion,
    and so is a value too large once converted (a long hexadecimal one)."""
    from ruamel.yaml.constructor import SafeConstructor

    line = node.start_mark.line + 1
    text = constructor.construct_scalar(node)
    if isinstance(text, str) and len(text) > MAX_INTEGER_DIGITS + 8:  # sign, prefix, a few "_"
        raise _too_many_digits(line=line)
    try:
        value = SafeConstructor.construct_yaml_int(constructor, node)
    except ValueError as error:
        if "limit" in str(error):  # the interpreter's own conversion limit, set lower than ours
            raise _too_many_digits(line=line) from None
        raise _not_of_its_tag(node, "int") from None  # `!!int x`: a text of no integer form
    if isinstance(value, int) and not -_INTEGER_BOUND < value < _INTEGER_BOUND:
        raise _too_many_digits(line=line)
    return value


def parse_yaml(text: str, *, pure: bool = False):
    """Safe YAML: one document, no custom tags, no duplicate keys.

    A text in the plain block form Passdown writes is read by :mod:`passdown.formats._yamlblock`,
    which answers only where it gives the loaders' own data. Otherwise the C parser reads
    first; whatever it refuses, or a text it reads differently, is read again by the pure
    loader, whose finding is the one reported: both loaders give the same findings, lines and
    refusals, and only valid documents take the fast path."""
    _refuse_other_yaml_versions(text)
    if not pure:
        try:  # the form Passdown writes its registries in, read without a YAML library
            return _yamlblock.read(text)
        except _yamlblock.NotPlain:
            pass
    if pure or not c_yaml_available() or _may_read_differently(text):
        return _parse_yaml_with(text, _yaml_loader(True))
    from ruamel.yaml.error import YAMLError

    try:
        data = _parse_yaml_events(text)
    except (_NotPlain, _Reject, YAMLError, UnicodeError, ValueError, TypeError):
        return _parse_yaml_with(text, _yaml_loader(True))
    if not isinstance(data, dict):  # every YAML artifact is a mapping: the rest is read as before
        return _parse_yaml_with(text, _yaml_loader(True))
    return data


def _refuse_other_yaml_versions(text: str) -> None:
    """INP-022: a ``%YAML`` directive for another version than 1.2 is refused, so that no
    reader resolves the document by YAML 1.1's rules (``yes`` as true) where another reads 1.2."""
    if "%YAML" not in text:
        return
    import re

    for match in re.finditer(r"^%YAML[ \t]+([^ \t\r\n#]*)", text, re.MULTILINE):
        if match.group(1) != "1.2":
            raise _Reject("load.syntax", f"a %YAML {cut(match.group(1), 20)} directive: Passdown reads YAML 1.2",
                          "remove the directive, or write %YAML 1.2", _line_of(text, match.start()),
                          requirement="INP-022")


def _parse_yaml_with(text: str, loader):
    from ruamel.yaml.error import YAMLError

    try:
        documents = list(loader.load_all(text))
    except RecursionError:
        raise _Reject("load.too_deep", "the document nests too deeply to read",
                      f"keep nesting within {MAX_DEPTH} levels", requirement="INP-006") from None
    except (YAMLError, UnicodeError) as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        message = str(getattr(error, "problem", None) or error).strip().splitlines()[0]
        if "duplicate key" in str(error):
            raise _Reject("load.duplicate_key", f"a key appears twice in one mapping: {message}",
                          "keep one entry per key", line, requirement="INP-004") from None
        if "could not determine a constructor" in str(error):
            raise _Reject("load.yaml_tag", f"an unsafe or unknown YAML tag: {message}",
                          "remove the tag: Passdown reads plain YAML data only", line,
                          requirement="INP-007") from None
        raise _Reject("load.syntax", f"not valid YAML: {message}",
                      "fix the YAML syntax at the line shown", line,
                      requirement="INP-001") from None
    if len(documents) != 1:
        raise _Reject("load.syntax", f"expected one YAML document, found {len(documents)}",
                      "keep one document per file", requirement="INP-001")
    return documents[0]


def load_bytes(raw: bytes, *, source: str | None, syntax: str,
               max_string: int | None = None) -> tuple[Loaded | None, list[Finding]]:
    """Decode and parse ``raw`` as ``syntax`` ("json", "yaml" or "text"); ``max_string`` is
    the string bound, :data:`MAX_STRING_CHARS` by default (the conformance suite's own
    fixtures may hold longer strings, to test this bound)."""
    if max_string is None:
        max_string = MAX_STRING_CHARS
    text, findings = decode_text(raw, source)
    if text is None:
        return None, findings
    if syntax == "text":
        return Loaded(None, text, syntax), []
    if not text.strip():
        return None, [_finding(source, "load.empty", "the file is empty",
                               "write the artifact, or remove the empty file",
                               requirement="INP-001")]
    try:
        if syntax == "json":
            data = parse_json(text)
            _check_json_data(data, text, max_string)
        else:
            data = parse_yaml(text)
            _check_yaml_data(data, text, max_string)
    except _Reject as reject:
        code, message, hint, line, requirement = reject.finding_args
        return None, [_finding(source, code, message, hint, line, requirement)]
    return Loaded(data, text, syntax), []


def load_path(path: str, *, syntax: str, limit: int = DEFAULT_MAX_BYTES,
              max_string: int | None = None):
    """Read and load a file; ``(Loaded | None, findings)``."""
    raw, findings = read_bounded(path, limit)
    if raw is None:
        return None, findings
    return load_bytes(raw, source=path, syntax=syntax, max_string=max_string)
