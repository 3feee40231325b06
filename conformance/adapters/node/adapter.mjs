#!/usr/bin/env node
// An example Passdown conformance adapter for Node.js (20 or later), with no dependencies.
//
// It implements gates from their spec pages alone: `restart` (spec/gates/restart.md) and
// `title` (spec/gates/title.md) in this file, with no dependencies; `recovery`
// (spec/gates/recovery.md) in recovery.mjs and `observe` (spec/gates/observe.md) in
// observe.mjs, with none either; `ack` (spec/ack.md) in ack.mjs, `digest` (spec/digest.md) in
// digest.mjs and `validate` (spec/gates/validate.md) in validate.mjs, which need the packages of
// the repository's package.json (`npm ci` at the root: a pure-JS blake3, the YAML parser
// load.mjs reads artifacts' text with, and ajv, which validate.mjs compiles the repository's
// schemas/v1 with). Without them those gates are not listed, so their cases are skipped.
// Beside it: load.mjs (an artifact's text to a value, or its load.* code; and the gates' JSON
// reader), digests.mjs (digest strings, hashing and canonical forms), json-python.mjs (JSON
// as Python writes it), and the artifacts' semantic rules for validate: rules.mjs (the table
// by kind, with the ACK, handoff record, pending confirmation, receipt and registry rules),
// rules-shared.mjs, rules-checkpoint.mjs, rules-packet.mjs and rules-members.mjs. It conforms
// to the core, recovery, observe and python-helper-compat profiles, which it declares. Copy it
// as the starting point for your own adapter and replace the gate functions with calls into
// your implementation.
//
// `passdown conformance adapters` prints both commands with this file's full path, in a
// checkout or an installed package:
//   harness mode (persistent, fast; `ready` lists the gates with their versions):
//     passdown conformance run --harness "node conformance/adapters/node/adapter.mjs"
//   program mode (one process per case; gate name as last argument, input on stdin; a case
//   of a gate or version it does not implement exits with status 77, which means skipped):
//     passdown conformance run --program "node conformance/adapters/node/adapter.mjs"
//
// The restart and title gates are defined over JSON as Python reads and writes it, so they
// read with load.mjs's JSON reader, which keeps integers apart from floats (and exact, as
// BigInt) and accepts NaN and Infinity, and this file carries a writer that prints numbers and
// strings the way Python's json module does. JavaScript's JSON.parse would turn 1.0 into 1,
// which the suite tells apart; the digest gate reads its input with the same reader, so
// 9007199254740993 is refused rather than rounded.
//
// For the runner's own tests, PASSDOWN_ADAPTER_FAULT makes it misbehave on the cases whose
// id matches the glob PASSDOWN_ADAPTER_FAULT_CASE (default: every case): `wrong` (the title
// ignores the time zone; the restart horizon is not capped at three calls), `crash` (exits
// at once) or `hang` (never answers).

import { existsSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { Float, LIMITS, PYTHON, isFloat, isInt, parseJSON as readJSON, plain, readGateInput } from "./load.mjs";
import { pythonJSON } from "./json-python.mjs";

const NAME = "passdown-adapter-node";
const VERSION = "1.3.0";
// The gates implemented, with the version of each (the runner sends only their cases). The
// gates in modules beside this file need the packages of package.json (`npm ci` here); without
// them those gates are not listed, so their cases are skipped, never failed.
const GATE_VERSIONS = { restart: "2.2.1", title: "1.0.0" };
const MODULES = {};
// The conformance profiles it passes whole (spec/conformance.md, "Profiles"), declared when the
// gates they need are there.
// Core first (CNF-049).
const PROFILES = ["core", "recovery", "observe", "python-helper-compat"];
const PROFILE_GATES = { core: ["validate", "digest", "ack", "restart", "title"], recovery: ["recovery"], observe: ["observe"],
  "python-helper-compat": ["restart", "title"] };
for (const [gate, file] of [["ack", "./ack.mjs"], ["digest", "./digest.mjs"], ["recovery", "./recovery.mjs"], ["observe", "./observe.mjs"], ["validate", "./validate.mjs"]]) {
  try {
    MODULES[gate] = await import(file);
    GATE_VERSIONS[gate] = MODULES[gate].VERSION;
  } catch (error) {
    // a package not installed (`npm ci`), or no schemas beside it (validate): not offered
    if (error?.code !== "ERR_MODULE_NOT_FOUND" && error?.code !== "PASSDOWN_NO_SCHEMAS") throw error;
  }
}
// The exit status that tells the runner, in program mode, that a case is skipped.
const SKIP_STATUS = 77;
const FAULT = process.env.PASSDOWN_ADAPTER_FAULT || "";
const FAULT_CASE = process.env.PASSDOWN_ADAPTER_FAULT_CASE || "*";

// -- numbers as Python has them --------------------------------------------------------------

// Numbers as load.mjs reads them: integers are BigInt, floats Float; objects are Maps.
const isNumber = (v) => isInt(v) || isFloat(v);

class OverflowError extends Error {}

function toDouble(v) {
  // Python converts an int to float exactly rounded, or raises OverflowError.
  if (isFloat(v)) return v.value;
  const d = Number(v);
  if (!Number.isFinite(d)) throw new OverflowError("int too large to convert to float");
  return d;
}

function num(v) { return isInt(v) ? v : v.value; } // for exact comparisons (BigInt vs Number)

function sub(a, b) { return isInt(a) && isInt(b) ? a - b : new Float(toDouble(a) - toDouble(b)); }
function mul(a, b) { return isInt(a) && isInt(b) ? a * b : new Float(toDouble(a) * toDouble(b)); }

function bitLength(n) { return n === 0n ? 0 : n.toString(2).length; }

function trueDivide(a, b) {
  // Python's a / b: int / int is correctly rounded (OverflowError when too large).
  if (!(isInt(a) && isInt(b))) return new Float(toDouble(a) / toDouble(b));
  if (b === 0n) throw new Error("division by zero");
  const negative = (a < 0n) !== (b < 0n);
  let x = a < 0n ? -a : a;
  const y = b < 0n ? -b : b;
  if (x === 0n) return new Float(negative ? -0 : 0);
  const shift = 60 - (bitLength(x) - bitLength(y));
  const numerator = shift >= 0 ? x << BigInt(shift) : x;
  const denominator = shift >= 0 ? y : y << BigInt(-shift);
  let quotient = numerator / denominator;
  if (numerator % denominator !== 0n) quotient |= 1n; // sticky bit: no false ties
  let result = Number(quotient);
  let scale = -shift;
  while (scale > 0) { const step = Math.min(scale, 1000); result *= 2 ** step; scale -= step; }
  while (scale < 0) { const step = Math.min(-scale, 1000); result /= 2 ** step; scale += step; }
  if (!Number.isFinite(result)) throw new OverflowError("integer division result too large for a float");
  return new Float(negative ? -result : result);
}

function pyMin(a, b) { return num(b) < num(a) ? b : a; } // min(a, b): the first of equals

// -- JSON as Python writes it: json-python.mjs -----------------------------------------------

// json.dumps(value, sort_keys=...); ints longer than Python prints raise, as Python does.
const dumps = (value, sortKeys = false) => pythonJSON(value, { sortKeys, maxDigits: LIMITS.digits });

// -- the restart gate --------------------------------------------------------------------------

const RESTART_LIMIT = 65536;
const MODES = ["off", "adaptive", "daily"];

function usable(v) {
  return isNumber(v) && num(v) >= 0 && num(v) < Infinity; // NaN fails both
}
function named(v) { return typeof v === "string" && pyStrip(v) !== ""; }
function truthy(v) {
  // Python's `if value:` for JSON values
  if (v === null || v === false || v === undefined) return false;
  if (isInt(v)) return v !== 0n;
  if (isFloat(v)) return v.value !== 0;
  if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  return true;
}

function restartPlain(action, reason) {
  const output = new Map([["action", action], ["reason", reason]]);
  return [output, action === "BLOCKED" ? 2 : 0, dumps(output, true) + "\n"];
}

function restartRun(bytes) {
  const value = readGateInput(bytes, RESTART_LIMIT);
  return value === undefined ? restartPlain("BLOCKED", "invalid_input") : restartDecide(value);
}

function restartDecide(value) {
  try {
    const [action, reason, assessment] = restart(value);
    const output = new Map([["action", action], ["reason", reason]]);
    if (assessment) output.set("assessment", assessment);
    return [output, action === "BLOCKED" ? 2 : 0, dumps(output, true) + "\n"];
  } catch {
    return restartPlain("BLOCKED", "invalid_input"); // numbers too large to compute or print
  }
}

function restart(obs) {
  if (!(obs instanceof Map)) return ["BLOCKED", "invalid_input"];
  const get = (k) => obs.get(k);
  const flag = (k) => obs.get(k) === true;
  const schema = get("schema");
  if (!isInt(schema) || schema !== 1n) return ["BLOCKED", "unsupported_schema"];
  const source = get("source_id");
  const target = get("target_id");
  if (!named(source)) return ["BLOCKED", "source_identity"];
  if (!named(get("goal_id"))) return ["BLOCKED", "goal_identity"];
  if (flag("ownership_committed")) {
    if (!named(target) || target === source) return ["BLOCKED", "committed_target_identity"];
    if (!flag("target_takeover_readback") || !flag("ack_matches")) return ["VERIFY_TAKEOVER", "source_remains_readonly"];
    if (!flag("source_retired_readback")) return ["VERIFY_SOURCE_RELEASE", "do_not_archive_an_unreleased_source"];
    if (get("archive_status") === "unknown") return ["RECONCILE_ARCHIVE", "target_owns_work_never_recreate"];
    if (flag("source_archived_readback")) return ["COMPLETE", "takeover_and_archive_verified"];
    if (!(flag("archive_authorized") && flag("archive_supported"))) {
      return ["ARCHIVE_PENDING", "target_owns_work_source_remains_readonly"];
    }
    return ["ARCHIVE_SOURCE", "archive_exact_source_only"];
  }
  const creation = get("creation_status");
  if (creation === "unknown") return ["RECONCILE_TARGET", "never_retry_uncertain_create"];
  if (creation !== "not_sent" && creation !== "confirmed") return ["BLOCKED", "creation_status"];
  const notSent = creation === "not_sent";
  if (notSent && truthy(target)) return ["RECONCILE_TARGET", "unexpected_target"];
  if (!notSent && (!named(target) || target === source)) return ["BLOCKED", "target_identity"];
  const remaining = get("remaining_work");
  if (remaining !== true) return [remaining === false ? "FINISH" : "BLOCKED", "remaining_work"];
  if (flag("required_budget_unmeasurable")) return ["BLOCKED", "required_budget_unmeasurable"];
  const mode = get("mode");
  if (!MODES.includes(mode)) return ["BLOCKED", "invalid_mode"];
  if (mode === "off" || !flag("policy_authorized")) return ["CHECKPOINT_ONLY", "restart_not_authorized"];

  const current = get("current_input_tokens");
  const fresh = get("fresh_input_tokens");
  const overhead = get("restart_overhead_tokens");
  const calls = get("remaining_calls");
  const capacity = get("context_capacity_tokens");
  const measured = [current, fresh, overhead, calls].every(usable);
  let paysBack = false;
  const assessment = new Map();
  if (measured) {
    const horizon = FAULT === "wrong" ? calls : pyMin(calls, 3n);
    const avoided = mul(sub(current, fresh), horizon);
    paysBack = num(horizon) >= 1 && num(avoided) > num(mul(2n, overhead));
    assessment.set("basis", "estimated_token_proxy_not_billing");
    assessment.set("horizon_calls", horizon);
    assessment.set("estimated_net_tokens_saved", sub(avoided, overhead));
    assessment.set("pays_back_with_margin", paysBack);
  }
  let occupancy = null;
  if (usable(current) && usable(capacity) && num(capacity) != 0) occupancy = trueDivide(current, capacity);
  const pressure = flag("context_pressure") || (occupancy !== null && occupancy.value >= 0.70);
  const smaller = usable(current) && num(current) > 0 && usable(fresh) && num(fresh) <= 0.80 * toDouble(current);
  const health = pressure && smaller;
  assessment.set("context_occupancy", occupancy);
  assessment.set("context_pressure", pressure);
  assessment.set("materially_smaller_start", smaller);
  assessment.set("health_rotation_qualified", health);
  const explicit = flag("explicit_restart");
  const compactions = get("compactions");
  const age = get("session_age_seconds");
  const triggered = explicit || pressure || paysBack || (usable(compactions) && num(compactions) >= 2)
    || (mode === "daily" && usable(age) && num(age) >= 86400);
  const zero = (v) => usable(v) && num(v) == 0;

  if (notSent && !triggered) return ["CONTINUE", "no_observed_trigger", assessment];
  if (!flag("safe_boundary") || !zero(get("active_writers")) || !zero(get("pending_operations"))) {
    return ["WAIT_SAFE_BOUNDARY", "writes_or_operations_not_released", assessment];
  }
  if (!flag("checkpoint_readback") || !flag("checkpoint_current")) {
    return ["CHECKPOINT", "persist_and_verify_current_state", assessment];
  }
  if (notSent) {
    if (!explicit && !paysBack && !health) {
      return measured ? ["CONTINUE", "restart_does_not_pay_back", assessment]
        : ["CHECKPOINT_ONLY", "benefit_unmeasured", assessment];
    }
    if (!explicit && !flag("progress_since_restart")) return ["CONTINUE", "prevent_restart_without_progress", assessment];
    if (!flag("transfer_supported")) return ["MANUAL_HANDOFF", "no_authoritative_ownership_transfer", assessment];
    if (!flag("fresh_create_supported") || !flag("target_read_supported")) {
      return ["MANUAL_HANDOFF", "native_transport_unavailable", assessment];
    }
    return ["CREATE_FRESH", "record_identity_and_receipt_before_retry", assessment];
  }
  if (!flag("ack_matches")) return ["VERIFY_TARGET", "exact_goal_checkpoint_and_target_ack_required", assessment];
  if (!flag("transfer_supported")) return ["MANUAL_HANDOFF", "no_authoritative_ownership_transfer", assessment];
  return ["COMMIT_TRANSFER", "conditional_transfer_required_target_stays_readonly", assessment];
}

// -- the title gate ----------------------------------------------------------------------------

const TITLE_LIMIT = 8192;
const SUFFIX = " | started ";
// The characters Python's str.strip() removes.
const PY_SPACE = new Set(["\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0",
  "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009",
  "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]);

function pyStrip(s) {
  let start = 0;
  let end = s.length;
  while (start < end && PY_SPACE.has(s[start])) start++;
  while (end > start && PY_SPACE.has(s[end - 1])) end--;
  return s.slice(start, end);
}

const isDecimal = (c) => /^\p{Nd}$/u.test(c);

function stripSuffixes(title) {
  // a trailing run of " | started DD-MM", D and M any decimal digits (code points)
  const chars = Array.from(title);
  let end = chars.length;
  const width = SUFFIX.length + 5;
  while (end >= width && chars.slice(end - width, end - 5).join("") === SUFFIX
    && isDecimal(chars[end - 5]) && isDecimal(chars[end - 4]) && chars[end - 3] === "-"
    && isDecimal(chars[end - 2]) && isDecimal(chars[end - 1])) {
    end -= width;
  }
  return chars.slice(0, end).join("");
}

function titleUnavailable() {
  const output = new Map([["status", "TITLE_UNAVAILABLE"]]);
  return [output, 2, dumps(output) + "\n"];
}

function titleRun(bytes) {
  const value = readGateInput(bytes, TITLE_LIMIT);
  return value === undefined ? titleUnavailable() : titleDecide(value);
}

function titleDecide(value) {
  try {
    return title(value);
  } catch {
    return titleUnavailable(); // a date pushed outside the calendar, and the like
  }
}

function title(value) {
  if (!(value instanceof Map)) return titleUnavailable();
  const text = value.get("title");
  const started = value.get("started_at");
  const zoneName = value.has("timezone") ? value.get("timezone") : "UTC";
  if (typeof text !== "string" || pyStrip(text) === "" || typeof started !== "string"
    || typeof zoneName !== "string") return titleUnavailable();
  const moment = fromISOFormat(started.replaceAll("Z", "+00:00"));
  if (moment === null || moment.offset === null) return titleUnavailable();
  const base = pyStrip(stripSuffixes(pyStrip(text)));
  if (base === "") return titleUnavailable();
  const zone = zoneName === "UTC" || FAULT === "wrong" ? "UTC" : zoneName;
  if (zone !== "UTC" && !zoneExists(zone)) return titleUnavailable();
  const local = inZone(moment, zone);
  const date = `${String(local.day).padStart(2, "0")}-${String(local.month).padStart(2, "0")}`;
  const output = new Map([["title_base", base], ["started_at", isoFormat(moment)], ["timezone", zoneName],
    ["display_title", `${base} | started ${date}`]]);
  return [output, 0, dumps(output) + "\n"];
}

// Python 3.11's datetime.fromisoformat (its C implementation): a date (YYYY-MM-DD, YYYYMMDD, YYYY-Www[-D], YYYYWww[D]), any one separator, then a
// time [HH[:MM[:SS[.f...]]]] (colons all or none) and an offset (Z or +/-HH[:MM[:SS[.f]]]).
// Returns {year, month, day, hour, minute, second, micro, offset: seconds or null,
// offsetMicro} or null when Python raises.
function fromISOFormat(text) {
  // spec/gates/title.md, "Reading the start": the first lone surrogate at character 7, 8 or
  // 10 is read as T (TTL-020), any other fails; then the UTF-8 bytes are read, the separator
  // being one whole character (TTL-023).
  const points = Array.from(text);
  if (points.length < 7) return null;
  const lone = (c) => { const u = c.codePointAt(0); return u >= 0xd800 && u <= 0xdfff; };
  for (const k of [7, 8, 10]) {
    if (k < points.length && lone(points[k])) { points[k] = "T"; break; }
  }
  if (points.some(lone)) return null;
  const bytes = Buffer.from(points.join(""), "utf8");
  const sepAt = separator(bytes);
  if (sepAt === null) return null;
  return parseISO(bytes, sepAt);
}

function separator(bytes) {
  const len = bytes.length;
  const at = (k) => (k < len ? bytes[k] : 0);
  const digit = (k) => at(k) >= 48 && at(k) <= 57;
  const DASH = 45, W = 87;
  if (len === 7) return 7;
  if (at(4) === DASH) {
    if (at(5) !== W) return 10;
    if (len < 8) return null;
    if (len > 8 && at(8) === DASH) { if (len === 9) return null; return len > 10 && digit(10) ? 8 : 10; }
    return 8;
  }
  if (at(4) === W) {
    let idx = 7;
    while (idx < len && digit(idx)) idx++;
    return idx < 9 ? idx : idx % 2 === 0 ? 7 : 8;
  }
  return 8;
}

function parseISO(bytes, sep) {
  const len = bytes.length;
  const at = (k) => (k < len ? bytes[k] : 0); // C reads the terminating NUL
  const digit = (k) => at(k) >= 48 && at(k) <= 57;
  const digits = (k, n) => {
    let v = 0;
    for (let j = 0; j < n; j++) { if (!digit(k + j)) return null; v = v * 10 + at(k + j) - 48; }
    return v;
  };
  const DASH = 45, W = 87;

  // the date
  let p = 0;
  let year = digits(p, 4); if (year === null) return null; p += 4;
  const dashed = at(p) === DASH; if (dashed) p++;
  let month, day;
  if (at(p) === W) {
    p++;
    const week = digits(p, 2); if (week === null) return null; p += 2;
    let weekday = 1;
    if (p < sep) {
      if (dashed && at(p++) !== DASH) return null;
      weekday = digits(p, 1); if (weekday === null) return null;
    }
    const ymd = isoWeekToDate(year, week, weekday); if (ymd === null) return null;
    [year, month, day] = ymd;
  } else {
    month = digits(p, 2); if (month === null) return null; p += 2;
    if (dashed && at(p++) !== DASH) return null;
    day = digits(p, 2); if (day === null) return null;
  }
  const result = { year, month, day, hour: 0, minute: 0, second: 0, micro: 0, offset: null, offsetMicro: 0 };
  if (len > sep) {
    const lead = at(sep); // the separator is one character of 1 to 4 bytes
    const start = sep + (lead < 0x80 ? 1 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf0) === 0xf0 ? 4 : 2);
    let tz = start;
    do { if (at(tz) === 90 || at(tz) === 43 || at(tz) === DASH) break; } while (++tz < len);
    const time = hhmmssff(start, tz);
    if (time.rv < 0) return null;
    Object.assign(result, { hour: time.h, minute: time.m, second: time.s, micro: time.f });
    if (tz === len) { if (time.rv === 1) return null; }
    else if (at(tz) === 90) {
      if (at(tz + 1) !== 0) return null;
      result.offset = 0;
    } else {
      const sign = at(tz) === DASH ? -1 : 1;
      const zone = hhmmssff(tz + 1, len);
      if (zone.rv !== 0) return null;
      result.offset = sign * (zone.h * 3600 + zone.m * 60 + zone.s);
      result.offsetMicro = result.offset === 0 ? 0 : sign * zone.f; // zero whole seconds: +00:00 (TTL-026)
    }
  }
  function hhmmssff(start, end) {
    const vals = [0, 0, 0];
    let q = start;
    let colons = true;
    for (let k = 0; k < 3; k++) {
      const v = digits(q, 2); if (v === null) return { rv: -3 };
      vals[k] = v; q += 2;
      const c = at(q++);
      if (k === 0) colons = c === 58;
      if (q >= end) return { rv: c !== 0 ? 1 : 0, h: vals[0], m: vals[1], s: vals[2], f: 0 };
      if (colons && c === 58) continue;
      if (c === 46 || c === 44) break;
      if (!colons) { q--; continue; }
      return { rv: -4 };
    }
    // Three fields read without a fraction mark fall through here too: the C reader parses
    // whatever follows as the fraction's digits.
    const remains = end - q;
    const take = Math.min(remains, 6);
    let f = digits(q, take); if (f === null) return { rv: -3 };
    q += take;
    if (take < 6) f *= [100000, 10000, 1000, 100, 10][take - 1] ?? 1;
    while (digit(q)) q++;
    return { rv: at(q) !== 0 ? 1 : 0, h: vals[0], m: vals[1], s: vals[2], f }; // C stops at a NUL
  }
  // what Python's datetime() constructor and timezone() accept
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (result.hour > 23 || result.minute > 59 || result.second > 59 || result.micro > 999999) return null;
  if (result.offset !== null) {
    const total = result.offset * 1e6 + result.offsetMicro;
    if (Math.abs(total) >= 86400e6) return null;
  }
  return result;
}

const isLeap = (y) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
function daysInMonth(y, m) { return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]; }
function ordinal(y, m, d) { // days since 0001-01-01 plus one, as Python's toordinal
  const py = y - 1;
  let days = py * 365 + Math.trunc(py / 4) - Math.trunc(py / 100) + Math.trunc(py / 400);
  for (let k = 1; k < m; k++) days += daysInMonth(y, k);
  return days + d;
}
function fromOrdinal(n) {
  const date = new Date(Date.UTC(2000, 0, 1) + (n - ordinal(2000, 1, 1)) * 86400000);
  return [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
}
function isoWeekToDate(year, week, weekday) {
  if (week <= 0 || week >= 53) {
    const first = (ordinal(year, 1, 1) + 6) % 7;
    if (!(week === 53 && (first === 3 || (first === 2 && isLeap(year))))) return null;
  }
  if (weekday <= 0 || weekday >= 8) return null;
  const first = ordinal(year, 1, 1);
  const firstWeekday = (first + 6) % 7;
  let monday = first - firstWeekday;
  if (firstWeekday > 3) monday += 7;
  const n = monday + (week - 1) * 7 + weekday - 1;
  return n >= 1 ? fromOrdinal(n) : null;
}

function pad(n, width = 2) { return String(n).padStart(width, "0"); }

function isoFormat(m) {
  let text = `${pad(m.year, 4)}-${pad(m.month)}-${pad(m.day)}T${pad(m.hour)}:${pad(m.minute)}:${pad(m.second)}`;
  if (m.micro) text += `.${pad(m.micro, 6)}`;
  let total = m.offset * 1e6 + m.offsetMicro; // a timedelta: negative when its days are
  const sign = total < 0 ? "-" : "+";
  total = Math.abs(total);
  const micro = total % 1e6;
  let seconds = (total - micro) / 1e6;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  seconds %= 60;
  text += `${sign}${pad(hours)}:${pad(minutes)}`;
  if (micro) text += `:${pad(seconds)}.${pad(micro, 6)}`;
  else if (seconds) text += `:${pad(seconds)}`;
  return text;
}

function zoneExists(zone) {
  // Python's zoneinfo: a normalised relative key naming a file of the system's zone database;
  // the conversion itself uses the runtime's copy of the same database.
  if (zone === "" || zone.startsWith("/") || zone.includes("\0") || zone.split("/").some((p) => p === "." || p === ".." || p === "")) return false;
  if (existsSync("/usr/share/zoneinfo")) {
    try { if (!statSync(`/usr/share/zoneinfo/${zone}`).isFile()) return false; } catch { return false; }
  }
  try { new Intl.DateTimeFormat("en", { timeZone: zone }); return true; } catch { return false; }
}

function inZone(m, zone) {
  // The calendar date of the moment in the zone; out of range years raise, as Python does.
  const utcMs = Date.UTC(2000, 0, 1) + (ordinal(m.year, m.month, m.day) - ordinal(2000, 1, 1)) * 86400000
    + ((m.hour * 60 + m.minute) * 60 + m.second) * 1000 - m.offset * 1000 + Math.floor((m.micro - m.offsetMicro) / 1000);
  let year, month, day;
  if (zone === "UTC" && m.offset === 0 && m.offsetMicro === 0) return { year: m.year, month: m.month, day: m.day };
  if (zone === "UTC") {
    const d = new Date(utcMs);
    [year, month, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  } else {
    const parts = Object.fromEntries(new Intl.DateTimeFormat("en-US", {
      timeZone: zone, year: "numeric", month: "numeric", day: "numeric", era: "short",
    }).formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
    year = parts.era === "BC" ? 1 - Number(parts.year) : Number(parts.year);
    [month, day] = [Number(parts.month), Number(parts.day)];
    // Python converts through UTC first: that step must stay in range too
    const u = new Date(utcMs);
    if (u.getUTCFullYear() < 1 || u.getUTCFullYear() > 9999) throw new Error("date value out of range");
  }
  if (year < 1 || year > 9999) throw new Error("date value out of range");
  return { year, month, day };
}

// -- the harness protocol ----------------------------------------------------------------------

// A gate of a module beside this file: plain values in, its output printed as JSON.
function moduleGate(gate) {
  const answer = ([output, exitCode]) => [output, exitCode, JSON.stringify(output) + "\n"];
  const exact = MODULES[gate].EXACT_INPUT;
  return [(value) => answer(MODULES[gate].decide(exact ? value : plain(value))), (bytes) => answer(MODULES[gate].run(bytes))];
}

function moduleAnswer(seq, kase) {
  misbehave(kase.id);
  const gate = MODULES[kase.gate];
  const [output, exitCode] = Object.hasOwn(kase, "input") ? gate.decide(kase.input)
    : gate.run(Buffer.from(Object.hasOwn(kase, "input_text") ? kase.input_text : kase.input_base64,
      Object.hasOwn(kase, "input_text") ? "utf8" : "base64"));
  return { seq, output, exit_code: exitCode };
}

const GATES = { restart: [restartDecide, restartRun], title: [titleDecide, titleRun],
  ...Object.fromEntries(Object.keys(MODULES).map((gate) => [gate, moduleGate(gate)])) };

function globMatch(pattern, text) {
  const source = pattern.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "s").test(text);
}

function misbehave(caseId) {
  if (!FAULT || !globMatch(FAULT_CASE, caseId)) return;
  if (FAULT === "crash") { process.stderr.write(`adapter.mjs: crashing on ${caseId}\n`); process.exit(70); }
  if (FAULT === "hang") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3600e3); // never answer
}

function answer(seq, kase) {
  misbehave(kase.get("id"));
  const entry = GATES[kase.get("gate")];
  if (!entry) return { seq, skipped: true, message: `the ${kase.get("gate")} gate is not implemented` };
  const [decide, run] = entry;
  let result;
  if (kase.has("input")) result = decide(kase.get("input"));
  else if (kase.has("input_text")) result = run(Buffer.from(kase.get("input_text"), "utf8"));
  else result = run(Buffer.from(kase.get("input_base64"), "base64"));
  const [output, exitCode, stdout] = result;
  return new Map([["seq", BigInt(seq)], ["output", output], ["exit_code", BigInt(exitCode)], ["stdout", stdout]]);
}

function send(message) {
  process.stdout.write((message instanceof Map ? dumps(message) : JSON.stringify(message)) + "\n");
}

function serve() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    // A case of a module gate is read with JSON.parse, which is fast on a 24 MiB line; the
    // restart and title gates need this file's reader, which keeps 1.0 apart from 1.
    const quick = JSON.parse(line);
    if (quick.cmd === "run" && Object.hasOwn(MODULES, quick.case?.gate)) {
      try {
        // A gate that reads its input exactly (EXACT_INPUT) gets it as load.mjs reads it.
        if (MODULES[quick.case.gate].EXACT_INPUT && Object.hasOwn(quick.case, "input")) {
          quick.case.input = readJSON(line, PYTHON).get("case").get("input");
        }
        send(moduleAnswer(quick.seq, quick.case));
      } catch (error) {
        send({ seq: quick.seq, errored: true, context: { message: String(error), traceback: String(error.stack) } });
      }
      return;
    }
    const request = readJSON(line, PYTHON);
    const command = request.get("cmd");
    if (command === "start") {
      if (request.get("version") !== 1n) {
        process.stderr.write(`adapter.mjs: protocol version ${request.get("version")} is not supported\n`);
        process.exit(1);
      }
      send({ ready: true, version: 1, implementation: {
        name: NAME, language: "javascript", version: VERSION,
        homepage: "https://spec.passdown.dev/conformance/", gates: GATE_VERSIONS,
        profiles: PROFILES.filter((profile) => PROFILE_GATES[profile].every((g) => Object.hasOwn(GATE_VERSIONS, g))) } });
    } else if (command === "run") {
      const seq = Number(request.get("seq"));
      try {
        send(answer(seq, request.get("case")));
      } catch (error) { // report it, and stay up for the next case
        send({ seq, errored: true, context: { message: String(error), traceback: String(error.stack) } });
      }
    } else if (command === "stop") {
      lines.close();
    }
  });
}

function notRun(gate, wanted) {
  // Why this adapter does not run a case of `gate` written for version `wanted`: a gate it does
  // not implement, another major version, or a newer one; else null.
  if (!Object.hasOwn(GATE_VERSIONS, gate)) return `the ${gate} gate is not implemented`;
  if (!wanted) return null;
  const have = GATE_VERSIONS[gate].split(".").map(Number);
  const want = wanted.split(".").map(Number);
  const older = have[1] < want[1] || (have[1] === want[1] && have[2] < want[2]);
  if (have[0] !== want[0] || older) return `the cases are for ${gate} ${wanted}; this adapter implements ${gate} ${GATE_VERSIONS[gate]}`;
  return null;
}

function program(gate) {
  const reason = notRun(gate, process.env.PASSDOWN_GATE_VERSION || "");
  if (reason) { process.stdout.write(JSON.stringify({ skipped: true, message: reason }) + "\n"); process.exitCode = SKIP_STATUS; return; }
  const entry = GATES[gate];
  const chunks = [];
  process.stdin.on("data", (chunk) => chunks.push(chunk));
  process.stdin.on("end", () => {
    misbehave(process.env.PASSDOWN_CASE_ID || "*");
    const [, exitCode, stdout] = entry[1](Buffer.concat(chunks));
    process.stdout.write(stdout);
    process.exitCode = exitCode;
  });
}

if (process.argv.length > 2) program(process.argv[process.argv.length - 1]);
else serve();
