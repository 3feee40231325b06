"""The package's layers: every import points down, and no modules import each other in a
circle when they load.

The layers are the folders of ``validator/passdown/``, bottom up, as CONTRIBUTING lists them.
Folders on one rung are peers and do not import each other. The root holds the base modules
(errors, findings, resources, the lazy loader) and, on top of everything, the front door
(``passdown/__init__`` with the public names, ``__main__`` and ``_entry``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "validator" / "passdown"

#: Bottom up; the folders on one rung are peers.
RUNGS = (
    ("(base)",),
    ("formats",),
    ("workspace",),
    ("rules",),
    ("engine",),
    ("gates",),
    ("authoring",),
    ("reporters", "conformance"),
    ("hosts", "mcp"),
    ("cli",),
    ("(front door)",),
)
FRONT_DOOR = {"passdown", "passdown.__main__", "passdown._entry", "passdown._fast_paths"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> str:
    if module in FRONT_DOOR:
        return "(front door)"
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()):
        return parts[1]
    return "(base)"


def rung(module: str) -> int:
    name = layer(module)
    return next(index for index, folders in enumerate(RUNGS) if name in folders)


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(module: str, node: ast.AST, at_load: bool):
    """(imported module, line, runs at load time) for every import under ``node``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _imports(module, child, False)
        elif _is_type_checking(child):
            yield from _imports(module, child, False)
        elif isinstance(child, ast.Import):
            for alias in child.names:
                yield alias.name, child.lineno, at_load
        elif isinstance(child, ast.ImportFrom):
            if child.level:
                base = module.split(".")
                if MODULES[module].name != "__init__.py":
                    base = base[:-1]
                base = base[: len(base) - (child.level - 1)]
                target = ".".join(base + ([child.module] if child.module else []))
            else:
                target = child.module
            for alias in child.names:  # ``from package import submodule`` names the submodule
                submodule = f"{target}.{alias.name}"
                yield (submodule if submodule in MODULES else target), child.lineno, at_load
        else:
            yield from _imports(module, child, at_load)


def _package_imports():
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target, line, at_load in _imports(module, tree, True):
            if target == "passdown" or target.startswith("passdown."):
                yield module, target, line, at_load


IMPORTS = list(_package_imports())


def test_the_layers_name_every_package_folder():
    folders = {path.name for path in PACKAGE.iterdir()
               if path.is_dir() and (path / "__init__.py").is_file()}
    listed = {name for folders_ in RUNGS for name in folders_ if not name.startswith("(")}
    assert folders == listed


def test_contributing_lists_every_package_folder_in_layer_order():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    layout = text.split("validator/passdown/", 1)[1].split("\nconformance/", 1)[0]
    listed = [line.split("/")[0].strip() for line in layout.splitlines()
              if line.startswith("  ") and line.split()[0].endswith("/")]
    assert listed == [name for folders in RUNGS for name in folders if not name.startswith("(")]


def test_the_walk_sees_imports_inside_functions():
    """The walk is not blind to deferred imports: the front door imports the CLI in a function."""
    assert ("passdown._entry", "passdown.cli", False) in {
        (module, target, at_load) for module, target, _, at_load in IMPORTS}


def test_no_module_imports_from_a_layer_above_or_beside_it():
    wrong = [f"{module} ({layer(module)}) imports {target} ({layer(target)}) at line {line}"
             for module, target, line, _ in IMPORTS
             if target in MODULES and layer(target) != layer(module)
             and rung(target) >= rung(module)]
    assert wrong == []


FRONT_ENDS = ("cli", "mcp", "hosts")


def test_front_ends_use_the_authoring_api_not_its_private_modules():
    """The command line, the MCP server and the hooks call ``passdown.authoring``'s public names
    (its ``__all__``), so the authoring modules can change behind one surface."""
    private = [f"{module} imports {target} at line {line}"
               for module, target, line, _ in IMPORTS
               if layer(module) in FRONT_ENDS and target.startswith("passdown.authoring._")]
    assert private == []


def test_the_authoring_api_names_resolve():
    import passdown.authoring

    assert all(getattr(passdown.authoring, name) is not None for name in passdown.authoring.__all__)


@pytest.mark.parametrize(("module", "target", "verdict"), [
    ("passdown.rules.registry", "passdown.gates.title", "up"),
    ("passdown.conformance._compare", "passdown.reporters", "beside"),
    ("passdown.cli._validate", "passdown", "up"),
    ("passdown.rules.checkpoint", "passdown.engine._schemas", "up"),
    ("passdown.rules.checkpoint", "passdown.formats._detect", "down"),
    ("passdown.gates.handoff", "passdown.formats._clock", "down"),
    ("passdown._entry", "passdown.cli", "down"),
    ("passdown.errors", "passdown._lazy", "same"),
])
def test_the_layer_order_judges_known_pairs(module, target, verdict):
    if layer(module) == layer(target):
        assert verdict == "same"
    elif rung(target) > rung(module):
        assert verdict == "up"
    elif rung(target) == rung(module):
        assert verdict == "beside"
    else:
        assert verdict == "down"


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm,
    iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_modules_import_each_other_in_a_circle_at_load_time():
    edges: dict[str, set[str]] = {module: set() for module in MODULES}
    for module, target, _, at_load in IMPORTS:
        if at_load and target in MODULES and target != module:
            edges[module].add(target)
    assert _cycles(edges) == []
