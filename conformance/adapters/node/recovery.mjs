// The `recovery` gate (spec/gates/recovery.md), written from the spec for the Node.js adapter:
// which interrupted sessions come back after an unplanned exit, in which order and within
// which bounds. `decide` takes a parsed input value, `run` the raw input bytes.

export const VERSION = "1.0.0";
const MAX_INPUT_BYTES = 4 * 1024 * 1024; // REC-001
const MAX_CANDIDATES = 10000;
const MAX_SAFE = 9007199254740991; // GEN-018
const DEFAULTS = { max_age_ms: 7200000, max_sessions: 50, mtime_slack_ms: 60000 };
const RECOVER = new Set(["torn_log", "interrupted", "aborted_disposed", "inbox_pending"]);
const LEFT_BY_KIND = { completed: "completed", blocked: "blocked", error: "error", "max-tokens": "max_tokens", forked: "forked" };
const LEFT_BY_CAUSE = { user: "aborted_by_user", parent: "aborted_by_parent", hook: "aborted_by_hook", legacy: "aborted_legacy" };
const QUEUES = ["next-turn", "next-step"];
// GEN-017: ECMA-262's \s.
const WHITE_SPACE = /^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$/;
// A JSON value nested deeper than this is not read (the reference's reader stops near it).
const MAX_DEPTH = 900;

// A broken input rule at `path` (the observe gate uses this one, and isObject and count).
export class Invalid extends Error {
  constructor(path) { super(path); this.path = path; }
}

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const get = (object, key) => (Object.hasOwn(object, key) ? object[key] : null);

// GEN-018: an integer by its value, 0 or more, at most 2^53 - 1; never a boolean.
export function count(value) {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_SAFE ? value : null;
}

// GEN-003, GEN-016: 1 to 512 code points, not only white space, no control character, Unicode text.
function isId(value) {
  if (typeof value !== "string" || !value.isWellFormed()) return false;
  const points = [...value];
  if (points.length < 1 || points.length > 512 || WHITE_SPACE.test(value)) return false;
  return points.every((c) => { const code = c.codePointAt(0); return code >= 0x20 && !(code >= 0x7f && code <= 0x9f); });
}

// Strings compared by code points, as REC-060 orders ties.
function byCodePoints(a, b) {
  const [x, y] = [[...a], [...b]];
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const d = x[k].codePointAt(0) - y[k].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

function requiredCount(object, key, path) {
  const number = count(get(object, key));
  if (number === null) throw new Invalid(`${path}.${key}`);
  return number;
}

function optionalCount(object, key, path) {
  return get(object, key) === null ? DEFAULTS[key] : requiredCount(object, key, path);
}

function inboxOk(inbox) {
  return isObject(inbox) && QUEUES.every((q) => { const held = get(inbox, q); return held === null || count(held) !== null || Array.isArray(held); });
}

function entryOf(index, item) {
  const entry = { index, id: null, parent_id: null, reason: null, left: null };
  if (!isObject(item)) { entry.reason = "invalid_session"; return entry; }
  if (isId(get(item, "id"))) entry.id = get(item, "id");
  const parent = get(item, "parent_id");
  const turnEnd = get(item, "last_turn_end");
  const torn = Object.hasOwn(item, "torn_log") ? item.torn_log : false;
  const inbox = get(item, "inbox");
  const lastEvent = get(item, "last_event_ms");
  const mtime = get(item, "log_mtime_ms");
  if (entry.id === null || !(parent === null || isId(parent))
      || !(turnEnd === null || (isObject(turnEnd) && typeof get(turnEnd, "kind") === "string"))
      || typeof torn !== "boolean" || !(inbox === null || inboxOk(inbox))
      || !(lastEvent === null || count(lastEvent) !== null) || !(mtime === null || count(mtime) !== null)) {
    entry.reason = "invalid_session";
    return entry;
  }
  Object.assign(entry, { parent_id: parent, turnEnd, torn, inbox: inbox || {}, lastEvent, mtime });
  return entry;
}

function ageReason(entry, now, maxAge, slack) {
  if (entry.lastEvent === null) {
    return entry.mtime !== null && now - entry.mtime > maxAge + slack ? "stale_by_mtime" : "age_unknown";
  }
  if (entry.lastEvent > now) return "age_unknown";
  return now - entry.lastEvent > maxAge ? "too_old" : null;
}

function waiting(held) {
  return Array.isArray(held) ? held.length > 0 : held !== null && held !== undefined && count(held) > 0;
}

function criterion(entry) {
  const kind = entry.turnEnd !== null ? get(entry.turnEnd, "kind") : null;
  const cause = kind === "aborted" ? get(entry.turnEnd, "cause") : null;
  const causeKind = isObject(cause) ? get(cause, "kind") : null;
  if (entry.torn) return "torn_log";
  if (kind === "interrupted") return "interrupted";
  if (kind === "aborted" && causeKind === "disposed") return "aborted_disposed";
  if (QUEUES.some((q) => waiting(get(entry.inbox, q)))) return "inbox_pending";
  if (kind === null) return "no_turn";
  const table = kind === "aborted" ? LEFT_BY_CAUSE : LEFT_BY_KIND;
  const key = kind === "aborted" ? causeKind : kind;
  if (typeof key === "string" && Object.hasOwn(table, key)) return table[key];
  return kind === "aborted" ? "aborted_cause_unknown" : "unknown_turn_end";
}

// The non-live ancestors that must come back first, nearest first, or why it cannot come back.
function ancestors(entry, candidates, live) {
  const chain = [];
  const seen = new Set([entry.id]);
  let parent = entry.parent_id;
  while (parent !== null && !live.has(parent)) {
    if (seen.has(parent)) return "parent_cycle";
    const ancestor = candidates.get(parent);
    if (ancestor === undefined) return "parent_not_live";
    seen.add(parent);
    chain.push(parent);
    parent = ancestor.parent_id;
  }
  return chain;
}

function plan(value) {
  if (!isObject(value)) throw new Invalid("$");
  const now = requiredCount(value, "now_ms", "$");
  let bounds = get(value, "bounds");
  if (bounds === null) bounds = {};
  else if (!isObject(bounds)) throw new Invalid("$.bounds");
  const maxAge = optionalCount(bounds, "max_age_ms", "$.bounds");
  const maxSessions = optionalCount(bounds, "max_sessions", "$.bounds");
  const slack = optionalCount(bounds, "mtime_slack_ms", "$.bounds");
  let liveIds = get(value, "live_session_ids");
  if (liveIds === null) liveIds = [];
  if (!Array.isArray(liveIds) || liveIds.length > MAX_CANDIDATES) throw new Invalid("$.live_session_ids");
  liveIds.forEach((id, k) => { if (!isId(id)) throw new Invalid(`$.live_session_ids[${k}]`); });
  const live = new Set(liveIds);
  const sessions = get(value, "sessions");
  if (!Array.isArray(sessions) || sessions.length > MAX_CANDIDATES) throw new Invalid("$.sessions");

  const entries = sessions.map((item, k) => entryOf(k, item));
  const seen = new Map();
  for (const e of entries) if (e.reason === null) seen.set(e.id, (seen.get(e.id) || 0) + 1);
  for (const e of entries) {
    if (e.reason !== null) continue;
    if (seen.get(e.id) > 1) e.reason = "duplicate_id";
    else if (live.has(e.id)) e.reason = "already_live";
    else e.reason = ageReason(e, now, maxAge, slack) || criterion(e);
  }
  const candidates = new Map(entries.filter((e) => RECOVER.has(e.reason)).map((e) => [e.id, e]));
  const chains = new Map();
  for (const e of candidates.values()) {
    const chain = ancestors(e, candidates, live);
    if (typeof chain === "string") e.left = chain; else chains.set(e.id, chain);
  }
  const ranked = [...chains.keys()].sort((a, b) => (candidates.get(b).lastEvent - candidates.get(a).lastEvent) || byCodePoints(a, b));
  const chosen = new Set();
  const recovered = [];
  for (const id of ranked) {
    if (chosen.has(id)) continue;
    const needed = [...chains.get(id)].reverse().filter((a) => !chosen.has(a)).concat([id]);
    if (chosen.size + needed.length > maxSessions) { candidates.get(id).left = "over_limit"; continue; }
    for (const member of needed) {
      chosen.add(member);
      candidates.get(member).left = null;
      recovered.push(candidates.get(member));
    }
  }
  const left = [];
  for (const e of entries) {
    if (chosen.has(e.id) && RECOVER.has(e.reason) && e.left === null) continue;
    left.push({ index: e.index, id: e.id, reason: RECOVER.has(e.reason) ? e.left : e.reason });
  }
  return {
    outcome: recovered.length ? "recover" : "nothing_to_recover",
    recovered: recovered.map((e) => ({ id: e.id, parent_id: e.parent_id, reason: e.reason })),
    left,
    bounds: { max_age_ms: maxAge, max_sessions: maxSessions, mtime_slack_ms: slack },
  };
}

const invalid = (field) => [{ outcome: "invalid_input", field }, 2];

export function decide(value) {
  try {
    return [plan(value), 0];
  } catch (error) {
    if (error instanceof Invalid) return invalid(error.path);
    throw error;
  }
}

// Whether strict JSON text repeats a key in an object, or nests deeper than MAX_DEPTH; the
// text is known to be valid JSON.
function repeatsOrTooDeep(text) {
  let i = 0;
  const ws = () => { while (" \t\n\r".includes(text[i]) && i < text.length) i++; };
  const string = () => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const value = (depth) => {
    if (depth > MAX_DEPTH) return true;
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      ws();
      const keys = new Set();
      const close = c === "{" ? "}" : "]";
      if (text[i] === close) { i++; return false; }
      for (;;) {
        ws();
        if (c === "{") {
          const key = string();
          if (keys.has(key)) return true;
          keys.add(key);
          ws();
          i++; // the colon
        }
        if (value(depth + 1)) return true;
        ws();
        if (text[i++] === close) return false;
      }
    }
    if (c === '"') { string(); return false; }
    while (i < text.length && !",]} \t\n\r".includes(text[i])) i++;
    return false;
  };
  return value(1);
}

// REC-001: at most 4 MiB of strict JSON (UTF-8 without a byte order mark, no repeated key, no
// NaN or infinity); anything else is invalid input at `$`.
export function run(bytes) {
  const value = readStrict(bytes, MAX_INPUT_BYTES);
  return value === undefined ? invalid("$") : decide(value);
}

// Strict JSON input of at most `limit` bytes (UTF-8 without a byte order mark, no repeated key,
// no NaN or infinity, not nested too deep): the value, or undefined. The observe gate reads its
// input the same way.
export function readStrict(bytes, limit) {
  if (bytes.length > limit) return undefined;
  let text;
  let value;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return repeatsOrTooDeep(text) ? undefined : value;
}
