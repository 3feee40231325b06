"""Hand-broken files meet every authoring command: any member of a valid checkpoint or
registry replaced by any JSON value gives a result or a coded error, never a traceback, and
a refused command leaves the file as it was."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from authoring_support import IDENTITY, POLICY, members, replaced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passdown.errors import PassdownError
from passdown.authoring import (
    SourceFacts, attempt_step, init, render_packet, update_checkpoint,
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**20) | st.floats(allow_nan=False,
                                                                    allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8)

CHECKPOINT_CALLS = [
    ("add-completed", ("Extract the parser into ledger/parsing/csv.py",), {"evidence": ("e",)}),
    ("add-completed", ("New done step",), {"evidence": ("e",)}),
    ("add-pending", ("Another step",), {}),
    ("add-pending", ("Child",), {"parent": "extract-the-parser-into-ledger-parsing-csv-py"}),
    ("reorder", (("extract-the-parser-into-ledger-parsing-csv-py",),), {}),
    ("set-resume", ("Start here",), {}),
    ("decision", ("Keep it",), {}),
    ("hazard", ("Watch out",), {}),
    ("blocker", ("Waiting",), {}),
    ("failed-attempt", ("Tried",), {"reason": "failed"}),
    ("set", ("mission", "New mission"), {}),
    ("set", ("title", "New title"), {}),
    ("consume", (), {}),
    ("reopen", (), {}),
]


def broken(document, data, keep):
    """``document`` with one member (not one of ``keep``) replaced by arbitrary JSON."""
    candidates = [p for p in members(document) if p and p not in keep]
    path = data.draw(st.sampled_from(candidates), label="path")
    return replaced(document, path, data.draw(JSON, label="value"))


def attempt_or_error(call, target: Path):
    before = target.read_bytes()
    try:
        call()
    except PassdownError as error:
        assert error.code and isinstance(error.exit_code, int)
        assert target.read_bytes() == before, error.code


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_checkpoint_commands_on_broken_checkpoints(data):
    with tempfile.TemporaryDirectory() as folder:
        init(folder, IDENTITY, POLICY)
        path = Path(folder) / "xbrief" / "continue.xbrief.json"
        document = broken(json.loads(path.read_text()), data,
                          keep={("x-passdown/checkpoint",), ("x-passdown/checkpoint", "revision")})
        path.write_text(json.dumps(document))
        operation, args, kwargs = data.draw(st.sampled_from(CHECKPOINT_CALLS), label="call")
        attempt_or_error(lambda: update_checkpoint(path, operation, *args, **kwargs), path)
        attempt_or_error(lambda: render_packet(folder, source=SourceFacts(source_id="sess-a")),
                         path)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_attempt_steps_on_broken_registries(data):
    with tempfile.TemporaryDirectory() as folder:
        init(folder, IDENTITY, POLICY, registry_format="json")
        restart_id = render_packet(folder, source=SourceFacts(source_id="sess-a")).result[
            "restart_id"]
        path = Path(folder) / "registry.json"
        attempt_step(path, "created", restart_id, target_id="sess-b")
        document = broken(json.loads(path.read_text()), data, keep={("revision",)})
        path.write_text(json.dumps(document))
        step, kwargs = data.draw(st.sampled_from([
            ("created", {"target_id": "sess-b"}), ("created", {"unknown": True}),
            ("reconcile", {"absent": True}), ("commit", {}), ("release", {}),
            ("takeover", {"target_id": "sess-b", "fencing_epoch": 1}),
            ("archive", {"result": "pending"}), ("abandon", {"note": "n"}),
        ]), label="step")
        attempt_or_error(lambda: attempt_step(path, step, restart_id, **kwargs), path)
        attempt_or_error(lambda: render_packet(folder, source=SourceFacts(source_id="sess-a")),
                         path)
