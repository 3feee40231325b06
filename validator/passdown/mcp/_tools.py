"""The tools ``passdown mcp`` serves: one table, one row per tool (:data:`TOOLS`).

Each tool calls the library directly (never a subprocess) on paths inside the bound folder,
and answers with what the CLI prints: the text the command prints, and as structured output
the command's ``--format json`` document. A refusal (any :class:`~passdown.errors.PassdownError`:
a conflict, a refused change, an unreadable file, a path outside the folder, arguments that
do not match the tool's schema) comes back as a tool error the model can act on: the
error's code, message and hint, exactly as the CLI reports them. Findings and gate verdicts
are answers, not errors: their exit status is in the structured output.

Adding a tool is adding one row: a :class:`Tool` with its name, description, input schema
and a ``run(folder, arguments) -> Reply`` over the library.
"""

from __future__ import annotations

import os

from passdown.errors import PassdownError, UsageError
from passdown.mcp._folder import Folder

_TEXT = {"type": "string", "minLength": 1}
_TEXTS = {"type": "array", "items": _TEXT}
_ITEM = {"type": "string", "minLength": 1, "description": "A plan item id."}
_REVISION = {"type": "integer", "minimum": 0,
             "description": "Apply only if the file is still at this revision (else "
                            "authoring.revision_conflict, nothing changed)."}
_EPOCH = {"type": "integer", "minimum": 0,
          "description": "The writer's fencing epoch; one older than the checkpoint's is refused."}


class Reply:
    """A tool's answer: the ``text`` the model reads, the ``structured`` JSON document, and
    whether it is a refusal (``is_error``)."""

    __slots__ = ("text", "structured", "is_error")

    def __init__(self, text: str, structured: dict, is_error: bool = False):
        self.text, self.structured, self.is_error = text, structured, is_error

    def __repr__(self):
        return f"Reply(is_error={self.is_error}, text={self.text!r})"


class Tool:
    """One row of the table."""

    __slots__ = ("name", "description", "input_schema", "run")

    def __init__(self, name, description, properties, required, run):
        self.name, self.description, self.run = name, description, run
        self.input_schema = {"type": "object", "properties": properties,
                             "required": list(required), "additionalProperties": False}


def refusal(error: PassdownError, command: str) -> Reply:
    """A refusal as the CLI reports it: its line and hint, and the ``--format json`` failure."""
    text = f"passdown: {error.code}: {error.message}"
    if error.hint:
        text += f"\n  hint: {error.hint}"
    return Reply(text, {"ok": False, "command": command, "error": error.to_dict(),
                        "exit_code": error.exit_code}, is_error=True)


def _outcome(outcome) -> Reply:
    """An authoring outcome as the CLI prints it: its line, and ``--format json``."""
    from passdown.authoring import outcome_text

    return Reply(outcome_text(outcome), outcome.to_dict())


# -- validate ------------------------------------------------------------------------------

def _validate(folder: Folder, arguments: dict) -> Reply:
    from passdown import reporters
    from passdown.engine._validate import validate_paths
    from passdown.reporters._json import document

    path = folder.path(arguments.get("path", "."))
    if os.path.isdir(path):
        folder.check_tree(path)
    strict = arguments.get("strict", False)
    report = validate_paths([path])
    return Reply(reporters.render("text", report, strict=strict), document(report, strict=strict))


# -- the checkpoint ------------------------------------------------------------------------

def _checkpoint_path(folder: Folder) -> str:
    from passdown.authoring import CHECKPOINT_PATH

    return folder.path(CHECKPOINT_PATH)


def _checkpoint_tool(name, operation, description, properties, required, convert) -> Tool:
    def run(folder: Folder, arguments: dict) -> Reply:
        from passdown.authoring import update_checkpoint

        args, options = convert(arguments)
        return _outcome(update_checkpoint(_checkpoint_path(folder), operation, *args,
                                          expect_revision=arguments.get("expect_revision"),
                                          epoch=arguments.get("epoch"), **options))

    properties = {**properties, "expect_revision": _REVISION, "epoch": _EPOCH}
    return Tool(name, description + " (as `passdown checkpoint " + operation + "`)", properties,
                required, run)


def _show(folder: Folder, arguments: dict) -> Reply:
    from passdown.authoring import show_checkpoint

    return _outcome(show_checkpoint(_checkpoint_path(folder)))


def _optional(value):
    return None if value is None else tuple(value)


CHECKPOINT_TOOLS = (
    _checkpoint_tool(
        "checkpoint_add_completed", "add-completed",
        "Record a completed step with its evidence references (commits, test runs, reports)",
        {"title": _TEXT, "evidence": {**_TEXTS, "minItems": 1}, "id": _ITEM,
         "summary": _TEXT, "parent": _ITEM}, ("title", "evidence"),
        lambda a: ((a["title"],), {"evidence": tuple(a["evidence"]), "item_id": a.get("id"),
                                   "summary": a.get("summary"), "parent": a.get("parent")})),
    _checkpoint_tool(
        "checkpoint_add_pending", "add-pending", "Add a remaining step",
        {"title": _TEXT, "id": _ITEM, "before": _ITEM, "parent": _ITEM}, ("title",),
        lambda a: ((a["title"],), {"item_id": a.get("id"), "before": a.get("before"),
                                   "parent": a.get("parent")})),
    _checkpoint_tool(
        "checkpoint_set_resume", "set-resume",
        "Set the resume point: the exact first thing the next session does",
        {"text": _TEXT, "item": _ITEM, "required_inputs": _TEXTS}, ("text",),
        lambda a: ((a["text"],), {"item_id": a.get("item"),
                                  "required_inputs": _optional(a.get("required_inputs"))})),
    _checkpoint_tool(
        "checkpoint_decision", "decision", "Record a decision already made",
        {"text": _TEXT}, ("text",), lambda a: ((a["text"],), {})),
    _checkpoint_tool(
        "checkpoint_hazard", "hazard", "Record a hazard: what is tricky, what to watch for",
        {"text": _TEXT}, ("text",), lambda a: ((a["text"],), {})),
    _checkpoint_tool(
        "checkpoint_blocker", "blocker", "Record an open blocker, or resolve it",
        {"summary": _TEXT, "item": _ITEM, "resolve": {"type": "boolean"}}, ("summary",),
        lambda a: ((a["summary"],), {"item_id": a.get("item"),
                                     "resolve": a.get("resolve", False)})),
    _checkpoint_tool(
        "checkpoint_failed_attempt", "failed-attempt",
        "Record an approach that failed and why, so it is not repeated",
        {"summary": _TEXT, "reason": _TEXT, "item": _ITEM}, ("summary", "reason"),
        lambda a: ((a["summary"],), {"reason": a["reason"], "item_id": a.get("item")})),
)


# -- the packet and the ACK ----------------------------------------------------------------

_FACTS = ("host", "harness", "repository", "checkout", "branch", "head", "working_state",
          "live_work", "model_policy", "budget")


_CHECKOUT_HINT = "bind the server to the checkout's top folder"
#: Why ``packet_render`` reads no checkout from a folder that is not a checkout's top.
_UNREAD = ("the checkout was not read: the MCP server is bound to a folder that is not the "
           "top folder of a git checkout, and reads nothing outside it")


def _registry_path(folder: Folder, given: str | None) -> str:
    from passdown.authoring import locate_registry

    return folder.path(given or os.path.basename(locate_registry(folder.root)))


def _render(folder: Folder, arguments: dict) -> Reply:
    from passdown.authoring import PACKET_NAME, SourceFacts, render_packet

    facts = SourceFacts(source_id=arguments["source_id"],
                        **{key: arguments.get(key) for key in _FACTS})
    at_top = os.path.exists(os.path.join(folder.root, ".git"))
    return _outcome(render_packet(folder.root, source=facts,
                                  registry_path=_registry_path(folder, None),
                                  checkpoint_path=_checkpoint_path(folder),
                                  packet_path=folder.path(PACKET_NAME),
                                  restart_id=arguments.get("restart_id"),
                                  expect_revision=arguments.get("expect_revision"),
                                  unread=None if at_top else _UNREAD))


def _checkout(folder: Folder, doing: str, hint: str = _CHECKOUT_HINT) -> str:
    """The bound folder as the git checkout to read; refused unless it is the checkout's top
    folder, since reading the checkout would otherwise read outside it."""
    if not os.path.exists(os.path.join(folder.root, ".git")):
        raise UsageError(f"{folder.root} is not the top folder of a git checkout, so {doing} "
                         "would read outside it", code="mcp.outside_folder", hint=hint)
    return folder.root


def _ack_write(folder: Folder, arguments: dict) -> Reply:
    from passdown.authoring import ACK_NAME, PACKET_NAME, write_ack

    return _outcome(write_ack(folder.path(arguments.get("packet", PACKET_NAME)),
                          target_id=arguments["target_id"],
                          status=arguments.get("status", "READY_READONLY"),
                          registry_path=_registry_path(folder, arguments.get("registry")),
                          output_path=folder.path(arguments.get("output", ACK_NAME)),
                          workspace=_checkout(folder, "reading the checkout's fingerprints")))


def _ack_verify(folder: Folder, arguments: dict) -> Reply:
    from passdown.authoring import PACKET_NAME
    from passdown.workspace._readback import read_and_verify

    ack = folder.path(arguments.get("ack", "ack.json"))
    workspace = _checkout(folder, "comparing the checkout", f"{_CHECKOUT_HINT}, or verify "
                          "without compare_checkout") if arguments.get("compare_checkout") else None
    verdict = read_and_verify(ack, folder.path(arguments.get("packet", PACKET_NAME)),
                              _registry_path(folder, arguments.get("registry")),
                              checkpoint_path=_checkpoint_path(folder), workspace=workspace)
    lines = [f"{os.path.relpath(ack, folder.root)}: {verdict.outcome}"]
    lines += [f"  {failure.code}: {failure.field}: {failure.message}" for failure in verdict.failures]
    lines += [f"  note: {part} not compared" for part in sorted(set(verdict.skipped))]
    return Reply("\n".join(lines), {"ack": ack, "exit_code": verdict.exit_code,
                                    **verdict.to_dict(details=True)})


# -- the gates -----------------------------------------------------------------------------

def _gate(folder: Folder, arguments: dict) -> Reply:
    from passdown.gates import run_gate

    decision = run_gate(arguments["name"], arguments["input"])
    return Reply(decision.text, {"gate": arguments["name"], "outcome": decision.outcome,
                                 "exit_code": decision.exit_code, "output": decision.output})


def _gate_tool() -> Tool:
    """One tool for every gate of the gate table: the name picks the gate, and each gate
    reads its own input (its input schema is a resource, its refusals its own outcomes)."""
    from passdown.engine._schemas import store
    from passdown.gates import gate_names, load

    lines = []
    for name in gate_names():
        module = load(name)
        schema = store().find(module.INPUT_SCHEMA).id if module.INPUT_SCHEMA else "any JSON"
        lines.append(f"- {name}: {module.SUMMARY} Input: {schema}")
    description = ("Run a decision gate on its JSON input, exactly as `passdown gate NAME` does: "
                   "the answer is the gate's output, outcome code and exit status.\n"
                   + "\n".join(lines))
    return Tool("gate", description, {"name": {"enum": list(gate_names())},
                                      "input": {"description": "The gate's input value."}},
                ("name", "input"), _gate)


def tools() -> tuple[Tool, ...]:
    """Every tool, in the order they are listed."""
    return (
        Tool("validate", "Validate and lint artifacts: a file, or a folder searched for "
             "artifacts by name (with the cross-file checks of a handoff folder), inside the "
             "bound folder. The findings are the structured output (as `passdown validate "
             "--format json`).",
             {"path": {**_TEXT, "description": "Relative to the bound folder (default: the "
                                               "folder itself)."},
              "strict": {"type": "boolean", "description": "Warnings fail too."}}, (), _validate),
        Tool("checkpoint_show", "Show the continue checkpoint: its summary, and the whole "
             "document as structured output (as `passdown checkpoint show`).", {}, (), _show),
        *CHECKPOINT_TOOLS,
        Tool("packet_render", "Register the restart attempt, then write the continuation "
             "packet and read it back (as `passdown packet render`).",
             {"source_id": _TEXT, **{key: _TEXT for key in _FACTS}, "restart_id": _TEXT,
              "expect_revision": _REVISION}, ("source_id",), _render),
        Tool("ack_write", "Read the packet, the registry, the checkpoint and the checkout "
             "(the bound folder, which must be a checkout's top folder) and write the target's "
             "ACK (as `passdown ack write`).",
             {"target_id": {**_TEXT, "description": "This session's own exact id."},
              "status": {"enum": ["READY_READONLY", "TAKEOVER"],
                         "description": "Default: READY_READONLY."},
              "packet": {**_TEXT, "description": "Default: continuation.packet.txt."},
              "registry": {**_TEXT, "description": "Default: the folder's registry."},
              "output": {**_TEXT, "description": "Default: ack.json. Only a missing file or "
                         "an untracked ACK of the same handoff is replaced."}},
             ("target_id",), _ack_write),
        Tool("ack_verify", "Verify an ACK against a fresh readback of the packet, the registry "
             "and the checkpoint (as `passdown ack verify`).",
             {"ack": {**_TEXT, "description": "Default: ack.json."},
              "packet": {**_TEXT, "description": "Default: continuation.packet.txt."},
              "registry": {**_TEXT, "description": "Default: the folder's registry."},
              "compare_checkout": {"type": "boolean", "description": "Also compare the "
                                   "checkout fingerprints (the folder must be a checkout's top)."}},
             (), _ack_verify),
        _gate_tool(),
    )


def _argument_errors(tool: Tool, arguments) -> list[str]:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(tool.input_schema)
    errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.absolute_path))
    return [f"{'.'.join(map(str, ['arguments', *error.absolute_path]))}: {error.message}"
            for error in errors]


def call(tool: Tool, folder: Folder, arguments) -> Reply:
    """Run ``tool``: its arguments checked against its schema, any refusal as a tool error."""
    arguments = {} if arguments is None else arguments
    problems = _argument_errors(tool, arguments)
    if problems:
        return refusal(UsageError("; ".join(problems), code="mcp.bad_arguments",
                                  hint=f"pass the arguments {tool.name}'s input schema lists"),
                       tool.name)
    try:
        return tool.run(folder, arguments)
    except PassdownError as error:
        return refusal(error, tool.name)
