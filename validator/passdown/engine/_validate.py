"""The validation engine: paths or bytes in, a :class:`Report` of findings out.

bytes -> safe load (:mod:`passdown.formats._loading`) -> the artifact kind (:mod:`passdown.formats._detect`) ->
the schema check (:mod:`passdown.engine._schemas`) -> the semantic rules of the kind
(:mod:`passdown.rules`) -> findings, with lines placed (:mod:`passdown.engine._locate`) only for
documents that have findings. A folder that holds a handoff (a checkpoint beside a packet,
registry or ACK) also gets the cross-file rules of kind ``"crossfile"``, whether the folder
was walked or a file in it was named (DIG-058): a pre-commit hook names only the files a commit
touches, and a checkpoint that disagrees with its registry is caught all the same.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from passdown._text import cut
from passdown.formats import _detect
from passdown.errors import UsageError
from passdown._findings import ERROR, Finding, failed, json_path
from passdown.formats import _files
from passdown.formats._loading import DEFAULT_MAX_BYTES, load_bytes, read_bounded, syntax_for, too_large
from passdown.rules import Artifact, Crossfile

STDIN = "<stdin>"
#: Kinds whose presence beside a checkpoint makes a folder a handoff folder.
_HANDOFF_PARTNERS = ("packet", "registry", "ack")
#: Findings that leave a text document without data to check.
_UNPARSED = frozenset({"detect.no_parser", "rule.crashed"})
#: Sub-folders a handoff folder keeps its checkpoint in (current, then legacy).
_CHECKPOINT_DIRS = ("xbrief", "vbrief")


@dataclass(frozen=True)
class Report:
    """What a validation found. ``files``: every file checked, in order; ``kinds``:
    ``(file, kind)`` for each file placed in an artifact kind; ``unreadable``: the inputs
    named by the caller that could not be read or loaded at all; ``skipped``: ``(file, why)``
    for each file an artifact's name found that is another tool's (CNF-112), left alone."""

    findings: tuple[Finding, ...] = ()
    files: tuple[str, ...] = ()
    kinds: tuple[tuple[str, str], ...] = ()
    unreadable: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        """No errors (warnings allowed)."""
        return not any(f.is_error for f in self.findings)

    @property
    def error_count(self) -> int:
        return sum(1 for f in self.findings if f.is_error)

    @property
    def warning_count(self) -> int:
        return len(self.findings) - self.error_count

    def failed(self, *, strict: bool = False) -> bool:
        return failed(self.findings, strict=strict)

    def exit_code(self, *, strict: bool = False) -> int:
        """2 when a named input was unreadable, else 1 on failing findings, else 0."""
        if self.unreadable:
            return 2
        return 1 if self.failed(strict=strict) else 0

    def __add__(self, other: Report) -> Report:
        return Report(
            _unique(self.findings + other.findings), self.files + other.files,
            self.kinds + other.kinds, self.unreadable + other.unreadable,
            self.skipped + other.skipped,
        )


@dataclass(slots=True)
class _Outcome:
    """One document's result inside the engine. ``kind`` stays when a walk releases the
    artifact (its data and text) once the file's folder is done."""

    file: str
    artifact: Artifact | None = None
    kind: str | None = None
    findings: list[Finding] = field(default_factory=list)
    syntax: str | None = None
    text_lines: dict | None = None  # {path: line} of a text document, from its kind
    skipped: str | None = None  # why a file found by an artifact's name is another tool's
    lines_later: bool = False  # a text document read without its projection: lines on demand

    def lines(self, paths) -> dict[tuple, int]:
        from passdown.engine._locate import lines_for

        if self.lines_later:
            self.lines_later = False
            self.text_lines = _parse_text(_detect.get(self.kind), self.artifact.text, self.file)[2]
        return lines_for(self.artifact.text, self.syntax, paths, self.text_lines)


# -- the public entry points --------------------------------------------------------------


def validate_bytes(raw: bytes, kind: str | None, name: str | None = None, *,
                   limit: int = DEFAULT_MAX_BYTES) -> Report:
    """Validate one document given as bytes. ``kind`` forces the artifact kind (``None``:
    detect it from ``name`` or the content); ``name`` is the file name it came from, used
    in findings and for detection (default ``<stdin>``)."""
    _check_kind(kind)
    source = name or STDIN
    return _report([check_bytes(raw, file=source, filename=name, kind=kind, limit=limit)],
                   named={source})


def validate_paths(paths, kind: str | None = None, *, limit: int = DEFAULT_MAX_BYTES,
                   progress=None) -> Report:
    """Validate files, and folders recursively (their artifacts found by name). ``kind``
    forces the kind of named files, and limits folder walks to that kind's files.
    ``progress(done, total)``, when given, is called as a folder walk checks its files."""
    _check_kind(kind)
    named: dict[str, None] = {}  # in order, without repeats
    for path in paths:
        named.setdefault(os.fspath(path))
    files = [path for path in named if not os.path.isdir(path)]
    checked = dict(zip(files, _check_files(files, kind, limit)))
    outcomes: list[_Outcome] = []
    folders: list[tuple[str, list[_Outcome]]] = []
    for path in named:
        if path in checked:
            outcomes.append(checked[path])
            continue
        found = _walk(path, kind, limit, folders, progress)
        outcomes.extend(found or [_Outcome(path, findings=[_no_artifacts(path, kind)])])
    for _, own in folders:
        outcomes.extend(own)
    walked = {os.path.abspath(folder) for folder, _ in folders}
    outcomes.extend(_named_folders(checked, walked, limit))
    return _report(outcomes, named=named)


# -- one document -------------------------------------------------------------------------


def check_bytes(raw: bytes, *, file: str, filename: str | None, kind: str | None,
                syntax: str | None = None, limit: int = DEFAULT_MAX_BYTES) -> _Outcome:
    """:func:`check_document` within the size bound."""
    if len(raw) > limit:
        return _Outcome(file, findings=[too_large(file, limit)])
    return check_document(raw, file=file, filename=filename, kind=kind, syntax=syntax)


def check_document(raw: bytes, *, file: str, filename: str | None, kind: str | None,
                   syntax: str | None = None, checks: bool = True) -> _Outcome:
    """Load, place, schema-check and rule-check one document; with ``checks`` false, load
    and place it only (a partner the cross-file rules read, whose own findings nobody sees)."""
    placed = _detect.get(kind) if kind else (_detect.by_filename(filename) if filename else None)
    if syntax is None:
        syntax = _syntax(placed, filename, raw)
    loaded, findings = load_bytes(raw, source=file, syntax=syntax)
    outcome = _Outcome(file, findings=findings)
    if loaded is None:
        return outcome
    is_text = loaded.syntax == "text"
    if placed is not None and not kind:
        outcome.skipped = _detect.foreign(placed, loaded.data)
        if outcome.skipped is not None:
            return outcome
    if placed is None:
        placed = _detect.by_content(loaded.data, loaded.text if is_text else None)
        if placed is None:
            outcome.findings.append(Finding(
                file, "$", "detect.unknown_kind", ERROR,
                "cannot tell which Passdown artifact this is", None, _detect.unknown_kind_hint()))
            return outcome
    data, readable, text_lines = loaded.data, True, None
    located: list[tuple[tuple, Finding]] = []
    if is_text and not checks:
        # A partner the cross-file rules read: they parse its text themselves, once for the
        # folder, so no projection is made; its lines are worked out if a finding needs them.
        data, outcome.lines_later = None, True
    elif is_text:
        data, parse_findings, text_lines = _parse_text(placed, loaded.text, file)
        outcome.findings.extend(parse_findings)
        readable = not any(f.code in _UNPARSED for f in parse_findings)
    artifact = Artifact(placed.name, file, data, loaded.text,
                        legacy=placed.is_legacy(filename, data))
    outcome.artifact, outcome.syntax, outcome.text_lines = artifact, loaded.syntax, text_lines
    outcome.kind = placed.name
    if not checks:
        return outcome
    if readable:
        located.extend(_schema_findings(placed, data, file))
    located.extend(run_rules(placed.name, artifact))
    exclusive = _exclusive_codes(placed.name)
    if any(finding.code in exclusive for _, finding in located):
        located = [(parts, finding) for parts, finding in located if finding.code in exclusive]
    outcome.findings.extend(_place_lines(located, outcome))
    return outcome


def _exclusive_codes(kind: str) -> frozenset[str]:
    """The codes of ``kind``'s rules whose findings say the document is not of the kind."""
    from passdown.rules import rules_for

    return frozenset(r.code for r in rules_for(kind) if r.exclusive)


def _syntax(placed, filename: str | None, raw: bytes) -> str:
    if placed is not None:
        return placed.syntax_for(filename, raw)
    if filename:
        return syntax_for(filename)
    return "json" if raw.lstrip()[:1] in (b"{", b"[") else "text"


def _parse_text(kind, text: str, file: str):
    """A text document (the packet) to ``(data, grammar findings, {path: line})``."""
    try:
        parse = _function(kind.parser)
        project = _function(kind.projection) if kind.projection else None
        locate = _function(kind.text_lines) if kind.text_lines else None
    except (ImportError, AttributeError, ValueError):
        return None, [Finding(file, "$", "detect.no_parser", ERROR,
                              f"this Passdown installation cannot read a {kind.title} as text",
                              None, "pass the JSON form of the artifact instead")], None
    try:
        parsed = parse(text)
        data = project(parsed) if project else parsed
        lines = locate(parsed) if locate else None
        problems = [Finding(file, "$", p.code, ERROR, p.message, getattr(p, "requirement", None),
                            getattr(p, "hint", None) or f"see the {kind.title} grammar in the spec",
                            p.line)
                    for p in getattr(parsed, "problems", ())]
    except Exception as error:  # a parser defect must not become a traceback
        return None, [_crashed(file, f"the {kind.title} parser", error, None)], None
    return data, problems, lines


def _function(reference: str | None):
    import importlib

    module_name, _, name = (reference or "").partition(":")
    return getattr(importlib.import_module(module_name), name)


def _schema_findings(kind, data, file: str) -> list[tuple[tuple, Finding]]:
    from passdown.engine._schemas import SchemaMissing, store

    try:
        return store().check(kind.schema, data, file=file)
    except SchemaMissing:
        return [((), Finding(file, "$", "schema.unavailable", ERROR,
                             f"no schema for the {kind.title} is packaged with this installation",
                             None, "reinstall Passdown: its schemas are part of the package"))]


def run_rules(kind: str, target) -> list[tuple[tuple, Finding]]:
    """Run every rule of ``kind`` on ``target``; a rule that raises becomes ``rule.crashed``."""
    from passdown.rules import rules_for

    results: list[tuple[tuple, Finding]] = []
    for rule in rules_for(kind):
        try:
            for hit in rule.check(target):
                parts = tuple(hit.path)
                results.append((parts, Finding(
                    target.file, json_path(parts), rule.code, rule.severity,
                    hit.message or rule.summary, rule.requirement, hit.hint or rule.hint,
                    hit.line)))
        except Exception as error:  # the rule's defect, reported as a finding
            results.append(((), _crashed(target.file, f"the rule {rule.code}", error,
                                         rule.requirement)))
    return results


def _crashed(file, what: str, error: Exception, requirement) -> Finding:
    detail = cut(f"{type(error).__name__}: {error}", 200)
    return Finding(file, "$", "rule.crashed", ERROR, f"{what} failed on this input ({detail})",
                   requirement, "this is a defect in Passdown, not in the file: please report it")


def _place_lines(located, outcome: _Outcome) -> list[Finding]:
    wanted = {parts for parts, finding in located if finding.line is None}
    if not wanted:
        return [finding for _, finding in located]
    lines = outcome.lines(wanted)
    return [finding if finding.line is not None or parts not in lines
            else finding.evolve(line=lines[parts])
            for parts, finding in located]


# -- files and folders --------------------------------------------------------------------


def _check_file(path: str, kind: str | None, limit: int, *, checks: bool = True) -> _Outcome:
    raw, findings = read_bounded(path, limit)
    if raw is None:
        return _Outcome(path, findings=findings)
    return check_document(raw, file=path, filename=os.path.basename(path), kind=kind, checks=checks)


def _walk(top: str, kind: str | None, limit: int, folders, progress=None) -> list[_Outcome]:
    """Check every artifact found by name under ``top``, each handoff folder with its
    cross-file rules; append ``(folder, its own outcomes)`` to ``folders`` for each handoff
    folder found. The walk is bounded in depth and in entries
    (:func:`passdown.formats._files.walk`)."""
    only = _detect.get(kind) if kind else None
    problems: list[_Outcome] = []

    def refused(problem) -> None:
        where = os.fsdecode(problem.path)
        problems.append(_Outcome(where, findings=[Finding(
            where, "$", problem.code, ERROR, problem.reason, problem.requirement, problem.hint)]))

    found: list[tuple[str, str]] = []
    kinds_by_folder: dict[str, frozenset[str]] = {}
    # Folders share one frozenset per combination of kinds: a set per folder (216 bytes) was
    # 4 of the 16 MiB a walk of 10,000 handoff folders held when its worker forked (what this
    # process holds then counts twice: see _run_units).
    shared: dict[frozenset[str], frozenset[str]] = {}
    for folder, names in _files.walk(top, skip=_detect.SKIPPED_DIRS, refused=refused):
        problems.extend(_escaping_links(folder))
        kinds = set()
        for filename in names:
            placed = _detect.by_filename(filename)
            if placed is None or (only is not None and placed is not only):
                continue
            found.append((folder, os.path.join(folder, filename)))
            kinds.add(placed.name)
        if kinds:
            kinds_by_folder[folder] = shared.setdefault(frozenset(kinds), frozenset(kinds))
    units = _units(found, _handoff_groups(kinds_by_folder))
    outcomes: list[_Outcome | None] = [None] * len(found)
    crossed: list[tuple[int, str, list[_Outcome]]] = []
    paths = [path for _, path in found]

    def check(unit):
        checked, handoffs = _check_unit([found[index] for index in unit], kind, limit)
        return [_packed(outcome) for outcome in checked], handoffs

    for unit, (checked, handoffs) in zip(units, _run_units(units, check, paths, kind, progress)):
        for index, outcome in zip(unit, checked):
            # the walk's own string, not a worker's copy of it
            outcomes[index] = _unpacked(outcome, paths[index])
        crossed.extend((unit[0], folder, own) for folder, own in handoffs)
    # The folders in the order of their first file, as one walk over all files finds them.
    first: dict[str, int] = {}
    for index, (folder, _) in enumerate(found):
        first.setdefault(folder, index)
    folders.extend((folder, own) for _, folder, own
                   in sorted(crossed, key=lambda entry: first.get(entry[1], entry[0])))
    return problems + outcomes


def _packed(outcome: _Outcome):
    """What a walk keeps of a checked file until every process is done: its kind alone when
    that is all there is (no findings, not skipped: nearly every file of a large walk), else
    the outcome. Every process holds its answers while the others still work, and a worker
    pickles its own: an outcome object per file (with one pickle of them all) grew a worker
    by 14 MiB at 10,000 handoff folders, and the process tree past 100 MiB."""
    if outcome.findings or outcome.skipped is not None:
        return outcome
    return outcome.kind


def _unpacked(packed, path: str) -> _Outcome:
    """The outcome :func:`_packed` kept, for the file at ``path``."""
    if isinstance(packed, _Outcome):
        packed.file = path
        return packed
    return _Outcome(path, kind=packed)


def _handoff_groups(kinds_by_folder: dict[str, frozenset[str]]) -> dict[str, str]:
    """``{folder: the folder its group is named by}`` for every folder the cross-file rules
    may read, judged by file names before any file is read (a superset of
    :func:`_handoff_folders`' answer: a file found by name is of that kind): a folder with a
    checkpoint (itself, or in its ``xbrief/`` or ``vbrief/`` sub-folder) beside a packet,
    registry or ACK, grouped with those sub-folders (a sub-folder that is such a folder too
    joins the same group)."""
    group: dict[str, str] = {}

    def head(folder: str) -> str:
        while group.setdefault(folder, folder) != folder:
            folder = group[folder]
        return folder

    for folder, kinds in kinds_by_folder.items():
        subs = [os.path.join(folder, sub) for sub in _CHECKPOINT_DIRS]
        has_checkpoint = "checkpoint" in kinds or any(
            "checkpoint" in kinds_by_folder.get(sub, ()) for sub in subs)
        if has_checkpoint and kinds.intersection(_HANDOFF_PARTNERS):
            for sub in subs:
                below, above = head(sub), head(folder)
                if below != above:
                    group[below] = above
    return {folder: head(folder) for folder in group}


def _units(found: list[tuple[str, str]], groups: dict[str, str]) -> list[list[int]]:
    """The walk's work units, as indices into ``found``, in the order of their first file:
    the files of one handoff group together (a worker checks them and their cross-file
    rules itself), every other file alone."""
    units: list[list[int]] = []
    by_group: dict[str, list[int]] = {}
    for index, (folder, _) in enumerate(found):
        name = groups.get(folder)
        if name is None:
            units.append([index])
        elif name in by_group:
            by_group[name].append(index)
        else:
            units.append(by_group.setdefault(name, [index]))
    return units


def _check_unit(files: list[tuple[str, str]], kind: str | None, limit: int):
    """``(outcomes, [(folder, its own outcomes)])`` for one work unit's ``(folder, path)``
    files: each file checked, then the cross-file rules of each handoff folder among them.
    The outcomes keep the findings and kind only: the artifacts' data and text are released
    as the unit ends."""
    outcomes = [_check_file(path, kind, limit) for _, path in files]
    handoffs = []
    if len(files) > 1:
        by_folder: dict[str, list[_Outcome]] = {}
        for (folder, _), outcome in zip(files, outcomes):
            by_folder.setdefault(folder, []).append(outcome)
        handoffs = [(folder, _cross_file(folder, members))
                    for folder, members in _handoff_folders(by_folder)]
    for outcome in outcomes:
        outcome.artifact = outcome.syntax = outcome.text_lines = None
    return outcomes, handoffs


#: From this many files on, a folder walk checks them in worker processes, one per core:
#: below it, starting the workers costs more than they save.
PARALLEL_MIN_FILES = 200
#: Work units a parallel walk hands out in batches of about this share of the whole (per
#: process): small enough that no process waits long for the last, few enough that taking a
#: batch costs nothing beside checking it.
_BATCHES_PER_PROCESS = 32
#: The estimated cost of checking a file, in microseconds: a fixed part, and a part per byte
#: by the syntax it is read in (measured on ``examples/handoff``'s artifacts: YAML costs about
#: three times what JSON does per byte); and of one folder's cross-file rules.
_FILE_COST = 30
_BYTE_COST = {"yaml": 0.15, "json": 0.05, "text": 0.08}
_CROSSFILE_COST = 1000


def _check_files(paths: list[str], kind: str | None, limit: int, progress=None) -> list[_Outcome]:
    """:func:`_check_file` for each named path, in order (large lists shared between this
    process and forked workers). Each outcome keeps the artifact's data and text: the named
    files' handoff folders read them for the cross-file rules."""
    units = [[index] for index in range(len(paths))]

    def check(unit):
        outcome = _check_file(paths[unit[0]], kind, limit)
        artifact = outcome.artifact
        if artifact is not None:  # without what the rules worked out from it
            outcome.artifact = Artifact(artifact.kind, artifact.file, artifact.data,
                                        artifact.text, artifact.legacy)
        return outcome

    return _run_units(units, check, paths, kind, progress)


def _run_units(units: list[list[int]], work, paths: list[str], kind: str | None,
               progress=None) -> list:
    """``[work(unit) for unit in units]``, where each unit lists indices into ``paths``.

    A large walk is shared between this process and forked workers, one process per core,
    balanced by cost, not by position: the units go out in small batches, the costliest
    first (by :func:`_unit_cost`), and each process takes the next batch when it has
    finished its last, so a process slowed by a large file or a busy core simply takes
    fewer. Batches are numbers written to one pipe before the workers start (each read
    takes one); each worker sends back its answers, a pickle per batch, through its own
    pipe. A worker that dies (killed, out of memory) never hangs the walk: the units it had
    not answered are worked here instead. ``progress(done, total)`` is told the files done so
    far (with workers, this process's count times their number: it is an estimate)."""
    workers = min(os.cpu_count() or 1, 8)
    total = len(paths)
    tell = progress or (lambda done, total: None)
    if total < PARALLEL_MIN_FILES or workers < 2 or not hasattr(os, "fork"):
        results, done = [], 0
        for unit in units:
            results.append(work(unit))
            done += len(unit)
            tell(done, total)
        return results
    import gc

    from passdown.engine import _schemas
    from passdown.rules import all_rules

    # Everything the workers share is built once, before they fork: every rule module, and
    # the compiled validators of the kinds these files are named as.
    all_rules()
    schemas = _schemas.store()
    for name in {placed.schema for placed in (_kind_of(path, kind) for path in paths) if placed}:
        schemas.prepare(name)
    batches = _batches(units, paths, workers)
    results: list = [_MISSING] * len(units)
    queue, children = _batch_queue(len(batches)), []
    # Every page this process holds when a worker forks counts in the worker's resident set
    # too (shared until written), so what the walk keeps until then, and what each process
    # adds while they all work, is kept small (see _walk, _packed, _fork_worker).
    gc.freeze()  # the workers never touch the objects made so far: no copy-on-write for them
    try:
        for _ in range(1, workers):
            child = _fork_worker(queue, batches, units, work)
            if child is not None:
                children.append(child)
        done = 0
        for batch in _taken(queue):
            for number in batches[batch]:
                results[number] = work(units[number])
                done += len(units[number])
            tell(min(total, done * (len(children) + 1)), total)
        while children:
            pid, reader = children.pop(0)
            for number, result in _received(pid, reader) or ():
                results[number] = result
    finally:
        gc.unfreeze()
        os.close(queue)
        for pid, reader in children:  # interrupted: the workers' answers are not wanted
            import signal

            os.kill(pid, signal.SIGKILL)
            os.close(reader)
            os.waitpid(pid, 0)
    for number, result in enumerate(results):
        if result is _MISSING:
            results[number] = work(units[number])
    tell(total, total)
    return results


_MISSING = object()


def _unit_cost(unit: list[int], paths: list[str]) -> float:
    """The estimated cost of a unit (see :data:`_FILE_COST`): its files by size and syntax,
    and the cross-file rules when it holds several files."""
    cost = _CROSSFILE_COST if len(unit) > 1 else 0
    for index in unit:
        path = paths[index]
        try:
            size = os.stat(path).st_size
        except OSError:
            size = 0
        cost += _FILE_COST + size * _BYTE_COST[syntax_for(path)]
    return cost


def _batches(units: list[list[int]], paths: list[str], processes: int) -> list[list[int]]:
    """The unit numbers in batches of about equal cost, the costliest units first."""
    costs = [_unit_cost(unit, paths) for unit in units]
    order = sorted(range(len(units)), key=costs.__getitem__, reverse=True)
    share = sum(costs) / (_BATCHES_PER_PROCESS * processes)
    batches: list[list[int]] = []
    current: list[int] = []
    spent = 0.0
    for number in order:
        current.append(number)
        spent += costs[number]
        if spent >= share:
            batches.append(current)
            current, spent = [], 0.0
    if current:
        batches.append(current)
    return batches


#: Bytes of one batch number in the queue.
_NUMBER = 4


def _batch_queue(count: int) -> int:
    """The read end of a pipe holding the batch numbers ``0 .. count - 1`` (written whole
    before any worker starts: a few hundred numbers fit any pipe's buffer), its write end
    closed, so a read past the last number ends."""
    reader, writer = os.pipe()
    try:
        data = b"".join(number.to_bytes(_NUMBER, "little") for number in range(count))
        while data:
            data = data[os.write(writer, data):]
    finally:
        os.close(writer)
    return reader


def _taken(queue: int):
    """The batch numbers this process takes from the queue, one read at a time, until it
    is empty (each number is taken by exactly one process)."""
    while True:
        got = os.read(queue, _NUMBER)
        while got and len(got) < _NUMBER:  # never seen: a number is written and read whole
            more = os.read(queue, _NUMBER - len(got))
            if not more:
                return
            got += more
        if not got:
            return
        yield int.from_bytes(got, "little")


def _kind_of(path: str, kind: str | None):
    return _detect.get(kind) if kind else _detect.by_filename(os.path.basename(path))


def _fork_worker(queue: int, batches, units, work):
    """Fork a worker that takes batches from ``queue`` until it is empty and writes
    ``[(unit number, work(unit))]`` to a pipe, one pickle per batch; ``(pid, read end)``,
    or None when no process can be started (the others then take its share)."""
    import pickle

    reader, writer = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the worker: whatever happens, it ends here, without the parent's clean-up
        status = 1
        try:
            os.close(reader)
            # One pickle per batch, made as the batch ends: the answers stay as compact bytes,
            # and no pickle of all of them (whose memo and buffer held as much again) is made.
            # They are written at the end: the pipe would fill while this process still works.
            sent = [pickle.dumps([(number, work(units[number])) for number in batches[batch]],
                                 pickle.HIGHEST_PROTOCOL) for batch in _taken(queue)]
            with os.fdopen(writer, "wb") as pipe:
                pipe.writelines(sent)
            status = 0
        finally:
            os._exit(status)
    os.close(writer)
    return pid, reader


def _received(pid: int, reader: int) -> list | None:
    """A worker's answers, or None when it died before sending them all."""
    import pickle

    answers: list | None = []
    with os.fdopen(reader, "rb") as pipe:
        try:  # unpickled as read: the worker's bytes are never held whole
            while True:
                answers.extend(pickle.load(pipe))
        except EOFError:  # the end (or a truncated message: the exit status tells)
            pass
        except Exception:  # a damaged message: its units are worked here
            answers = None
            while pipe.read(1 << 16):  # the worker may still be writing: let it end
                pass
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return answers


def _handoff_folders(by_folder: dict[str, list[_Outcome]]):
    """``(folder, artifacts)`` for every folder holding a checkpoint (itself, or in its
    ``xbrief/`` or ``vbrief/`` sub-folder) beside a packet, registry or ACK."""
    for folder, members in by_folder.items():
        nearby = list(members)
        for sub in _CHECKPOINT_DIRS:
            nearby.extend(o for o in by_folder.get(os.path.join(folder, sub), ())
                          if o.artifact is not None and o.artifact.kind == "checkpoint")
        kinds = {o.artifact.kind for o in nearby if o.artifact is not None}
        if "checkpoint" in kinds and kinds.intersection(_HANDOFF_PARTNERS):
            yield folder, nearby


def _named_folders(checked: dict[str, _Outcome], walked: set[str], limit: int) -> list[_Outcome]:
    """The cross-file rules of every handoff folder a named file belongs to (its own folder,
    or the folder above the ``xbrief/`` or ``vbrief/`` folder of a checkpoint), unless a
    folder walk covered it. The folder's other artifacts are read for these rules only: of
    a file that was not named, only the cross-file findings (and a loading problem, which
    stops the rules from seeing it) are reported."""
    candidates: dict[str, str] = {}  # absolute folder -> the folder as the caller named it
    for path, outcome in checked.items():
        if outcome.artifact is None:
            continue
        folder = os.path.dirname(path) or "."
        candidates.setdefault(os.path.abspath(folder), folder)
        if os.path.basename(os.path.abspath(folder)) in _CHECKPOINT_DIRS:
            above = os.path.normpath(os.path.join(folder, os.pardir))
            candidates.setdefault(os.path.abspath(above), above)
    known = {os.path.abspath(path): outcome for path, outcome in checked.items()}
    reported: list[_Outcome] = []
    for absolute, folder in candidates.items():
        if absolute in walked:
            continue
        by_folder: dict[str, list[_Outcome]] = {}
        partners: list[_Outcome] = []
        escapes = _escaping_links(folder)
        reported.extend(escapes)
        escaped = {outcome.file for outcome in escapes}
        for place in (folder, *(os.path.join(folder, sub) for sub in _CHECKPOINT_DIRS)):
            if place in escaped:
                continue  # never read through it
            for path in _artifact_files(place):
                outcome = known.get(os.path.abspath(path))
                if outcome is None:
                    # read for the cross-file rules only: its own checks would be dropped
                    outcome = known[os.path.abspath(path)] = _check_file(path, None, limit, checks=False)
                    partners.append(outcome)
                by_folder.setdefault(place, []).append(outcome)
        marks = {id(outcome): len(outcome.findings) for outcome in partners}
        for found_folder, members in _handoff_folders(by_folder):
            if found_folder != folder:
                continue
            walked.add(absolute)
            reported.extend(_cross_file(found_folder, members))
            for outcome in partners:
                own = [f for f in outcome.findings[:marks[id(outcome)]] if f.code.startswith("load.")]
                added = outcome.findings[marks[id(outcome)]:] + own
                if added:
                    reported.append(_Outcome(outcome.file, findings=added))
    return reported


def _escaping_links(folder: str) -> list[_Outcome]:
    """A ``load.link_escape`` outcome for each checkpoint folder (``xbrief/``, ``vbrief/``) of
    ``folder`` that is a symbolic link leading out of ``folder`` (INP-020): it is never
    followed, so the checkpoint it would hold is not checked and the folder is not clean."""
    found = []
    for sub in _CHECKPOINT_DIRS:
        path = os.path.join(folder, sub)
        if not os.path.islink(path):
            continue
        real, home = os.path.realpath(path), os.path.realpath(folder)
        if real == home or real.startswith(home.rstrip(os.sep) + os.sep):
            continue
        found.append(_Outcome(path, findings=[Finding(
            path, "$", "load.link_escape", ERROR,
            f"{sub}/ is a symbolic link leading out of {folder} (to {real}); it is not followed, "
            "so the checkpoint in it is not checked", "INP-020",
            f"keep the checkpoint inside the handoff folder: replace the link by the folder "
            f"itself ({sub}/continue.{sub}.json)")]))
    return found


def _artifact_files(folder: str) -> list[str]:
    """The artifact files directly in ``folder`` (found by name), sorted; none if unreadable."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(folder, name) for name in names
            if _detect.by_filename(name) is not None and os.path.isfile(os.path.join(folder, name))]


def _cross_file(folder: str, members: list[_Outcome]) -> list[_Outcome]:
    """Run the cross-file rules on one handoff folder. A finding that names an artifact
    joins that file's outcome; the others form the folder's own."""
    artifacts: dict[str, Artifact] = {}
    outcome_of: dict[str, _Outcome] = {}
    for outcome in members:  # first of a kind wins: the walk sees canonical names in order
        if outcome.artifact is not None and outcome.artifact.kind not in artifacts:
            artifacts[outcome.artifact.kind] = outcome.artifact
            outcome_of[outcome.artifact.kind] = outcome
    folder_outcome = _Outcome(folder)
    for parts, finding in run_rules("crossfile", Crossfile(folder, artifacts)):
        target = artifacts.get(parts[0]) if parts and isinstance(parts[0], str) else None
        if target is None:
            folder_outcome.findings.append(finding)
            continue
        rest, owner = parts[1:], outcome_of[target.kind]
        finding = finding.evolve(file=target.file, json_path=json_path(rest))
        if finding.line is None:
            finding = finding.evolve(line=owner.lines([rest]).get(rest))
        owner.findings.append(finding)
    return [folder_outcome] if folder_outcome.findings else []


def _no_artifacts(path: str, kind: str | None) -> Finding:
    what = f"no {_detect.get(kind).title} file" if kind else "no Passdown artifact"
    return Finding(path, "$", "detect.no_artifacts", ERROR, f"this folder holds {what}",
                   None, f"artifacts are found by name ({_detect.artifact_names()}); "
                         "or name a file directly")


# -- the report ---------------------------------------------------------------------------


def _report(outcomes: list[_Outcome], *, named) -> Report:
    findings: list[Finding] = []
    files: dict[str, None] = {}
    kinds: list[tuple[str, str]] = []
    unreadable: list[str] = []
    skipped: list[tuple[str, str]] = []
    for outcome in outcomes:
        if outcome.skipped is not None:
            skipped.append((outcome.file, outcome.skipped))
        if outcome.kind is not None or outcome.findings:
            files.setdefault(outcome.file)
        if outcome.kind is not None:
            kinds.append((outcome.file, outcome.kind))
        findings.extend(sorted(outcome.findings, key=_order))
        if outcome.file in named and any(f.code.startswith("load.") for f in outcome.findings):
            unreadable.append(outcome.file)
    return Report(_unique(tuple(findings)), tuple(files), tuple(kinds), tuple(unreadable),
                  tuple(skipped))


def _order(finding: Finding):
    return (finding.line or 0, finding.json_path, finding.code, finding.message)


def _unique(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    seen: set = set()
    result = []
    for finding in findings:
        key = (finding, finding.line)
        if key not in seen:
            seen.add(key)
            result.append(finding)
    return tuple(result)


def _check_kind(kind: str | None) -> None:
    if kind is not None and kind not in _detect.kind_names():
        raise UsageError(f"unknown artifact kind {kind!r}",
                         hint=f"use one of: {', '.join(_detect.kind_names())}")
