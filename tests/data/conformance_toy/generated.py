"""Generated cases for the restart and title gates, their expectations taken from the
reference: a differential check that the example adapters agree with it far beyond the
hand-written suite (odd numbers, big integers, every ISO 8601 form, odd zones)."""

import json
import random

from passdown.gates import load

_FLAGS = (
    "remaining_work", "required_budget_unmeasurable", "policy_authorized", "ownership_committed",
    "target_takeover_readback", "ack_matches", "source_retired_readback", "source_archived_readback",
    "archive_authorized", "archive_supported", "explicit_restart", "context_pressure", "safe_boundary",
    "checkpoint_readback", "checkpoint_current", "progress_since_restart", "transfer_supported",
    "fresh_create_supported", "target_read_supported",
)
_NUMBERS = (
    "current_input_tokens", "fresh_input_tokens", "restart_overhead_tokens", "remaining_calls",
    "context_capacity_tokens", "compactions", "session_age_seconds", "active_writers", "pending_operations",
)
_NUMBER_VALUES = (0, 1, 2, 3, 5, 80000, 15000, 10000, 0.5, 2.0, 3.0, 100000.0, -1, True, None, 1e308, 1.7e308,
                  10**30, 2**53 + 1, 2**1024, 10**400, 3.5, 1e-7, 0.1, 9007199254740993, "5", 1e16)
_TITLES = ("Ship it", "  x | started 01-02 | started 03-04 ", " | started 01-02", "", "   ",
           "a | started \u0661\u0662-\u0660\u0661", None, 5, "x | started 1-02", "\u3000y\x85", "\ufeffz",
           "\u00e9\U0001F600 | started \U0001D7CE\U0001D7CF-01")
_ZONES = ("UTC", "Europe/Warsaw", "Nope/Zone", None, "", "America/New_York", 5, "../etc", "Asia/Kolkata",
          "Pacific/Kiritimati", "Etc/GMT+12", "europe/warsaw", "/UTC", "Europe/", "America/St_Johns")


def _observation(rnd):
    obs = {
        "schema": rnd.choice([1] * 8 + [1.0, True, 2]),
        "source_id": rnd.choice(["s"] * 6 + [" ", None, "\u3000", "t"]),
        "goal_id": rnd.choice(["g"] * 8 + ["", "\x85"]),
        "target_id": rnd.choice(["t", "t", "s", None, "", 0, 0.0, [], {}]),
        "mode": rnd.choice(["off", "adaptive", "adaptive", "daily", "daily", "x"]),
        "creation_status": rnd.choice(["not_sent", "not_sent", "confirmed", "confirmed", "unknown", None]),
        "archive_status": rnd.choice(["unknown", "done"]),
    }
    if obs["creation_status"] == "not_sent" and rnd.random() < 0.7:
        obs["target_id"] = rnd.choice([None, "", 0])
    for name in _FLAGS:
        if rnd.random() < 0.85:
            obs[name] = rnd.choice([True, True, True, False, None, 1])
    for name in _NUMBERS:
        if rnd.random() < 0.85:
            obs[name] = rnd.choice(_NUMBER_VALUES + (rnd.randint(0, 10**6), rnd.random() * 1e6))
    if rnd.random() < 0.5:
        obs.update(active_writers=0, pending_operations=0, safe_boundary=True)
    return obs


def _timestamp(rnd):
    year = rnd.choice(["2026", "0001", "9999", "0000", "1970", "2024", "20x6"])
    month, day = rnd.choice(["09", "01", "12", "13", "00", "02"]), rnd.choice(["05", "01", "31", "29", "00", "32"])
    week, weekday = rnd.choice(["01", "36", "52", "53", "00"]), rnd.choice(["1", "7", "0", "8", ""])
    date = rnd.choice([f"{year}-{month}-{day}", f"{year}{month}{day}", f"{year}-W{week}", f"{year}W{week}",
                       f"{year}-W{week}-{weekday or '1'}", f"{year}W{week}{weekday}", f"{year}-{month}"])
    hour, minute, second = rnd.choice(["23", "00", "12", "24", "7"]), rnd.choice(["30", "00", "59", "60"]), \
        rnd.choice(["00", "59", "60"])
    fraction = rnd.choice(["", "", ".123", ".123456", ".1234567", ",5", ".", ".12a", ":123456"])
    colons = rnd.random() < 0.8
    time = rnd.choice([hour, f"{hour}:{minute}" if colons else f"{hour}{minute}",
                       (f"{hour}:{minute}:{second}" if colons else f"{hour}{minute}{second}") + fraction, ""])
    zone = rnd.choice(["Z", "+00:00", "-00:00", "+02:00", "-05", "+0530", "+05:30:15", "+05:30:15.5", "+24:00",
                       "-23:59", "", "Z", "z", "+02:00Z", "+05:99"])
    separator = rnd.choice(["T", "T", "T", " ", "x", "1", "-", "\u00e9", "\ud800", ""])
    text = date + (separator + time + zone if time or rnd.random() < 0.3 else "")
    if rnd.random() < 0.05:
        text = text[:rnd.randint(0, len(text))]
    return text


def _title_input(rnd):
    value = {"title": rnd.choice(_TITLES),
             "started_at": _timestamp(rnd) if rnd.random() < 0.95 else rnd.choice([None, 5, ""])}
    zone = rnd.choice(_ZONES)
    if zone is not None or rnd.random() < 0.5:
        value["timezone"] = zone
    return value


_MAKERS = {"restart": _observation, "title": _title_input}


def write_suite(root, gates=("restart", "title"), count=300, seed=2026):
    """Write ``count`` generated cases per gate under ``root``; returns the number written."""
    rnd = random.Random(seed)
    written = 0
    for gate in gates:
        module = load(gate)
        cases = []
        for index in range(count):
            value = _MAKERS[gate](rnd)
            as_text = rnd.random() < 0.2
            try:
                json.dumps(value, allow_nan=False)
            except ValueError:
                as_text = True
            if as_text:
                text = json.dumps(value)
                decision, given = module.run(text.encode()), {"input_text": text}
            else:
                decision, given = module.decide(value), {"input": value}
            try:
                json.dumps(decision.output, allow_nan=False)
            except ValueError:
                continue  # an output a fixture cannot hold
            cases.append({"id": f"{gate}.generated.c{index}", "description": "generated",
                          "requirements": ["CNF-013"], **given,
                          "expected": {"output": decision.output, "exit_code": decision.exit_code,
                                       "stdout": decision.text}})
        (root / gate).mkdir(parents=True, exist_ok=True)
        (root / gate / "generated.json").write_text(
            json.dumps({"gate": gate, "gate_version": module.VERSION, "description": "generated", "cases": cases}),
            encoding="utf-8")
        written += len(cases)
    return written
