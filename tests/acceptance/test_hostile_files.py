"""Every file a command reads, replaced by something that is not a regular file: a FIFO
nobody writes to, a link to ``/dev/zero`` (endless bytes) or to ``/dev/null``, a loop of
symbolic links, a directory. Each command answers with its documented code and exit status
(spec/input-safety.md, INP-011), and:

- never hangs: each run has a deadline (a subprocess timeout, used as a hang detector only,
  not as a speed claim);
- never reads without bound: each run is limited to 2 GiB of address space, so reading
  ``/dev/zero`` to its end would fail with a traceback instead of passing;
- writes nothing outside its folder: every file beside the project is compared before and
  after, and the project holds no temporary file afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from authoring_support import IDENTITY, POLICY
from xbrief_legacy import LEGACY

from passdown.authoring import SourceFacts, init, render_packet

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"),
                                reason="needs FIFOs and /dev/zero (a POSIX system)")

ROOT = Path(__file__).resolve().parents[2]
#: Far longer than any of these runs takes; only a blocked read comes near it.
DEADLINE = 60
#: Room for the interpreter and its libraries, far below what reading /dev/zero would take.
ADDRESS_SPACE = 2 << 30

C = "xbrief/continue.xbrief.json"
R = "registry.yaml"
P = "continuation.packet.txt"
A = "ack.json"
LIST = "continue.digest"
GATE_INPUT = "gate-input.json"
LEGACY_FILE = "legacy/vbrief/continue.vbrief.json"
FIXTURE = "suite/title/extra.json"
XFAILS = "expected-failures.txt"


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _link_to(target: str):
    def make(path: Path) -> None:
        os.symlink(target, path)
    return make


def _loop(path: Path) -> None:
    os.symlink(path.name, path)


def _directory(path: Path) -> None:
    path.mkdir()


#: What replaces the file, and the code a reader answers it with (INP-011).
HOSTILE = {
    "fifo": (_fifo, "load.not_regular"),
    "dev_zero_link": (_link_to("/dev/zero"), "load.not_regular"),
    "dev_null_link": (_link_to("/dev/null"), "load.not_regular"),
    "link_loop": (_loop, "load.symlink_loop"),
    "directory": (_directory, "load.unreadable"),
}
#: A directory named where an option takes a file (click's ``dir_okay=False``): a usage error.
CLICK_DIRECTORY = ("usage", 2)
#: The registry's checkpoint path read through a link that leaves the folder is refused
#: before the file is opened (REG-027).
ESCAPING_CHECKPOINT = {"dev_zero_link": ("registry.path_escape", 2),
                       "dev_null_link": ("registry.path_escape", 2)}
#: A lock is Passdown's own file, never followed: any link is ``load.not_regular``.
LOCK = {"link_loop": ("load.not_regular", 2)}


@dataclass(frozen=True)
class Read:
    """One command and one file it reads. ``answers`` overrides the usual answer
    (``(HOSTILE code, 2)``) per kind: ``(code, exit status)``, ``None`` for a kind that does
    not apply (a walk ignores a directory named like a file)."""

    args: tuple[str, ...]
    file: str
    answers: tuple = ()

    def expected(self, kind: str):
        overrides = dict(self.answers)
        if kind in overrides:
            return overrides[kind]
        return HOSTILE[kind][1], 2

    @property
    def id(self) -> str:
        return f"{' '.join(self.args[:2])}:{self.file}"


def lock_of(name: str) -> str:
    """Where Passdown keeps the lock of ``name``: ``.passdown/<file>.lock`` beside it."""
    folder, _, file = name.rpartition("/")
    return f"{folder + '/' if folder else ''}.passdown/{file}.lock"


def _reads(args, files, **answers):
    return [Read(tuple(args), file, tuple(answers.get(file, {}).items())) for file in files]


CHECKPOINT_CHANGES = [
    ("add-completed", "Done", "--evidence", "e"),
    ("add-pending", "Another step"),
    ("reorder", "extract-the-parser-into-ledger-parsing-csv-py"),
    ("set-resume", "Start here"),
    ("decision", "Keep it"),
    ("hazard", "Watch out"),
    ("blocker", "Waiting"),
    ("failed-attempt", "Tried", "--reason", "failed"),
    ("set", "mission", "New mission"),
    ("reopen",),
]
ATTEMPT_STEPS = [
    ("created", "RID", "--unknown"),
    ("reconcile", "RID", "--absent"),
    ("commit", "RID"),
    ("takeover", "RID", "--target-id", "t", "--fencing-epoch", "1"),
    ("release", "RID"),
    ("archive", "RID", "--result", "pending"),
    ("abandon", "RID", "--note", "n"),
]
NOT_IN_A_WALK = {"directory": None}  # a directory named like an artifact is not one
OUTPUT = {  # the packet render writes: what stands at the name is replaced atomically
    "fifo": ("written", 0), "dev_zero_link": ("written", 0), "dev_null_link": ("written", 0),
    "link_loop": ("authoring.io_error", 2), "directory": ("authoring.io_error", 2)}

READS = [
    *_reads(["validate", C], [C], **{C: {"directory": ("detect.no_artifacts", 1)}}),  # walked
    *_reads(["validate", "."], [C, R, P, A], **{f: {**{k: (c, 1) for k, (_, c) in HOSTILE.items()},
                                                   **NOT_IN_A_WALK} for f in (C, R, P, A)}),
    *_reads(["digest", C], [C], **{C: {"directory": CLICK_DIRECTORY}}),
    *_reads(["digest", "--canonical", C], [C], **{C: {"directory": CLICK_DIRECTORY}}),
    *_reads(["digest", "--kind", "raw", "--canonical", C], [C],
            **{C: {"directory": CLICK_DIRECTORY}}),
    *_reads(["digest", "--check", LIST], [LIST, C],
            **{LIST: {"directory": CLICK_DIRECTORY},
               C: {k: (c, 1) for k, (_, c) in HOSTILE.items()}}),
    *_reads(["digest", "--record", R, P, "--restart-id", "RID", "--checkpoint", C], [R, P, C],
            **{f: {"directory": CLICK_DIRECTORY} for f in (R, P, C)}),
    *[read for change in CHECKPOINT_CHANGES
      for read in _reads(["checkpoint", *change, "--checkpoint", C], [C],
                         **{C: {"directory": CLICK_DIRECTORY}})],
    *_reads(["checkpoint", "decision", "Locked", "--checkpoint", C], [lock_of(C)],
            **{lock_of(C): LOCK}),
    *_reads(["checkpoint", "show", "--checkpoint", C], [C], **{C: {"directory": CLICK_DIRECTORY}}),
    *_reads(["consume", "--checkpoint", C], [C, lock_of(C)],
            **{C: {"directory": CLICK_DIRECTORY}, lock_of(C): LOCK}),
    *_reads(["packet", "render", "--source-id", "sess-a"], [C, R, P, lock_of(R)],
            **{P: OUTPUT, lock_of(R): LOCK}),
    *[read for step in ATTEMPT_STEPS for read in _reads(["attempt", *step], [R])],
    *_reads(["attempt", "created", "RID", "--unknown"], [lock_of(R)], **{lock_of(R): LOCK}),
    *_reads(["attempt", "show"], [R]),
    *_reads(["attempt", "ack", "RID", A, "--workspace", "WORKSPACE"], [A, P, C],
            **{A: {"directory": CLICK_DIRECTORY}, C: ESCAPING_CHECKPOINT}),
    *_reads(["ack", "verify", A, "--packet", P, "--registry", R, "--checkpoint", C], [A, P, R, C],
            **{f: {"directory": CLICK_DIRECTORY} for f in (A, P, R, C)}),
    *_reads(["migrate", "legacy", "--goal-id", "g", "--main-id", "m", "--outcome", "o"],
            [LEGACY_FILE]),
    *_reads(["init", "--goal-id", "g", "--main-id", "m", "--outcome", "o", "--next", "n"], [C, R],
            **{f: {k: ("authoring.exists", 1) for k in HOSTILE} for f in (C, R)}),
    *[read for gate in ("restart", "validate", "digest", "guard")
      for read in _reads(["gate", gate, GATE_INPUT], [GATE_INPUT])],
    *_reads(["conformance", "run", "--suite", "suite", "--gate", "title"], [FIXTURE],
            **{FIXTURE: NOT_IN_A_WALK}),
    *_reads(["conformance", "run", "--gate", "title", "--expected-failures", XFAILS], [XFAILS],
            **{XFAILS: {"directory": CLICK_DIRECTORY}}),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> tuple[Path, str]:
    """Built once: a handoff with every file the commands read, in ``project``, beside an
    ``outside`` folder and a git ``workspace``; each test works on its own copy."""
    base = tmp_path_factory.mktemp("hostile")
    (base / "outside").mkdir()
    (base / "outside" / "keep.txt").write_text("untouched\n")
    subprocess.run(["git", "init", "-q", str(base / "workspace")], check=True, capture_output=True)
    project = base / "project"
    init(project, IDENTITY, POLICY)
    restart_id = render_packet(project, source=SourceFacts(source_id="sess-a")).result["restart_id"]
    (project / A).write_text(json.dumps({
        "passdown_version": "1.0", "kind": "ack", "status": "READY_READONLY", "goal_id": "goal-parser",
        "restart_id": restart_id, "source_id": "sess-a", "target_id": "sess-b"}))
    (project / LIST).write_text(_passdown(["digest", C], project).stdout)
    (project / GATE_INPUT).write_text("{}")
    (project / "legacy" / "vbrief").mkdir(parents=True)
    (project / LEGACY_FILE).write_text(json.dumps(LEGACY["0.5"][1], indent=2))
    shutil.copytree(ROOT / "conformance" / "cases" / "title", project / "suite" / "title")
    (project / FIXTURE).write_text("{}")
    (project / XFAILS).write_text("title.nothing.* not implemented\n")
    return base, restart_id


#: The command, run under the address-space limit it sets on itself (a ``preexec_fn`` would
#: make every run fork the whole test process).
LAUNCH = ("import resource, sys\n"
          f"resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))\n"
          "from passdown._entry import main\n"
          "sys.exit(main(sys.argv[1:]))\n")


def _passdown(args, cwd: Path):
    return subprocess.run([sys.executable, "-c", LAUNCH, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=DEADLINE, stdin=subprocess.DEVNULL)


def _replace(path: Path, kind: str) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    HOSTILE[kind][0](path)


def _snapshot(tmp_path: Path, project: Path) -> dict:
    """Every entry outside the project: its kind and, for files, its bytes."""
    found = {}
    for folder, dirs, names in os.walk(tmp_path):
        if Path(folder) == tmp_path:
            dirs[:] = [d for d in dirs if d != project.name]
        if Path(folder).name == "workspace":
            dirs[:] = [d for d in dirs if d != ".git"]  # git's own index refresh, not Passdown's
        for name in dirs + names:
            path = Path(folder, name)
            found[path] = path.read_bytes() if path.is_file() and not path.is_symlink() else \
                os.lstat(path).st_mode
    return found


def _kind_of(path: Path):
    mode = os.lstat(path).st_mode
    return mode & 0o170000


CASES = [pytest.param(read, kind, id=f"{read.id}:{kind}")
         for read in READS for kind in HOSTILE if read.expected(kind) is not None]


@pytest.mark.parametrize(("read", "kind"), CASES)
def test_a_file_that_is_not_a_regular_file(template, tmp_path, read, kind):
    base, restart_id = template
    shutil.copytree(base, tmp_path, symlinks=True, dirs_exist_ok=True)
    project = tmp_path / "project"
    target = project / read.file
    _replace(target, kind)
    kind_before = _kind_of(target)
    outside = _snapshot(tmp_path, project)
    args = [arg.replace("RID", restart_id).replace("WORKSPACE", str(tmp_path / "workspace"))
            for arg in read.args]

    result = _passdown(args, project)  # raises TimeoutExpired if the command blocks

    said = result.stdout + result.stderr
    assert "Traceback" not in said, said
    code, status = read.expected(kind)
    assert result.returncode == status, said
    if code == "usage":
        assert "is a directory" in said, said
    elif code == "written":  # an output name: replaced by the packet, never written through
        assert target.is_file() and not target.is_symlink()
        assert target.read_text().startswith("GOAL_ID:")
    else:
        assert code in said, said
        assert _kind_of(target) == kind_before  # left as it was
    assert _snapshot(tmp_path, project) == outside
    leftovers = [name for _, _, names in os.walk(project) for name in names
                 if name.endswith(".tmp")]
    assert not leftovers  # no temporary file of a write that stopped half way
