"""Mutation benchmark of the decision gates: how much of each gate's behaviour its own
conformance cases pin, printed as a score per gate.

For each gate, every module of its own (the gate module and its private helpers) is parsed,
and classic mutants are made from it one at a time: a comparison flipped or moved by one
(``<`` / ``<=``, ``==`` / ``!=``, ``in`` / ``not in``, ``is`` / ``is not``), ``and`` / ``or``
swapped, a ``not`` dropped, a condition negated, ``+`` / ``-`` swapped, an integer moved by
one, a boolean flipped, a string emptied, ``break`` / ``continue`` swapped, a statement
deleted. Modules the gate shares with other gates (the timestamp reader, the value tests)
are mutated only inside the functions the gate's cases call.

Each mutant runs in a forked child against that gate's cases only (``conformance/cases/<gate>/``),
through the reference path the conformance runner uses (``decide`` for a value input,
``run`` for raw bytes), compared as the runner compares. A mutant is killed when a case
fails, the gate raises, or the child runs past its time limit. Mutants listed in
``bench/mutation_equivalent.txt`` (each with its one-line argument, by key or by id) are
reported apart and left out of the score.

Run it from an environment where Passdown is installed (the machine may be shared: gates run
one after the other, one child at a time):

    python bench/mutation_bench.py                   # every gate
    python bench/mutation_bench.py handoff relaunch  # some gates
    python bench/mutation_bench.py --survivors       # also list the surviving mutants
    python bench/mutation_bench.py guard --module _guard_judge --list-survivors s.txt
    python bench/mutation_bench.py guard --recheck s.txt   # only the mutants listed in s.txt

``--module`` mutates only the named modules of the gate; ``--list-survivors FILE`` writes the
surviving mutants' ids to FILE, one a line; ``--recheck FILE`` runs only the mutants whose ids
FILE lists. Cases can only be added to kill more mutants, so re-checking the survivors of a
full run gives the full run's answer for them.

Baseline: the share of non-equivalent mutants killed, per gate; the target is 95% or more.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "validator" / "passdown"
EQUIVALENT_FILE = Path(__file__).with_name("mutation_equivalent.txt")

#: gate -> (its own modules, modules it shares with other gates), as dotted names.
GATES = {
    "handoff": (("passdown.gates.handoff", "passdown.formats._handoff_record"),
                ("passdown.formats._clock", "passdown.gates._inputs", "passdown.formats._values")),
    "recovery": (("passdown.gates.recovery",), ("passdown.gates._inputs", "passdown.formats._values")),
    "relaunch": (("passdown.gates.relaunch",),
                 ("passdown.gates._fields", "passdown.formats._clock", "passdown.formats._values")),
    "lifecycle": (("passdown.gates.lifecycle", "passdown.gates._lifecycle_continuity",
                   "passdown.gates._lifecycle_role"),
                  ("passdown.gates._fields", "passdown.formats._clock", "passdown.formats._values")),
    "digest": (("passdown.gates.digest",), ("passdown.formats._digest",)),
    "ack": (("passdown.gates.ack",), ("passdown.formats._ackcheck",)),
    "validate": (("passdown.gates.validate",), ()),
    "restart": (("passdown.gates.restart",), ()),
    "title": (("passdown.gates.title",), ()),
    "guard": (("passdown.gates.guard", "passdown.gates._guard_read", "passdown.gates._guard_judge",
               "passdown.gates._guard_code", "passdown.gates._guard_windows"),
              ("passdown.gates._fields",)),
}

_FLIPS = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult}
_SYMBOLS = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
    ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.And: "and", ast.Or: "or",
}


# -- making mutants ------------------------------------------------------------------------


class Mutant:
    """One change to one module: where (``module``, ``function``, ``line``), what
    (``operator``, ``before`` -> ``after``), and how to apply it to a fresh tree."""

    def __init__(self, module, function, line, operator, before, after, apply):
        self.module, self.function, self.line = module, function, line
        self.operator, self.before, self.after = operator, before, after
        self.apply = apply

    @property
    def key(self):
        """Stable across edits elsewhere in the module (no line number)."""
        return f"{self.module}::{self.function}: {self.operator}: {self.before} -> {self.after}"

    def __str__(self):
        return f"{self.module}:{self.line} {self.function}: {self.operator}: {self.before} -> {self.after}"


def _source_path(module):
    return PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def _functions(tree):
    """``node id -> qualified name of the innermost function holding it`` (or ``<module>``),
    and ``qualified name -> (first line, def node)``."""
    owner, defs = {}, {}

    def visit(node, name):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qualified = child.name if name == "<module>" else f"{name}.{child.name}"
                if not isinstance(child, ast.ClassDef):
                    defs[qualified] = child
                owner[id(child)] = name
                visit(child, qualified)
            else:
                owner[id(child)] = name
                visit(child, name)

    visit(tree, "<module>")
    return owner, defs


def _is_docstring(statement, index):
    return (index == 0 and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str))


def _snippet(node):
    text = ast.unparse(node).replace("\n", " ")
    return text if len(text) <= 70 else text[:67] + "..."


def mutants_of(module):
    """Every mutant of ``module``'s source."""
    tree = ast.parse(_source_path(module).read_text(encoding="utf-8"))
    owner, _ = _functions(tree)
    nodes = list(ast.walk(tree))
    docstrings = set()
    for node in nodes:
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0], 0):
            docstrings.add(id(body[0].value))
    found = []

    skipped = _unpinned(tree)

    def add(index, operator, before, after, change, where=None):
        node = nodes[index] if where is None else where
        if id(node) in skipped:
            return

        def apply(fresh, index=index, change=change):
            change(list(ast.walk(fresh))[index])

        function = owner.get(id(node), "<module>")
        if isinstance(where, ast.stmt) and isinstance(nodes[index], (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = owner[id(nodes[index])]
            function = nodes[index].name if function == "<module>" else f"{function}.{nodes[index].name}"
        found.append(Mutant(module, function, getattr(node, "lineno", 0), operator, before, after,
                            apply))

    for index, node in enumerate(nodes):
        if isinstance(node, ast.Compare):
            for position, op in enumerate(node.ops):
                flipped = _FLIPS.get(type(op))
                if flipped is None:
                    continue

                def change(target, position=position, flipped=flipped):
                    target.ops[position] = flipped()

                after = copy.deepcopy(node)
                after.ops[position] = flipped()
                add(index, "comparison", _snippet(node), _snippet(after), change)
        elif isinstance(node, ast.BoolOp):
            other = ast.Or if isinstance(node.op, ast.And) else ast.And

            def change(target, other=other):
                target.op = other()

            add(index, "and/or", _snippet(node), _symbols_swapped(node, other), change)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            def change(target):
                target.operand = ast.UnaryOp(op=ast.Not(), operand=target.operand)  # not not x

            add(index, "drop not", _snippet(node), _snippet(node.operand), change)
        elif isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            other = _ARITHMETIC[type(node.op)]

            def change(target, other=other):
                target.op = other()

            after = copy.deepcopy(node)
            after.op = other()
            add(index, "arithmetic", _snippet(node), _snippet(after), change)
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            def change(target):
                target.test = ast.UnaryOp(op=ast.Not(), operand=target.test)

            add(index, "negate condition", _snippet(node.test), "not (" + _snippet(node.test) + ")",
                change)
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            value = node.value
            if value is True or value is False:
                def change(target):
                    target.value = not target.value

                add(index, "boolean", repr(value), repr(not value), change)
            elif isinstance(value, int):
                for step in (1, -1):
                    def change(target, step=step):
                        target.value = target.value + step

                    add(index, "integer", repr(value), repr(value + step), change)
            elif isinstance(value, str) and value:
                def change(target):
                    target.value = ""

                add(index, "string", _snippet(node), "''", change)
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list) or isinstance(node, ast.Module):
                continue
            for position, statement in enumerate(body):
                if _is_docstring(statement, position) or isinstance(
                        statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                                    ast.ImportFrom, ast.Pass, ast.Global, ast.Nonlocal)):
                    continue
                if isinstance(statement, (ast.Break, ast.Continue)):
                    other = ast.Continue if isinstance(statement, ast.Break) else ast.Break

                    def change(target, field=field, position=position, other=other):
                        getattr(target, field)[position] = other()

                    add(index, "break/continue", _snippet(statement), _snippet(other()), change,
                        where=statement)
                    continue
                if (isinstance(statement, ast.Return) and position == len(body) - 1
                        and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and (statement.value is None or (isinstance(statement.value, ast.Constant)
                                                         and statement.value.value is None))):
                    continue  # the function returns None without it too

                def change(target, field=field, position=position):
                    old = getattr(target, field)[position]
                    getattr(target, field)[position] = ast.copy_location(ast.Pass(), old)

                add(index, "delete statement", _snippet(statement), "pass", change, where=statement)
    return found


#: Module-level names that describe a gate rather than decide anything (read by the gate
#: table, the docs and the conformance check, never by a decision).
_METADATA = frozenset({"NAME", "VERSION", "SUMMARY", "SPEC", "INPUT_SCHEMA", "OUTPUT_SCHEMA",
                       "OUTCOMES", "CHECKS", "__slots__"})


def _unpinned(tree):
    """Ids of nodes no case can pin: module-level metadata and constants no code of the
    module reads, ``__slots__``, error messages and hints (the arguments of an ``Invalid``
    after its path, of an ``...Error`` but its ``code``, of an exception class the module
    defines, the error classes themselves,
    ``__repr__``), and everything inside
    them."""
    read = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)}
    # exceptions the module defines with no fields of their own (``class Unsupported(ValueError)``):
    # their only argument is a message
    raised = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and any(
        getattr(base, "id", "").endswith(("Error", "Exception")) for base in node.bases)
        and not any(isinstance(item, ast.FunctionDef) for item in node.body)}
    skipped = set()
    for node in ast.walk(tree):
        # an error's message and hint never reach a gate's answer; its code and path do
        name = (getattr(node.func, "id", None) or getattr(node.func, "attr", "")) if isinstance(
            node, ast.Call) else ""
        if name.endswith("Invalid") or name in ("_domain_error", "fail"):
            for argument in node.args[1:]:
                skipped.update(id(sub) for sub in ast.walk(argument))
        elif name.endswith("Error") or name in raised:
            for argument in node.args:
                skipped.update(id(sub) for sub in ast.walk(argument))
        if name.endswith(("Invalid", "Error", "_error")):
            for keyword in node.keywords:
                if keyword.arg in ("hint", "message"):
                    skipped.update(id(sub) for sub in ast.walk(keyword.value))
        if isinstance(node, ast.FunctionDef) and node.name == "__repr__":
            skipped.update(id(sub) for sub in ast.walk(node))
        if isinstance(node, ast.ClassDef) and node.name.endswith(("Invalid", "Error")):
            skipped.update(id(sub) for sub in ast.walk(node))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list) or not isinstance(node, (ast.Module, ast.ClassDef)):
            continue
        for statement in body:
            if not isinstance(statement, (ast.Assign, ast.AnnAssign)):
                continue
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if names and (names <= _METADATA or not names & read):
                skipped.update(id(sub) for sub in ast.walk(statement))
    return skipped


def _symbols_swapped(node, other):
    after = copy.deepcopy(node)
    after.op = other()
    return _snippet(after)


# -- running mutants -----------------------------------------------------------------------


_SUITE = []


def _cases(gate):
    """The gate's cases, from the suite as it was when the run started."""
    if not _SUITE:
        from passdown.conformance._suite import load_suite

        _SUITE.append(load_suite(ROOT / "conformance" / "cases"))
    return [case for case in _SUITE[0].cases if case.gate == gate]


def _answers(gate, cases):
    """True when every case passes, as the conformance runner's reference path judges it."""
    from passdown.conformance._compare import mismatch
    from passdown.gates import load

    module = load(gate)
    for case in cases:
        if case.input_kind == "input":
            decision = module.decide(case.input_value)
        else:
            decision = module.run(case.raw_input())
        if mismatch(case, decision.output, decision.exit_code, decision.text):
            return False
    return True


def _reached(gate, cases, shared):
    """``(module, function)`` pairs of the shared modules that the gate's cases call."""
    files = {str(_source_path(module)): module for module in shared}
    seen = set()

    def profile(frame, event, arg):
        if event == "call":
            code = frame.f_code
            module = files.get(code.co_filename)
            if module is not None:
                seen.add((module, code.co_qualname))

    sys.setprofile(profile)
    try:
        _answers(gate, cases)
    finally:
        sys.setprofile(None)
    return seen


def _install(mutant, modules):
    """In a child: drop ``modules`` from the import cache, and put ``mutant``'s module in
    its place so that every module importing it afresh gets the mutant."""
    import importlib
    import types

    for name in modules:
        sys.modules.pop(name, None)
        parent, _, child = name.rpartition(".")
        if parent in sys.modules and hasattr(sys.modules[parent], child):
            delattr(sys.modules[parent], child)
    tree = ast.parse(_source_path(mutant.module).read_text(encoding="utf-8"))
    mutant.apply(tree)
    ast.fix_missing_locations(tree)
    code = compile(tree, str(_source_path(mutant.module)), "exec")
    module = types.ModuleType(mutant.module)
    module.__file__ = str(_source_path(mutant.module))
    parent, _, child = mutant.module.rpartition(".")
    module.__package__ = parent
    sys.modules[mutant.module] = module
    exec(code, module.__dict__)  # noqa: S102 - the mutant under test
    setattr(importlib.import_module(parent), child, module)


def _run_mutant(gate, mutant, modules, cases, limit):
    """``killed``, ``survived`` or ``timeout``, from a forked child."""
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            signal.alarm(limit)
            _install(mutant, modules)
            status = 0 if _answers(gate, cases) else 1
        except BaseException:  # noqa: BLE001 - a mutant that raises is killed
            status = 1
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return "timeout"
    return "survived" if os.WEXITSTATUS(status) == 0 else "killed"


def _equivalents(gate):
    """``key -> argument`` for ``gate`` from the equivalent-mutants file: ``key  # argument``
    lines, and ``[gate1,gate2] key  # argument`` for a mutant equivalent for some gates only."""
    found = {}
    if EQUIVALENT_FILE.is_file():
        for line in EQUIVALENT_FILE.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            key, _, argument = line.partition("  # ")
            if key.startswith("["):
                gates, _, key = key[1:].partition("] ")
                if gate not in gates.split(","):
                    continue
            found[key.strip()] = argument.strip()
    return found


def mutant_ids(mutants):
    """``id -> mutant``: a mutant's id is its key, with `` #2``, `` #3``... added to the
    second and later mutants of one function that share a key (the same change made at
    several places), counted in source order. Stable across edits in other functions."""
    ids, seen = {}, {}
    for mutant in mutants:
        count = seen[mutant.key] = seen.get(mutant.key, 0) + 1
        ids[mutant.key if count == 1 else f"{mutant.key} #{count}"] = mutant
    return ids


def _read_ids(path):
    return {line.strip() for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def _module_names(gate, names):
    """The gate's modules named by ``names`` (dotted or by their last part)."""
    own, shared = GATES[gate]
    known = own + shared
    chosen = []
    for name in names:
        found = [module for module in known if name in (module, module.rpartition(".")[2])]
        if not found:
            raise SystemExit(f"{gate} has no module {name!r}; its modules: {', '.join(known)}")
        chosen += found
    return set(chosen)


def bench_gate(gate, *, limit, show_survivors, out, only_modules=None, recheck=None,
               survivors_file=None):
    own, shared = GATES[gate]
    cases = _cases(gate)
    if not _answers(gate, cases):
        out.write(f"{gate}: the unmutated gate fails its own cases; no score\n")
        return None
    reached = _reached(gate, cases, shared)
    mutants = []
    for module in own:
        mutants += mutants_of(module)
    for module in shared:
        mutants += [m for m in mutants_of(module) if (module, m.function) in reached]
    ids = mutant_ids(mutants)
    for mutant_id, mutant in ids.items():
        mutant.id = mutant_id
    if only_modules is not None:
        mutants = [m for m in mutants if m.module in only_modules]
    if recheck is not None:
        missing = recheck - set(ids)
        mutants = [m for m in mutants if m.id in recheck]
        if missing:
            out.write(f"    {len(missing)} listed mutant(s) no longer made (the code changed)\n")
    equivalent = _equivalents(gate)
    modules = tuple(dict.fromkeys(own + shared))
    # the gate module must be re-imported after any of its helpers is replaced
    modules = modules if modules[0] == f"passdown.gates.{gate}" else (f"passdown.gates.{gate}",) + modules
    start = time.perf_counter()
    counts = {"killed": 0, "timeout": 0, "survived": 0, "equivalent": 0}
    reached = {mutant.key for mutant in mutants} | {mutant.id for mutant in mutants}
    survivors, unused = [], {key for key in equivalent if key.split("::")[0] in modules and key in reached}
    if only_modules is not None or recheck is not None:
        unused = set()  # a partial run cannot tell which listed equivalents still survive
    for mutant in mutants:
        result = _run_mutant(gate, mutant, modules, cases, limit)
        # a line names a mutant by its id (key, with " #n" for a repeated key) or by its key
        listed = mutant.id if mutant.id in equivalent else mutant.key
        if result == "survived" and listed in equivalent:
            counts["equivalent"] += 1
            unused.discard(listed)
            continue
        counts[result] += 1
        if result == "survived":
            survivors.append(mutant)
    elapsed = time.perf_counter() - start
    scored = counts["killed"] + counts["timeout"] + counts["survived"]
    score = 100.0 * (counts["killed"] + counts["timeout"]) / scored if scored else 100.0
    out.write(f"{gate:<10} {len(cases):>4} cases {len(mutants):>5} mutants  killed "
              f"{counts['killed'] + counts['timeout']:>5} (timeouts {counts['timeout']})  survived "
              f"{counts['survived']:>4}  equivalent {counts['equivalent']:>3}  score {score:5.1f}%  "
              f"({elapsed:.0f} s)\n")
    for key in sorted(unused):
        out.write(f"    listed as equivalent but no longer a surviving mutant: {key}\n")
    if show_survivors:
        for mutant in survivors:
            out.write(f"    survived {mutant}\n      key: {mutant.key}\n")
    if survivors_file is not None:
        with open(survivors_file, "a", encoding="utf-8") as listing:
            listing.writelines(f"{mutant.id}\n" for mutant in survivors)
    by_module = {}
    for mutant in survivors:
        by_module[mutant.module] = by_module.get(mutant.module, 0) + 1
    if len(own + shared) > 1 and survivors:
        out.write("    survived by module: " + ", ".join(
            f"{module.rpartition('.')[2]} {count}" for module, count in sorted(by_module.items())) + "\n")
    out.flush()
    return score


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gates", nargs="*", help="gates to measure (default: all)")
    parser.add_argument("--timeout", type=int, default=10, help="seconds per mutant (default 10)")
    parser.add_argument("--survivors", action="store_true", help="list surviving mutants")
    parser.add_argument("--module", action="append", metavar="NAME",
                        help="mutate only this module of the gate (repeatable; dotted or last part)")
    parser.add_argument("--list-survivors", metavar="FILE",
                        help="write the surviving mutants' ids to FILE, one a line")
    parser.add_argument("--recheck", metavar="FILE",
                        help="run only the mutants whose ids FILE lists (as --list-survivors writes)")
    args = parser.parse_args(argv)
    gates = args.gates or list(GATES)
    unknown = [gate for gate in gates if gate not in GATES]
    if unknown:
        parser.error(f"unknown gate(s): {', '.join(unknown)}")
    sys.path.insert(0, str(ROOT / "validator"))
    print("baseline: share of non-equivalent mutants killed by the gate's own cases; target 95%")
    _cases(gates[0])  # read the suite once, before anything can change it
    recheck = _read_ids(args.recheck) if args.recheck else None
    if args.list_survivors:
        Path(args.list_survivors).write_text("", encoding="utf-8")
    for gate in gates:
        only = _module_names(gate, args.module) if args.module else None
        bench_gate(gate, limit=args.timeout, show_survivors=args.survivors, out=sys.stdout,
                   only_modules=only, recheck=recheck, survivors_file=args.list_survivors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
