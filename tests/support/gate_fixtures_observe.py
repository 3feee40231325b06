"""The observe gate's conformance cases, cut from the real session files of tests/data/hosts/
(MANIFEST.md says where each came from): whole files, heads, and tails cut at a line or in the
middle of one. Every expected answer is stated by hand from spec/gates/observe.md and the
records themselves; only the counts of lines (``records``, ``skipped_lines``) are counted
here, with the plain reading of HST-126."""

import json
from pathlib import Path

from gate_cases import case as _case

HOSTS = Path(__file__).resolve().parents[1] / "data" / "hosts"


def _lines(name):
    return (HOSTS / name).read_text(encoding="utf-8").splitlines(keepends=True)


def text(name, first=1, last=None):
    """Lines ``first`` to ``last`` (1-based, inclusive) of a sample, as written."""
    lines = _lines(name)
    return "".join(lines[first - 1:last])


def tail_bytes(name, size):
    """The last ``size`` bytes of a sample: its first line is cut where the read began."""
    raw = (HOSTS / name).read_bytes()[-size:]
    return raw.decode("utf-8", "ignore")


def counted(tail):
    """``(records, skipped_lines)`` of a text, as HST-126 counts them."""
    records = skipped = 0
    for line in tail.split("\n"):
        if not line.strip(" \t\r"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        if isinstance(value, dict):
            records += 1
        else:
            skipped += 1
    return records, skipped


def known(value):
    return {"value": value, "basis": "measured"}


UNKNOWN = {"value": None, "basis": "unknown"}


def answer(host, tail, outcome, *, tokens=None, at=None, model=None, capacity=None,
           session=None, started=None):
    records, skipped = counted(tail)
    if outcome == "not_a_session":
        return {"outcome": outcome, "host": host, "records": records, "skipped_lines": skipped}
    field = lambda value: UNKNOWN if value is None else known(value)  # noqa: E731
    return {"outcome": outcome, "host": host, "current_input_tokens": field(tokens),
            "call_at": field(at), "model": field(model),
            "context_capacity_tokens": field(capacity), "session_id": field(session),
            "started_at": field(started), "records": records, "skipped_lines": skipped}


NO_HEAD = object()


def case(ident, description, requirements, host, tail, outcome, *, head=NO_HEAD, exit_code=0,
         **expected):
    given = {"host": host, "tail": tail}
    if head is not NO_HEAD:
        given["head"] = head
    return _case("observe", ident, description, requirements, given,
                 answer(host, tail, outcome, **expected), exit_code)


def invalid(ident, description, given, field):
    return _case("observe", ident, description, ["HST-125"], given,
                 {"outcome": "invalid_input", "field": field}, 2)


CLAUDE = "claude/session-2.1.39.jsonl"
SIDECHAIN = "claude/sidechain-2.0.46.jsonl"
TODOS = "claude/todowrite-1.0.24.jsonl"
CODEX = "codex/rollout-0.125.0.jsonl"
COMPACTION = "codex/rollout-0.104.0-compaction.jsonl"

CLAUDE_SESSION = "4d5611e5-241a-462a-8d15-5122611a9569"
CLAUDE_START = "2026-02-12T16:02:23.545Z"
OPUS = "claude-opus-4-6"
CODEX_SESSION = "019e1625-789d-76c0-80ab-3724b5ddb799"
CODEX_START = "2026-05-11T08:26:55.042Z"
COMPACTION_SESSION = "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"
COMPACTION_START = "2026-02-23T11:54:34.334Z"
WINDOW = 258400


def claude_cases():
    head = text(CLAUDE, 1, 10)
    whole = text(CLAUDE)
    latest = dict(tokens=1 + 7330 + 98729, at="2026-02-12T21:03:34.112Z", model=OPUS,
                  session=CLAUDE_SESSION, started=CLAUDE_START)
    return [
        case("claude.whole_file", "a real Claude Code 2.1.39 transcript: the three input counts of its last call",
             ["HST-102", "HST-126", "HST-128", "HST-130", "HST-131"], "claude", whole, "measured", **latest),
        case("claude.tail_cut_mid_line", "a tail read that began inside a line passes that line over and reads the rest",
             ["HST-126", "HST-102"], "claude", tail_bytes(CLAUDE, 6000), "measured", head=head, **latest),
        case("claude.compaction_last", "a compact_boundary after the latest call leaves the context size unknown",
             ["HST-102", "HST-131"], "claude", text(CLAUDE, 8, 11), "compacted", head=head,
             session=CLAUDE_SESSION, started=CLAUDE_START),
        case("claude.first_call_after_compaction", "the first call after a compaction gives the size again",
             ["HST-102", "HST-128"], "claude", text(CLAUDE, 11, 17), "measured", head=head,
             tokens=3 + 14600 + 21478, at="2026-02-12T20:30:31.624Z", model=OPUS,
             session=CLAUDE_SESSION, started=CLAUDE_START),
        case("claude.no_call_yet", "a session whose first request has no answer yet: no call, its id and start known",
             ["HST-130", "HST-131"], "claude", text(CLAUDE, 1, 7), "no_call",
             session=CLAUDE_SESSION, started=CLAUDE_START),
        case("claude.sidechain_passed_over", "a sidechain call after the main thread's is not the session's context",
             ["HST-102", "HST-128"], "claude", text(SIDECHAIN), "measured",
             tokens=3 + 141272 + 0, at="2025-11-19T22:53:34.908Z", model="claude-sonnet-4-5-20250929",
             session="88a8d761-7b9a-4bf1-a8ca-c1febe6bf358", started="2025-11-19T22:53:34.908Z"),
        case("claude.absent_counts_are_zero", "usage with input_tokens alone: the absent cache counts count as zero",
             ["HST-128"], "claude", text(TODOS), "measured",
             tokens=270, at="2025-06-14T10:04:00Z", model="claude-sonnet-4",
             session="todowrite_session", started="2025-06-14T10:00:00Z"),
        case("claude.a_rollout_is_not_a_transcript", "a Codex rollout read as a Claude Code transcript is refused",
             ["HST-127"], "claude", text(CODEX, 2, 10), "not_a_session", exit_code=1),
    ]


def codex_cases():
    head = text(CODEX, 1, 1)
    compaction_head = text(COMPACTION, 1, 1)
    compaction = dict(session=COMPACTION_SESSION, started=COMPACTION_START)
    return [
        case("codex.whole_file", "a real Codex CLI 0.125.0 rollout: the latest token count, its window and model",
             ["HST-103", "HST-126", "HST-129", "HST-130", "HST-131"], "codex", text(CODEX), "measured",
             tokens=131573, at="2026-05-11T08:44:58.000Z", model="gpt-5.5", capacity=WINDOW,
             session=CODEX_SESSION, started=CODEX_START),
        case("codex.model_not_in_tail", "a tail that holds no turn_context states no model: unknown, the rest measured",
             ["HST-129", "HST-131"], "codex", text(CODEX, 13, 19), "measured", head=head,
             tokens=20927, at="2026-05-11T08:33:19.536Z", capacity=WINDOW,
             session=CODEX_SESSION, started=CODEX_START),
        case("codex.no_call_yet", "a rollout before its first token count: no call, its session and start known",
             ["HST-129", "HST-130"], "codex", text(CODEX, 1, 5), "no_call",
             session=CODEX_SESSION, started=CODEX_START),
        case("codex.zero_count_is_no_call", "the all-zero token count Codex writes before a compaction is passed over",
             ["HST-129"], "codex", text(COMPACTION, 2, 8), "measured", head=compaction_head,
             tokens=209950, at="2026-02-24T09:50:57.088Z", model="gpt-5.3-codex", capacity=WINDOW,
             **compaction),
        case("codex.compacted_last", "a compacted record after the latest call, then only a zero count: size unknown",
             ["HST-103", "HST-129", "HST-131"], "codex", text(COMPACTION, 2, 13), "compacted",
             head=compaction_head, **compaction),
        case("codex.first_call_after_compaction", "the first call after a compaction gives the size, with its model",
             ["HST-103", "HST-129"], "codex", text(COMPACTION, 2, 21), "measured", head=compaction_head,
             tokens=48297, at="2026-02-24T09:52:00.530Z", model="gpt-5.3-codex", capacity=WINDOW,
             **compaction),
        case("codex.tail_without_its_head", "a rollout tail given without its head has no session_meta: refused",
             ["HST-127"], "codex", text(CODEX, 13, 19), "not_a_session", exit_code=1),
        case("codex.a_transcript_is_not_a_rollout", "a Claude Code transcript read as a Codex rollout is refused",
             ["HST-127"], "codex", text(SIDECHAIN), "not_a_session", exit_code=1),
    ]


def input_cases():
    tail = text(SIDECHAIN)
    return [
        invalid("input.not_an_object", "an input that is not an object", [tail], "$"),
        invalid("input.host_missing", "an input without a host", {"tail": tail}, "$.host"),
        invalid("input.host_unknown", "a host the gate does not read", {"host": "cursor", "tail": tail},
                "$.host"),
        invalid("input.tail_missing", "an input without a tail", {"host": "claude"}, "$.tail"),
        invalid("input.tail_not_text", "a tail that is a list of records, not their text",
                {"host": "claude", "tail": [json.loads(line) for line in tail.splitlines()]}, "$.tail"),
        invalid("input.head_not_text", "a head that is a number", {"host": "claude", "tail": tail, "head": 7},
                "$.head"),
        invalid("input.host_a_list", "a host that is a list of hosts", {"host": ["claude"], "tail": tail},
                "$.host"),
        invalid("input.host_before_tail", "a bad host is named before a bad tail", {"host": 1, "tail": 2},
                "$.host"),
        case("input.head_null", "a null head is no head: the tail is read as the whole file",
             ["HST-125", "HST-127"], "claude", tail, "measured", head=None,
             tokens=3 + 141272 + 0, at="2025-11-19T22:53:34.908Z", model="claude-sonnet-4-5-20250929",
             session="88a8d761-7b9a-4bf1-a8ca-c1febe6bf358", started="2025-11-19T22:53:34.908Z"),
    ]


def observe_files():
    return {
        "claude": {"gate": "observe", "description": "transcripts of Claude Code: the context size of the latest "
                   "main-thread call, and the session's id, start and model", "cases": claude_cases()},
        "codex": {"gate": "observe", "description": "rollouts of Codex CLI: the latest token count, its window "
                  "and model, around a compaction", "cases": codex_cases()},
        "input": {"gate": "observe", "description": "the input rules", "cases": input_cases()},
    }
