"""The example adapters shipped with the suite: where they are (the checkout's
``conformance/adapters``, or ``passdown/_data/conformance/adapters`` in an installed package)
and the exact commands that run them, for ``passdown conformance adapters``."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

#: name -> (file under adapters/, interpreter, what it is)
_SHIPPED = {
    "python": ("python/passdown_adapter.py", ("python3",),
               "plain Python 3.11 or later, standard library only; implements restart 2.2.1 and title 1.0.0"),
    "node": ("node/adapter.mjs", ("node",),
             "Node.js 18 or later, no dependencies; implements restart 2.2.1 and title 1.0.0"),
}
_GATES = ("restart", "title")


@dataclass(frozen=True)
class ShippedAdapter:
    name: str
    path: Path
    interpreter: tuple[str, ...]
    summary: str

    @property
    def argv(self) -> list[str]:
        return [*self.interpreter, str(self.path)]

    def _command(self, option: str) -> str:
        gates = " ".join(f"--gate {gate}" for gate in _GATES)
        return f"passdown conformance run {option} {shlex.quote(shlex.join(self.argv))} {gates}"

    @property
    def harness_command(self) -> str:
        return self._command("--harness")

    @property
    def program_command(self) -> str:
        return self._command("--program")

    def to_json(self) -> dict:
        return {"name": self.name, "path": str(self.path), "argv": self.argv, "summary": self.summary,
                "gates": list(_GATES), "harness_command": self.harness_command,
                "program_command": self.program_command}


def folder() -> Path:
    from passdown._resources import data_dir

    return data_dir("conformance") / "adapters"


def shipped() -> list[ShippedAdapter]:
    root = folder()
    return [ShippedAdapter(name, root / relative, interpreter, summary)
            for name, (relative, interpreter, summary) in _SHIPPED.items()]
