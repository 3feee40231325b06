"""The ``relaunch`` gate: whether an idle lead seat that has grown large or old may be ended
and launched fresh in its own pane, or the definite refusal that leaves it running.

Pure: the host reads the seat (transcript, pane, process tree, conversation) and passes the
readings with ``now``; the gate answers one outcome. Checks run in the order of
``spec/gates/relaunch.md``; the first that applies answers. Every refusal has
``"effects": "none"``: nothing was ended, launched or sent.
"""

from passdown.gates import _fields as field
from passdown.gates._table import Decision, run_strict

NAME = "relaunch"
VERSION = "1.0.0"
SUMMARY = "Whether an idle, large or old lead seat may be relaunched fresh, or why not."
SPEC = "spec/gates/relaunch.md"
INPUT_SCHEMA = "gates/relaunch.input.schema.json"
OUTPUT_SCHEMA = "gates/relaunch.output.schema.json"
MAX_INPUT_BYTES = 65536

#: Every outcome, in the order the checks run (``invalid_input`` first, ``relaunch`` last).
OUTCOMES = (
    "invalid_input",
    "reconcile",
    "disabled",
    "not_bound",
    "source_unproven",
    "usage_unreadable",
    "below_budget",
    "trust_required",
    "not_shell_launch",
    "changed_agent",
    "wait",
    "brief_unanswered",
    "in_turn",
    "owner_active",
    "draft_present",
    "draft_unreadable",
    "ask_brief",
    "relaunch",
)
#: Outcomes that are not refusals (exit status 0); every other outcome refuses.
ACTIONS = ("reconcile", "wait", "ask_brief", "relaunch")

DEFAULTS = {
    "lead_restarts": True,
    "budget": {"context_tokens": 250_000, "session_age_seconds": 12 * 3600},
    "owner_idle_seconds": 15 * 60,
    "brief_reply_seconds": 10 * 60,
    "brief_reask_seconds": 3600,
    "owner_notice_seconds": 2 * 3600,
}

_TRANSCRIPT_STATES = ("read", "missing", "ambiguous", "unreadable")
_DRAFT_STATES = ("none", "present", "unreadable")
_RECEIPT_OUTCOMES = ("relaunched", "uncertain")
_OWNER_ACTION = "set_workdir_outside_home_or_trust"


def run(raw):
    """Bytes -> :class:`Decision`; unreadable input answers ``invalid_input`` (exit 2)."""
    return run_strict(raw, MAX_INPUT_BYTES, decide, _invalid)


def decide(value):
    """One JSON value -> :class:`Decision`. Never raises."""
    try:
        seen = _read(value)
    except field.Invalid as error:
        return _invalid(error.path)
    return _judge(seen)


def _judge(seen):
    now = seen["now"]
    settings = seen["settings"]
    receipt = seen["open_receipt"]
    if receipt is not None:
        return _answer("reconcile", {"receipt_id": receipt["receipt_id"],
                                     "receipt_outcome": receipt["outcome"]})
    if not settings["lead_restarts"]:
        return _refuse("disabled")
    seat = seen["seat"]
    if not seat["bound"]:
        return _refuse("not_bound")
    usage = seen["usage"]
    if not usage["source_proven"]:
        return _refuse("source_unproven", {"evidence": usage["evidence"]})
    if usage["transcript"] != "read":
        return _refuse("usage_unreadable", {"evidence": usage["evidence"], "unknown": "context_tokens",
                                            "transcript": usage["transcript"]})
    budget = settings["budget"]
    triggers = []
    if usage["context_tokens"] >= budget["context_tokens"]:
        triggers.append("context_tokens")
    started = seat["session_started_at"]
    if started is not None and now - started >= field.seconds(budget["session_age_seconds"]):
        triggers.append("session_age")
    if not triggers:
        if started is None:
            # Unknown age never proves the seat is below budget.
            return _refuse("usage_unreadable", {"evidence": usage["evidence"], "unknown": "session_age",
                                                "transcript": "read"})
        return _refuse("below_budget")
    # A seat due this long but still held back is worth the owner's attention.
    due_since = seen["due_since"]
    notice = {"notify_owner": True} if due_since is not None and (
        now - due_since >= field.seconds(settings["owner_notice_seconds"])) else {}
    if not _outside_home(seat["launch_dir"], seat["home"]):
        return _refuse("trust_required", {"owner_action": _OWNER_ACTION, **notice})
    launcher = seen["launcher"]
    if not launcher["under_shell"]:
        return _refuse("not_shell_launch", notice)
    if (launcher["command"] != seat["command"] or launcher["harness_pid"] is None
            or launcher["session_id"] != seat["session_id"]):
        return _refuse("changed_agent", notice)
    brief = _brief_state(seen["brief"], now, settings)
    if brief == "pending":
        return _answer("wait", {"triggers": triggers, **notice})
    if brief == "unanswered":
        return _refuse("brief_unanswered", notice)
    if seat["in_turn"]:
        return _refuse("in_turn", notice)
    owner_write = seen["owner_last_write_at"]
    if owner_write is not None and now - owner_write < field.seconds(settings["owner_idle_seconds"]):
        return _refuse("owner_active", notice)
    if seen["draft"] == "present":
        return _refuse("draft_present", notice)
    if seen["draft"] == "unreadable":
        return _refuse("draft_unreadable", notice)
    if brief == "none":
        return _answer("ask_brief", {"triggers": triggers})
    return _answer("relaunch", {"triggers": triggers, "command": launcher["command"],
                                "signal_pid": launcher["harness_pid"]})


def _brief_state(brief, now, settings):
    """``answered`` (a fresh reply to the latest request), ``pending`` (asked, within the reply
    window), ``unanswered`` (no reply, too soon to ask again) or ``none`` (ask now)."""
    asked, answered = brief["asked_at"], brief["answered_at"]
    if asked is None:
        return "none"
    reask = field.seconds(settings["brief_reask_seconds"])
    if answered is not None and answered >= asked:
        return "answered" if now - answered < reask else "none"
    if now - asked < field.seconds(settings["brief_reply_seconds"]):
        return "pending"
    return "unanswered" if now - asked < reask else "none"


def _outside_home(launch_dir, home):
    """Whether ``launch_dir`` is provably outside ``home``: both absolute POSIX paths, no ``..``."""
    if not (isinstance(launch_dir, str) and isinstance(home, str)):
        return False
    if not (launch_dir.startswith("/") and home.startswith("/")):
        return False
    launch_parts = [p for p in launch_dir.split("/") if p not in ("", ".")]
    home_parts = [p for p in home.split("/") if p not in ("", ".")]
    if ".." in launch_parts or ".." in home_parts or not home_parts:
        return False
    return launch_parts[: len(home_parts)] != home_parts


# -- input ---------------------------------------------------------------------------------


def _read(value):
    top = field.record(value, "$", ("now", "seat", "usage", "owner_last_write_at", "draft",
                                     "launcher", "brief"), ("open_receipt", "settings", "due_since"))
    seat = field.record(top["seat"], "$.seat", ("bound", "in_turn", "session_id", "command",
                                                "session_started_at", "launch_dir", "home"))
    usage = field.record(top["usage"], "$.usage", ("source_proven", "transcript", "context_tokens"),
                         ("evidence",))
    launcher = field.record(top["launcher"], "$.launcher",
                            ("under_shell", "command", "harness_pid", "session_id"))
    brief = field.record(top["brief"], "$.brief", ("asked_at", "answered_at"))
    transcript = field.choice(usage["transcript"], "$.usage.transcript", _TRANSCRIPT_STATES)
    tokens = field.optional(field.integer, usage["context_tokens"], "$.usage.context_tokens")
    if (transcript == "read") != (tokens is not None):
        raise field.Invalid("$.usage.context_tokens",
                            "expected an integer when the transcript was read, else null")
    asked = field.optional(field.timestamp, brief["asked_at"], "$.brief.asked_at")
    answered = field.optional(field.timestamp, brief["answered_at"], "$.brief.answered_at")
    if asked is None and answered is not None:
        raise field.Invalid("$.brief.answered_at", "expected null while no brief was asked")
    return {
        "now": field.timestamp(top["now"], "$.now"),
        "seat": {
            "bound": field.boolean(seat["bound"], "$.seat.bound"),
            "in_turn": field.boolean(seat["in_turn"], "$.seat.in_turn"),
            "session_id": field.text(seat["session_id"], "$.seat.session_id"),
            "command": field.text(seat["command"], "$.seat.command"),
            "session_started_at": field.optional(field.timestamp, seat["session_started_at"],
                                                 "$.seat.session_started_at"),
            "launch_dir": field.optional(field.text, seat["launch_dir"], "$.seat.launch_dir", 4096),
            "home": field.optional(field.text, seat["home"], "$.seat.home", 4096),
        },
        "usage": {
            "source_proven": field.boolean(usage["source_proven"], "$.usage.source_proven"),
            "transcript": transcript,
            "context_tokens": tokens,
            "evidence": field.strings(usage.get("evidence", []), "$.usage.evidence"),
        },
        "owner_last_write_at": field.optional(field.timestamp, top["owner_last_write_at"],
                                              "$.owner_last_write_at"),
        "draft": field.choice(top["draft"], "$.draft", _DRAFT_STATES),
        "launcher": {
            "under_shell": field.boolean(launcher["under_shell"], "$.launcher.under_shell"),
            "command": field.optional(field.text, launcher["command"], "$.launcher.command"),
            "harness_pid": field.optional(field.integer, launcher["harness_pid"],
                                          "$.launcher.harness_pid", 1),
            "session_id": field.optional(field.text, launcher["session_id"],
                                         "$.launcher.session_id"),
        },
        "brief": {"asked_at": asked, "answered_at": answered},
        "open_receipt": _read_receipt(top.get("open_receipt")),
        "due_since": field.optional(field.timestamp, top.get("due_since"), "$.due_since"),
        "settings": _read_settings(top.get("settings", {})),
    }


def _read_receipt(value):
    if value is None:
        return None
    receipt = field.record(value, "$.open_receipt", ("receipt_id", "outcome"))
    return {
        "receipt_id": field.text(receipt["receipt_id"], "$.open_receipt.receipt_id"),
        "outcome": field.choice(receipt["outcome"], "$.open_receipt.outcome", _RECEIPT_OUTCOMES),
    }


def _read_settings(value):
    settings = field.record(value, "$.settings", (), tuple(DEFAULTS))
    budget = field.record(settings.get("budget", {}), "$.settings.budget", (),
                          tuple(DEFAULTS["budget"]))
    read = {
        "lead_restarts": field.boolean(settings.get("lead_restarts", DEFAULTS["lead_restarts"]),
                                       "$.settings.lead_restarts"),
        "budget": {
            key: field.integer(budget.get(key, default), f"$.settings.budget.{key}", 1)
            for key, default in DEFAULTS["budget"].items()
        },
    }
    for key in ("owner_idle_seconds", "brief_reply_seconds", "brief_reask_seconds", "owner_notice_seconds"):
        read[key] = field.integer(settings.get(key, DEFAULTS[key]), f"$.settings.{key}")
    return read


# -- output --------------------------------------------------------------------------------


def _refuse(code, detail=None):
    output = {"decision": "refuse", "code": code, "effects": "none"}
    if detail:
        output.update(detail)
    return Decision(output, code, 1)


def _answer(decision, detail):
    effects = {"ask_brief": "ask_brief", "relaunch": "end_and_launch"}.get(decision, "none")
    output = {"decision": decision, "effects": effects}
    output.update(detail)
    return Decision(output, decision, 0)


def _invalid(path):
    output = {"decision": "refuse", "code": "invalid_input", "effects": "none", "path": path}
    return Decision(output, "invalid_input", 2)
