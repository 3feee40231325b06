"""Digests: the canonical bytes of each artifact, digest strings, and streaming hashing.

Owns three things, and nothing else computes them:

- **canonical bytes**: JSON artifacts as RFC 8785 (JCS); YAML registries as the JCS form of
  their data; the continuation packet as LF-normalised UTF-8 text without its
  ``CHECKPOINT_DIGEST`` line; any other file as its raw bytes;
- **digest strings**: ``<algorithm>:<encoded>`` (the OCI grammar), ``blake3`` by default and
  ``sha256`` verified too; other well-formed algorithms are *unverifiable*, never a crash;
- **streaming hashing**: large files are hashed in memory-mapped windows, so memory stays
  bounded whatever the file size.

Nothing heavy is imported at module level: the digest gate loads this module on its fast path.
"""

from passdown.errors import DigestError

#: The algorithms Passdown computes and verifies, default first.
ALGORITHMS = ("blake3", "sha256")
DEFAULT_ALGORITHM = "blake3"
#: The packet field that carries the digest and is left out of the bytes it covers.
DIGEST_FIELD = "CHECKPOINT_DIGEST"
#: The registry attempt field that records the continue checkpoint's digest beside the packet's.
CONTINUE_DIGEST_FIELD = "continue_checkpoint_digest"
#: A packet value continues on lines indented by exactly this (spec/packet.md).
_CONTINUATION = "  "
#: Every form a caller may ask for; artifact kinds map onto the first four.
FORMS = ("jcs", "yaml", "packet", "raw")
#: Longer than any real digest; a bound so hostile strings are rejected cheaply.
MAX_DIGEST_LENGTH = 1024
#: JCS numbers are IEEE doubles: beyond this magnitude an integer is no longer exact.
MAX_SAFE_INTEGER = 2**53 - 1

_HEX_LENGTH = {"blake3": 64, "sha256": 64}
_LOWER_HEX_TEXT = "0123456789abcdef"
_LOWER_HEX = frozenset(_LOWER_HEX_TEXT)
_ALGORITHM_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_ALGORITHM_SEPARATORS = frozenset("+._-")
_ENCODED_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=_-")
#: Files at least this large are hashed through memory-mapped windows of this size.
_WINDOW = 16 << 20
_READ_CHUNK = 1 << 20


# ---------------------------------------------------------------------------------------------
# Digest strings


def parse_digest(text):
    """``"blake3:ab..."`` -> ``("blake3", "ab...")``.

    Raises :class:`DigestError` ``digest.malformed`` when ``text`` does not fit the grammar
    ``algorithm ":" encoded`` (or a known algorithm's encoding), and ``digest.unknown_algorithm``
    when it fits but names an algorithm Passdown cannot compute (unverifiable, not wrong)."""
    if isinstance(text, str):  # the common case, a well-formed digest, decided in one look
        algorithm, _, encoded = text.partition(":")
        if len(encoded) == _HEX_LENGTH.get(algorithm) and not encoded.strip(_LOWER_HEX_TEXT):
            return algorithm, encoded
    if not isinstance(text, str):
        raise DigestError(f"a digest is a string, not {_type_name(text)}", code="digest.malformed",
                          hint="write the digest as <algorithm>:<hex>, e.g. blake3:<64 hex>")
    if len(text) > MAX_DIGEST_LENGTH:
        raise DigestError(f"the digest is longer than {MAX_DIGEST_LENGTH} characters",
                          code="digest.malformed", hint="write the digest as <algorithm>:<hex>")
    algorithm, colon, encoded = text.partition(":")
    if not colon or not _algorithm_ok(algorithm) or not encoded or not set(encoded) <= _ENCODED_CHARS:
        from passdown._text import cut

        raise DigestError(f"{cut(text, 80)!r} is not a digest of the form <algorithm>:<encoded>",
                          code="digest.malformed",
                          hint="write the digest as <algorithm>:<hex>, e.g. blake3:<64 hex>")
    length = _HEX_LENGTH.get(algorithm)
    if length is None:
        raise DigestError(f"the algorithm {algorithm!r} is not one Passdown can verify",
                          code="digest.unknown_algorithm",
                          hint="use blake3 (or sha256); other algorithms are reported unverifiable")
    if len(encoded) != length or not set(encoded) <= _LOWER_HEX:
        raise DigestError(f"a {algorithm} digest is {length} lowercase hex characters",
                          code="digest.malformed",
                          hint=f"write {algorithm}:<{length} lowercase hex>")
    return algorithm, encoded


def fits_grammar(text):
    """Whether ``text`` is a digest string by the grammar alone (``defs.schema.json``'s
    ``digest`` pattern and length): ``algorithm ":" encoded``, before any algorithm's own
    encoding is checked."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_DIGEST_LENGTH:
        return False
    algorithm, colon, encoded = text.partition(":")
    return bool(colon and _algorithm_ok(algorithm) and encoded and set(encoded) <= _ENCODED_CHARS)


def _algorithm_ok(algorithm):
    # algorithm := component (separator component)*; component := [a-z0-9]+
    if not algorithm:
        return False
    previous_was_separator = True
    for char in algorithm:
        if char in _ALGORITHM_CHARS:
            previous_was_separator = False
        elif char in _ALGORITHM_SEPARATORS and not previous_was_separator:
            previous_was_separator = True
        else:
            return False
    return not previous_was_separator


def check_digest(expected, canonical):
    """Compare the digest string ``expected`` with ``canonical`` bytes.

    Returns ``None`` when they match, else the code: ``digest.mismatch``, ``digest.malformed``
    or ``digest.unknown_algorithm``."""
    try:
        algorithm, encoded = parse_digest(expected)
    except DigestError as error:
        return error.code
    return None if hexdigest(canonical, algorithm) == encoded else "digest.mismatch"


def same_digest(expected, actual):
    """Whether two digest strings name the same bytes; a malformed or unknown one never does.
    The grammar leaves one spelling per digest (lowercase hex of a fixed length), so the
    strings are equal exactly when they name the same bytes, and one parse says whether
    they are a digest at all."""
    if not isinstance(expected, str) or expected != actual:
        return False
    try:
        parse_digest(expected)
    except DigestError:
        return False
    return True


def _hasher(algorithm):
    if algorithm == "blake3":
        from blake3 import blake3

        return blake3(max_threads=blake3.AUTO)
    if algorithm == "sha256":
        import hashlib

        return hashlib.sha256()
    raise DigestError(f"the algorithm {algorithm!r} is not one Passdown computes",
                      code="digest.unknown_algorithm", hint="use blake3 or sha256")


def new_hasher(algorithm=DEFAULT_ALGORITHM):
    """A hash object (``update``, ``hexdigest``) for ``algorithm``, to feed bytes in chunks;
    one thread (many small files are hashed faster so than with a thread pool each)."""
    if algorithm == "blake3":
        from blake3 import blake3

        return blake3()
    return _hasher(algorithm)


def hexdigest(data, algorithm=DEFAULT_ALGORITHM):
    """The lowercase hex digest of ``data`` (bytes-like) under ``algorithm``."""
    if algorithm == "blake3" and len(data) < _WINDOW:
        from blake3 import blake3  # below a window, threads cost more than they save

        return blake3(data).hexdigest()
    hasher = _hasher(algorithm)
    hasher.update(data)
    return hasher.hexdigest()


def digest_bytes(data, algorithm=DEFAULT_ALGORITHM):
    """The digest string of ``data`` exactly as given (no canonical form applied)."""
    return f"{algorithm}:{hexdigest(data, algorithm)}"


def digest_stream(handle, algorithm=DEFAULT_ALGORITHM):
    """The digest string of everything readable from the binary file object ``handle``.

    A regular file is hashed through memory-mapped windows (no copy, bounded memory, all
    cores for blake3); anything else (a pipe, stdin) in fixed-size chunks."""
    import os

    hasher = _hasher(algorithm)
    try:
        fileno = handle.fileno()
        stat = os.fstat(fileno)
        regular = (stat.st_mode & 0o170000) == 0o100000
    except (AttributeError, OSError, ValueError):
        regular = False
    if regular and stat.st_size >= _WINDOW and handle.tell() == 0:
        _update_windows(hasher, fileno, stat.st_size)
    else:
        buffer = bytearray(_READ_CHUNK)
        view = memoryview(buffer)
        while True:
            count = handle.readinto(buffer)
            if not count:
                break
            hasher.update(view[:count])
    return f"{algorithm}:{hasher.hexdigest()}"


def _update_windows(hasher, fileno, size):
    import mmap

    offset = 0
    while offset < size:
        length = min(_WINDOW, size - offset)
        with mmap.mmap(fileno, length, offset=offset, access=mmap.ACCESS_READ) as window:
            if hasattr(window, "madvise"):
                window.madvise(mmap.MADV_SEQUENTIAL)
            hasher.update(window)
        offset += length


# ---------------------------------------------------------------------------------------------
# Canonical bytes


def canonical_json(value):
    """The RFC 8785 (JCS) bytes of ``value``, a parsed JSON (or YAML) value.

    Raises :class:`DigestError` with the JSON path of the first value JCS cannot represent:
    ``digest.non_finite`` (NaN, Infinity), ``digest.integer_range`` (an integer beyond
    +/-(2**53 - 1) that reading as a double would change: see :func:`_double_for`),
    ``digest.lone_surrogate`` (a string that is not Unicode text), ``digest.key_type`` (a
    non-string key), ``digest.value_type`` (a value that is no JSON type) or
    ``digest.too_deep``.

    A value with no float and no key at or above U+E000 is spelled by the standard JSON
    encoder (sorted keys, no spaces, UTF-8, the escapes JCS uses): its order of keys by code
    point is then JCS's order by UTF-16 code unit, and integers within the safe range are
    written alike; every other value is written by ``rfc8785``
    (tests/formats/test_digest.py compares the two)."""
    plain = _plainly_in_jcs_domain(value, _max_depth())
    if plain == _JSON_SPELLS_IT:
        import json

        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True,
                          check_circular=False).encode("utf-8")
    if not plain and _check_jcs_domain(value, quick=False):
        value = _big_integers_as_doubles(value)
    import rfc8785

    return rfc8785.dumps(value)


def _max_depth():
    from passdown.formats._loading import MAX_DEPTH

    return MAX_DEPTH


def canonical_problem(value):
    """The :class:`DigestError` :func:`canonical_json` would raise for ``value`` (a value JCS
    cannot represent), or None: the same bound, for a validator that warns before a digest
    is ever asked for."""
    try:
        _check_jcs_domain(value)
    except DigestError as error:
        return error
    return None


def _double_for(number):
    """The double an integer beyond the safe range stands for, or ``None`` when reading it as a
    double would change it. JCS reads every number as a double, so such an integer is accepted
    exactly when it is the JCS spelling of a double (``9007199254740992``,
    ``100000000000000000000``): then canonical bytes always read back to themselves."""
    import rfc8785

    try:
        double = float(number)
        return double if rfc8785.dumps(double) == str(number).encode("ascii") else None
    except (OverflowError, rfc8785.CanonicalizationError):
        return None


def _big_integers_as_doubles(node):
    if isinstance(node, dict):
        return {key: _big_integers_as_doubles(child) for key, child in node.items()}
    if isinstance(node, (list, tuple)):
        return [_big_integers_as_doubles(child) for child in node]
    if isinstance(node, int) and not isinstance(node, bool) and not -MAX_SAFE_INTEGER <= node <= MAX_SAFE_INTEGER:
        return _double_for(node)
    return node


def _check_jcs_domain(value, *, quick=True):
    """Raise for the first value JCS cannot represent; answer whether an integer beyond the
    safe range (but the spelling of a double) was met. ``quick``: try
    :func:`_plainly_in_jcs_domain` first."""
    from passdown.formats._loading import MAX_DEPTH

    if quick and _plainly_in_jcs_domain(value, MAX_DEPTH):
        return False
    big_integers = False
    stack = [(value, (), 1)]
    while stack:
        node, parts, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _domain_error("digest.too_deep", f"nests deeper than {MAX_DEPTH} levels", parts,
                                f"keep nesting within {MAX_DEPTH} levels")
        if node is None or node is True or node is False:
            continue
        if isinstance(node, str):
            _check_text(node, parts)
        elif isinstance(node, int):
            if not -MAX_SAFE_INTEGER <= node <= MAX_SAFE_INTEGER:
                if _double_for(node) is None:
                    raise _domain_error(
                        "digest.integer_range",
                        "is an integer beyond 2**53 - 1 in magnitude that a JSON number (a double) "
                        "cannot hold as written", parts, "write large integers as strings")
                big_integers = True
        elif isinstance(node, float):
            if node != node or node in (float("inf"), float("-inf")):
                raise _domain_error("digest.non_finite", f"is {node!r}, which JSON cannot represent",
                                    parts, "write a finite number, or null where the value is unknown")
        elif isinstance(node, dict):
            children = []
            for key, child in node.items():
                if not isinstance(key, str):
                    raise _domain_error("digest.key_type", f"has the key {key!r}, which is not a string",
                                        parts, "quote the key: JSON object keys are strings")
                _check_text(key, parts + (key,))
                children.append((child, parts + (key,), depth + 1))
            stack.extend(reversed(children))
        elif isinstance(node, (list, tuple)):
            stack.extend((child, parts + (index,), depth + 1)
                         for index, child in reversed(list(enumerate(node))))
        else:
            raise _domain_error("digest.value_type", f"is a {_type_name(node)}, which is no JSON type",
                                parts, "use only strings, numbers, booleans, null, arrays and objects")
    return big_integers


#: :func:`_plainly_in_jcs_domain`'s answers: in the domain, and spelled by the JSON encoder.
_PLAIN, _JSON_SPELLS_IT = 1, 2


def _plainly_in_jcs_domain(value, max_depth):
    """Whether ``value`` is plainly in the JCS domain: JSON types only, string keys, no lone
    surrogate, no integer beyond the safe range, no non-finite number, no container with
    children at the depth bound. A quick pass without paths: 0 (which it also answers for
    some values in the domain) sends ``value`` to the exact walk, which finds the first
    problem and where it is; :data:`_JSON_SPELLS_IT` when, besides, it holds no float and no
    key at or above U+E000 (see :func:`canonical_json`), else :data:`_PLAIN`."""
    texts, keys, floats, high_key = [], [], False, False
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if len(texts) > _TEXTS_AT_ONCE or len(keys) > _TEXTS_AT_ONCE:  # bounded memory
            if not _encodable(texts) or not _encodable(keys):
                return 0
            high_key = high_key or _high(keys)
            texts, keys = [], []
        if node is None or node is True or node is False:
            continue
        if isinstance(node, str):
            texts.append(node)
        elif isinstance(node, int):
            if not -MAX_SAFE_INTEGER <= node <= MAX_SAFE_INTEGER:
                return 0
        elif isinstance(node, float):
            if node != node or node in (float("inf"), float("-inf")):
                return 0
            floats = True
        elif isinstance(node, dict):
            if node and depth >= max_depth:
                return 0
            for key, child in node.items():
                if not isinstance(key, str):
                    return 0
                keys.append(key)
                if isinstance(child, str):
                    texts.append(child)
                else:
                    stack.append((child, depth + 1))
        elif isinstance(node, (list, tuple)):
            if node and depth >= max_depth:
                return 0
            stack.extend((child, depth + 1) for child in node)
        else:
            return 0
    if not _encodable(texts) or not _encodable(keys):
        return 0
    return _PLAIN if floats or high_key or _high(keys) else _JSON_SPELLS_IT


#: Strings :func:`_plainly_in_jcs_domain` joins and encodes at once (a few hundred KB): the
#: strings of a large registry are checked in parts, never copied whole.
_TEXTS_AT_ONCE = 4096


def _high(keys):
    """Whether a key holds a character at or above U+E000 (where the order of code points
    and of UTF-16 code units part ways)."""
    names = "".join(keys)
    return bool(names) and max(names) >= "\ue000"


def _encodable(texts):
    """Whether every string of ``texts`` is UTF-8 text (a surrogate code point fails, paired
    or not)."""
    try:
        "".join(texts).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_text(text, parts):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _domain_error("digest.lone_surrogate", "holds a lone UTF-16 surrogate, which is not Unicode text",
                            parts, "remove the unpaired \\ud800-\\udfff escape") from None


def _domain_error(code, what, parts, hint):
    from passdown._findings import json_path

    path = json_path(parts)
    error = DigestError(f"the value at {path} {what}", code=code, hint=hint, path=path)
    error.parts, error.what = tuple(parts), what  # for a validator's finding (canonical_problem)
    return error


def canonical_packet(text):
    """The canonical bytes of a continuation packet's text (a str).

    Line breaks (CRLF, then lone CR) become LF. The digest field is left out: every line that
    starts with ``CHECKPOINT_DIGEST:`` in column 0, with the lines after it that are blank or
    indented by two spaces (its continuation lines, in the packet grammar), up to the first
    line that is neither. Spaces and tabs at the end of each line are dropped; trailing empty
    lines are dropped; every remaining line ends with exactly one LF. The result is UTF-8."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept = []
    in_digest_field = False
    prefix = DIGEST_FIELD + ":"
    for line in lines:
        line = line.rstrip(" \t")
        if line.startswith(prefix):
            in_digest_field = True
            continue
        if in_digest_field and (not line or line.startswith(_CONTINUATION)):
            continue
        in_digest_field = False
        kept.append(line)
    while kept and not kept[-1]:
        kept.pop()
    canonical = "".join(line + "\n" for line in kept)
    _check_text(canonical, ())
    return canonical.encode("utf-8")


def canonical_bytes(raw, form, *, source=None):
    """``raw`` file bytes -> canonical bytes in ``form`` (``jcs``, ``yaml``, ``packet``, ``raw``).

    Loading goes through :mod:`passdown.formats._loading`, so every input-hygiene rule applies; a
    failure raises :class:`DigestError` carrying the loading finding's code (``load.*``)."""
    if form == "raw":
        return bytes(raw)
    from passdown.formats._loading import load_bytes

    syntax = {"jcs": "json", "yaml": "yaml", "packet": "text"}.get(form)
    if syntax is None:
        raise DigestError(f"unknown canonical form {form!r}", code="digest.unknown_form",
                          hint=f"use one of: {', '.join(FORMS)}")
    loaded, findings = load_bytes(raw, source=source, syntax=syntax)
    if loaded is None:
        first = findings[0]
        raise DigestError(first.message, code=first.code, hint=first.hint)
    if form == "packet":
        return canonical_packet(packet_text(loaded.text, source))
    return canonical_json(loaded.data)


def packet_text(text, source=None):
    """A packet's text form: a JSON projection is rendered to text first, so both forms of one
    packet have one digest."""
    from passdown.formats import _packet

    if not _packet.is_projection(text):
        return text
    from passdown.formats._loading import load_bytes

    loaded, findings = load_bytes(text.encode("utf-8"), source=source, syntax="json")
    if loaded is None:
        first = findings[0]
        raise DigestError(first.message, code=first.code, hint=first.hint)
    if not isinstance(loaded.data, dict):
        raise DigestError("the packet projection is not a JSON object", code="load.syntax",
                          hint="write the projection as one JSON object")
    return _packet.render(_packet.from_projection(loaded.data).fields)


# ---------------------------------------------------------------------------------------------
# Artifacts and files

#: The canonical form of each artifact kind (:mod:`passdown.formats._detect` names the kinds), and of the
#: plain syntaxes. A registry written in YAML takes the ``yaml`` form.
FORM_BY_KIND = {"checkpoint": "jcs", "ack": "jcs", "handoff": "jcs", "registry": "jcs",
                "packet": "packet", "json": "jcs", "yaml": "yaml", "raw": "raw"}


def form_for_name(name):
    """The canonical form Passdown applies to a file called ``name``: its artifact kind's (a YAML
    registry's is ``yaml``), and ``raw`` for a file that is no artifact."""
    from passdown.formats import _detect

    kind = _detect.by_filename(name)
    if kind is None:
        return "raw"
    return form_for_kind(kind.name, name)


def form_for_kind(kind, name=None):
    """The canonical form of artifact ``kind``; a registry named ``*.yaml``/``*.yml`` is YAML."""
    from passdown.formats._files import syntax_for

    if kind == "registry" and name is not None and syntax_for(name) == "yaml":
        return "yaml"
    return FORM_BY_KIND.get(kind, "jcs")


def digest_file(path, algorithm=DEFAULT_ALGORITHM, *, form=None):
    """The digest string of the file at ``path``: an artifact in its canonical form (chosen by
    its name unless ``form`` is given), any other file over its raw bytes, streamed with
    bounded memory whatever its size. Only a regular file is read, opened without blocking
    (:mod:`passdown.formats._files`): a FIFO, a device, a directory or a link loop raises
    :class:`DigestError` with its ``load.*`` code."""
    import os

    path = os.fspath(path)
    form = form or form_for_name(path)
    if algorithm not in ALGORITHMS:
        _hasher(algorithm)  # raises digest.unknown_algorithm
    if form == "raw":
        with open_input(path) as handle:
            try:
                return digest_stream(handle, algorithm)
            except OSError as error:  # a read that fails midway (an I/O error, EAGAIN)
                raise unreadable(path, error) from None
    return digest_bytes(canonical_file(path, form=form), algorithm)


def open_input(path):
    """An open binary file object on the regular file at ``path``, for streaming (a raw
    digest, raw canonical bytes); refusals raise :class:`DigestError` with their code."""
    return open(_open_regular(path), "rb")


def _open_regular(path):
    from passdown.formats import _files

    try:
        return _files.open_regular(path)
    except _files.FileRefused as refused:
        raise DigestError(refused.message, code=refused.code, hint=refused.hint) from None
    except OSError as error:
        raise unreadable(path, error) from None


def unreadable(path, error):
    """The error for a file the operating system would not open or read."""
    return DigestError(f"{path}: cannot read the file: {error.strerror or type(error).__name__}",
                       code="load.unreadable", hint="check that the path exists and is readable")


def canonical_file(path, *, form=None):
    """The canonical bytes of the file at ``path`` (its artifact form, or raw bytes), read
    within the loading size bound."""
    from passdown.formats._loading import read_bounded

    form = form or form_for_name(path)
    raw, findings = read_bounded(path)
    if raw is None:
        first = findings[0]
        raise DigestError(f"{path}: {first.message}", code=first.code, hint=first.hint)
    return canonical_bytes(raw, form, source=path)


def _type_name(value):
    return {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer",
            float: "number", type(None): "null"}.get(type(value), type(value).__name__)


# ---------------------------------------------------------------------------------------------
# Digest lists. Three line styles, each read by ``--check`` and written by ``passdown digest``:
#
#   blake3:<hex>  <file>          Passdown's own: the algorithm in the digest string
#   <hex>  <file>  (or *<file>)   bare, as sha256sum and b3sum write: the algorithm from outside
#   SHA256 (<file>) = <hex>       tagged, as sha256sum --tag writes (and BLAKE3 for blake3)
#
# A name holding a backslash, LF or CR is escaped and the line starts with a backslash (the
# coreutils convention), in every style.

#: The line styles, Passdown's first.
LINE_STYLES = ("passdown", "bare", "tag")
#: The tag of each algorithm in a tagged line, as sha256sum --tag writes it.
TAGS = {"sha256": "SHA256", "blake3": "BLAKE3"}
_MALFORMED_HINT = ("write `<digest>  <file>` (`blake3:<hex>  <file>`), the bare `<hex>  <file>` "
                   "of sha256sum and b3sum, or the tagged `SHA256 (<file>) = <hex>` of "
                   "sha256sum --tag")


def format_line(digest, name, style="passdown"):
    """One list line for ``digest`` (a digest string) and ``name`` in ``style``: ``passdown``,
    ``bare`` (the hex alone, for sha256sum and b3sum) or ``tag``; a name holding a newline,
    CR or backslash is escaped and the line starts with a backslash, so every name
    round-trips."""
    algorithm, _, encoded = digest.partition(":")
    escaped = "\\" in name or "\n" in name or "\r" in name
    if escaped:
        name = name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    if style == "tag":
        line = f"{TAGS.get(algorithm, algorithm.upper())} ({name}) = {encoded}"
    else:
        line = f"{encoded if style == 'bare' else digest}  {name}"
    return "\\" + line if escaped else line


def parse_line(line, *, bare_algorithm=None):
    """One list line -> ``(digest, file)``, ``digest`` a digest string (``sha256:<hex>``
    for a bare or tagged line: a bare one takes ``bare_algorithm``, default blake3). Raises
    ``digest.malformed_line`` for a line of none of the three styles.

    A Passdown-style digest string itself is not checked here (see :func:`parse_digest`)."""
    return parse_styled_line(line, bare_algorithm=bare_algorithm)[:2]


def parse_styled_line(line, *, bare_algorithm=None):
    """:func:`parse_line` with the line's style as a third value."""
    escaped = line.startswith("\\")
    body = line[1:] if escaped else line
    tagged = _tagged(body)
    if tagged is not None:
        digest, name, style = (*tagged, "tag")
    else:
        digest, space, rest = body.partition(" ")
        if not digest or not space or rest[:1] not in (" ", "*") or not rest[1:]:
            raise DigestError("not a digest line (`<digest>  <file>`, bare or tagged)",
                              code="digest.malformed_line",
                              hint=_MALFORMED_HINT)
        name, style = rest[1:], "passdown"
        if ":" not in digest and _is_hex(digest):
            digest, style = f"{bare_algorithm or DEFAULT_ALGORITHM}:{digest.lower()}", "bare"
    if escaped:
        name = _unescape(name)
    return digest, name, style


def _tagged(body):
    """``(digest, name)`` of a tagged line ``TAG (<name>) = <hex>``, or None."""
    tag, space, rest = body.partition(" ")
    if not space or not rest.startswith("(") or not tag.isalnum():
        return None
    name, marker, encoded = rest[1:].rpartition(") = ")
    if not marker or not encoded or not _is_hex(encoded):
        return None
    algorithm = next((a for a, t in TAGS.items() if t == tag), tag.lower())
    return f"{algorithm}:{encoded.lower()}", name


def _is_hex(text):
    return bool(text) and all(c in "0123456789abcdefABCDEF" for c in text)


def _unescape(name):
    out = []
    chars = iter(name)
    for char in chars:
        if char != "\\":
            out.append(char)
            continue
        following = next(chars, "")
        replacement = {"\\": "\\", "n": "\n", "r": "\r"}.get(following)
        if replacement is None:
            raise DigestError("an escaped file name holds an unknown escape",
                              code="digest.malformed_line",
                              hint="escape only \\\\, \\n and \\r in file names")
        out.append(replacement)
    return "".join(out)


class CheckResult:
    """The outcome of one list line: ``status`` is ``OK`` or ``FAILED``; ``code`` says why a
    line failed (``digest.mismatch``, ``load.unreadable``, ``digest.unknown_algorithm``...),
    ``hint`` how to fix it."""

    __slots__ = ("line", "file", "status", "code", "expected", "actual", "message", "hint")

    def __init__(self, line, file, code=None, expected=None, actual=None, message=None,
                 hint=None):
        self.line = line
        self.file = file
        self.status = "OK" if code is None else "FAILED"
        self.code = code
        self.expected = expected
        self.actual = actual
        self.message = message
        self.hint = hint

    def to_dict(self):
        return {name: getattr(self, name) for name in self.__slots__}


def check_list(text, *, kind=None, bare_algorithm=None):
    """Verify every line of a digest list (``text``, a str) against the files it names.

    Each file is hashed with the algorithm its line names (a bare line's is
    ``bare_algorithm``, default blake3). A Passdown-style line hashes its file in the form its
    name (or the artifact ``kind`` given) selects; a bare or tagged line, written by
    sha256sum or b3sum, hashes the raw bytes unless ``kind`` is given. Blank lines are
    skipped; every other line gives one :class:`CheckResult`."""
    results = []
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        if not line.strip():
            continue
        try:
            expected, name, style = parse_styled_line(line, bare_algorithm=bare_algorithm)
        except DigestError as error:
            results.append(CheckResult(number, None, error.code, message=error.message,
                                       hint=error.hint))
            continue
        try:
            algorithm, _ = parse_digest(expected)
            if kind is not None:
                form = form_for_kind(kind, name)
            else:
                form = None if style == "passdown" else "raw"
            actual = digest_file(name, algorithm, form=form)
        except DigestError as error:
            results.append(CheckResult(number, name, error.code, expected, message=error.message,
                                       hint=error.hint))
            continue
        code = None if actual == expected else "digest.mismatch"
        message = hint = None
        if code is not None:
            message = "the file's digest differs from the listed one"
            if style == "bare" and bare_algorithm is None:
                hint = ("a bare line names no algorithm and was read as blake3: for a "
                        "sha256sum list pass --algorithm sha256")
        results.append(CheckResult(number, name, code, expected, actual, message, hint))
    return results
