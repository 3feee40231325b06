"""Writes (``--write``) or checks the conformance fixtures of the restart, title, recovery,
handoff and observe gates, and the relaunch and lifecycle gates' values files: ``python tests/gate_fixtures.py --write``.

The cases live in the ``gates1_fixtures_*`` modules beside this one; expected answers come
from the reference notes' oracles (restart, title; where a published helper crashes, the
deliberate answer the spec states) or are stated by hand from the spec (recovery, handoff),
never from the gates under test.
"""

import json
import sys
from pathlib import Path

from passdown._text import printable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

CASES = HERE.parents[1] / "conformance" / "cases"


def documents():
    """``{relative path: fixture document}`` for every file these builders own."""
    import gate_fixtures_handoff
    import gate_fixtures_lifecycle
    import gate_fixtures_observe
    import gate_fixtures_recovery
    import gate_fixtures_relaunch
    import gate_fixtures_restart

    built = {}
    for gate, files in (
        ("restart", gate_fixtures_restart.restart_files()),
        ("title", gate_fixtures_restart.title_files()),
        ("recovery", gate_fixtures_recovery.recovery_files()),
        ("handoff", gate_fixtures_handoff.handoff_files()),
        ("relaunch", gate_fixtures_relaunch.relaunch_files()),
        ("lifecycle", gate_fixtures_lifecycle.lifecycle_files()),
        ("observe", gate_fixtures_observe.observe_files()),
    ):
        for topic, document in files.items():
            built[f"{gate}/{topic}.json"] = document
    return built


def render(document):
    """The fixture file's text: UTF-8, stamped with the gate's version, with lone surrogates
    (which UTF-8 cannot hold) as ``\\uXXXX`` escapes; a raw surrogate can only stand inside a
    JSON string."""
    from passdown.conformance.versions import stamp_document

    return printable(json.dumps(stamp_document(document), indent=2, ensure_ascii=False)) + "\n"


def main(argv):
    stale = []
    for relative, document in documents().items():
        path = CASES / relative
        text = render(document)
        if "--write" in argv:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        elif not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(relative)
    for relative in stale:
        print(f"stale: conformance/cases/{relative}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
