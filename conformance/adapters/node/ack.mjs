// The `ack` gate (spec/ack.md, "Verifying an ACK"), written from the spec for the Node.js
// adapter: whether an ACK matches a fresh readback of packet, registry, checkpoint and checkout.
// Input and output are plain JavaScript values (objects, arrays, strings, numbers, booleans,
// null) as JSON.parse gives them; `run` takes the raw input bytes.
//
// Digests are digests.mjs's (blake3 from @noble/hashes, installed by `npm ci` at the repository's
// root; sha256 from node:crypto): the continue checkpoint is hashed over its RFC 8785 form, the
// packet over its canonical text (spec/digest.md).

import { CanonicalError, canonicalJSON, canonicalPacket, checkDigest, sameDigest } from "./digests.mjs";

export const VERSION = "1.0.0";
const MAX_INPUT_BYTES = 24 * 1024 * 1024; // ACK-120
const CLOCK_SKEW_SECONDS = 5; // ACK-112
const KEYS = new Set(["ack", "packet_text", "registry", "checkout", "dirty", "checkpoint", "now", "clock_skew"]);
const REQUIRED = ["ack", "packet_text", "registry"];
const STATES_FOR_STATUS = { READY_READONLY: ["created", "acknowledged"], TAKEOVER: ["committed", "taken_over"] };
// GEN-017: ECMA-262's \s.
const WHITE_SPACE = new Set("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff");
const SKIP = Symbol("skip");

// -- values ------------------------------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isNone = (v) => v === null || v === undefined;
const get = (object, key) => (isObject(object) && Object.hasOwn(object, key) ? object[key] : null);

// JSON values compared as equal values: objects by their members in any order, and a boolean
// equal to the number it stands for (true is 1), as the spec's field comparisons read them.
function same(a, b) {
  if (isNone(a) || isNone(b)) return isNone(a) && isNone(b);
  const numeric = (v) => (typeof v === "boolean" ? Number(v) : v);
  if (typeof numeric(a) === "number" && typeof numeric(b) === "number") return numeric(a) === numeric(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, k) => same(item, b[k]));
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

function words(text) {
  const out = [];
  let word = "";
  for (const char of text) {
    if (WHITE_SPACE.has(char)) { if (word) out.push(word); word = ""; } else word += char;
  }
  if (word) out.push(word);
  return out;
}

// -- timestamps (GEN-004, GEN-020, ACK-129) ----------------------------------------------------

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const EARLIEST_MS = -62135596800000n; // 0001-01-01T00:00:00.000Z
const LATEST_MS = 253402300799999n; // 9999-12-31T23:59:59.999Z

function digits(text, start, end) {
  const part = text.slice(start, end);
  return part.length === end - start && /^[0-9]+$/.test(part) ? Number(part) : null;
}

function daysFromCivil(y, m, d) {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

// An RFC 3339 timestamp with an offset as an exact rational [numerator, denominator] of seconds
// since the epoch, or null.
export function instant(text) {
  if (typeof text !== "string" || text.length > 64 || text.length < 20) return null;
  if (text[4] !== "-" || text[7] !== "-" || text[13] !== ":" || text[16] !== ":" || !"Tt ".includes(text[10])) return null;
  const [year, month, day, hour, minute, second] = [[0, 4], [5, 7], [8, 10], [11, 13], [14, 16], [17, 19]]
    .map(([a, b]) => digits(text, a, b));
  if ([year, month, day, hour, minute, second].includes(null)) return null;
  let position = 19;
  let fraction = "";
  if (text[position] === ".") {
    let end = position + 1;
    while (end < text.length && text[end] >= "0" && text[end] <= "9") end++;
    fraction = text.slice(position + 1, end);
    if (!fraction) return null;
    position = end;
  }
  const zone = text.slice(position);
  let zoneHours = 0;
  let zoneMinutes = 0;
  if (zone !== "Z" && zone !== "z") {
    if (zone.length !== 6 || !"+-".includes(zone[0]) || zone[3] !== ":") return null;
    zoneHours = digits(zone, 1, 3);
    zoneMinutes = digits(zone, 4, 6);
    if (zoneHours === null || zoneMinutes === null) return null;
  }
  const days = month === 2 && leap(year) ? 29 : DAYS[(month - 1) % 12];
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59)) return null;
  if (zoneHours > 23 || zoneMinutes > 59) return null;
  const offset = (zoneHours * 60 + zoneMinutes) * (zone[0] === "-" ? -1 : 1);
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86400n
    + BigInt(hour * 3600 + minute * 60 + second - offset * 60);
  const ms = seconds * 1000n + BigInt((fraction + "000").slice(0, 3));
  if (ms < EARLIEST_MS || ms > LATEST_MS) return null;
  const denominator = 10n ** BigInt(fraction.length);
  return [seconds * denominator + BigInt(fraction || "0"), denominator];
}

const compare = ([a, b], [c, d]) => { const x = a * d; const y = c * b; return x < y ? -1 : x > y ? 1 : 0; };
const add = ([a, b], [c, d]) => [a * d + c * b, b * d];

// A finite double as an exact rational.
function exact(x) {
  if (Number.isInteger(x)) return [BigInt(x), 1n];
  let denominator = 1n;
  let value = x;
  while (!Number.isInteger(value)) { value *= 2; denominator *= 2n; }
  return [BigInt(value), denominator];
}

// -- the packet's fields (spec/packet.md) ------------------------------------------------------

const KEY_LINE = /^([A-Z][A-Z0-9_]*(?:[ \t]*\/[ \t]*[A-Z][A-Z0-9_]*)*):(?: ([\s\S]*)|[ \t]*)$/;
const FIELDS = new Set(["GOAL_ID", "OUTCOME / ACCEPTANCE", "AUTHORITY", "POLICY", "SOURCE", "WORKING_STATE",
  "PROGRESS", "DECISIONS", "LIVE_WORK", "NEXT_SAFE_ACTION", "RESTART_ID", "CHECKPOINT_DIGEST"]);

function fieldValue(lines) {
  const kept = lines.map((line) => line.replace(/[ \t]+$/, ""));
  while (kept.length && !kept[0]) kept.shift();
  while (kept.length && !kept[kept.length - 1]) kept.pop();
  return kept.join("\n");
}

function packetValues(text) {
  const values = {};
  let key = null;
  let lines = [];
  let blanks = 0;
  const close = () => { if (key !== null && FIELDS.has(key) && !Object.hasOwn(values, key)) values[key] = fieldValue(lines); };
  for (const line of text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n")) {
    if (!line.replace(/^[ \t]+|[ \t]+$/g, "")) { blanks++; continue; }
    if (line.startsWith("  ")) {
      if (key !== null) { for (let k = 0; k < blanks; k++) lines.push(""); lines.push(line.slice(2).replace(/[ \t]+$/, "")); }
      blanks = 0;
      continue;
    }
    blanks = 0;
    const match = KEY_LINE.exec(line);
    if (!match) continue;
    close();
    key = match[1];
    lines = [(match[2] || "").replace(/[ \t]+$/, "")];
  }
  close();
  return values;
}

// -- the rules (ACK-101 to ACK-116) ------------------------------------------------------------

function dirtyMap(entries) {
  if (!Array.isArray(entries)) return null;
  const out = new Map();
  for (const entry of entries) {
    if (!isObject(entry)) return null;
    const [path, digest] = [get(entry, "path"), get(entry, "digest")];
    if (typeof path !== "string" || typeof digest !== "string" || out.has(path)) return null;
    out.set(path, digest);
  }
  return out;
}

function findAttempt(registry, restartId) {
  const attempts = get(registry, "attempts");
  if (!Array.isArray(attempts) || typeof restartId !== "string") return null;
  const matches = attempts.filter((a) => isObject(a) && get(a, "restart_id") === restartId);
  return matches.length === 1 ? matches[0] : null;
}

function check(ack, packetText, registry, checkout, dirty, checkpoint, now, skew) {
  const codes = new Set();
  const skipped = new Set();
  const fail = (code) => codes.add(code);
  const packet = packetValues(packetText);
  const field = (name) => (Object.hasOwn(packet, name) ? packet[name] : null);
  const attempt = findAttempt(registry, get(ack, "restart_id"));
  const block = checkpoint === null ? null : get(checkpoint, "x-passdown/checkpoint");
  const blockValue = (name) => (checkpoint === null ? SKIP : get(block, name));

  // ACK-101
  const status = get(ack, "status");
  const states = typeof status === "string" && Object.hasOwn(STATES_FOR_STATUS, status) ? STATES_FOR_STATUS[status] : null;
  if (states === null) fail("ack.wrong_status");
  else if (attempt !== null && !states.includes(get(attempt, "state"))) fail("ack.wrong_status");
  // ACK-102
  const goal = get(ack, "goal_id");
  for (const fresh of [field("GOAL_ID"), get(get(registry, "policy"), "goal_id"), blockValue("goal_id")]) {
    if (fresh !== SKIP && !same(goal, fresh)) fail("ack.goal_mismatch");
  }
  // ACK-103
  if (!same(get(ack, "restart_id"), field("RESTART_ID")) || attempt === null) fail("ack.restart_mismatch");
  if (attempt !== null) {
    // ACK-104, ACK-105
    if (!same(get(ack, "source_id"), get(attempt, "source_id"))) fail("ack.source_mismatch");
    const target = get(ack, "target_id");
    const fresh = get(attempt, "target_id");
    if (isNone(fresh) || !same(target, fresh)) fail("ack.target_mismatch");
    const receipt = get(get(attempt, "creation"), "receipt");
    if (isObject(receipt) && !same(get(receipt, "target_id"), target)) fail("ack.target_mismatch");
  }
  // ACK-106 to ACK-109
  const digestChecks = [["ack.digest_mismatch", get(ack, "checkpoint_digest")],
    ["ack.packet_digest_mismatch", field("CHECKPOINT_DIGEST")]];
  if (attempt !== null) digestChecks.push(["ack.registry_digest_mismatch", get(attempt, "checkpoint_digest")]);
  let canonical = null;
  try { canonical = canonicalPacket(packetText); } catch (error) {
    if (!(error instanceof CanonicalError)) throw error;
    fail("ack.digest_mismatch");
  }
  if (canonical !== null) {
    for (const [code, stated] of digestChecks) {
      const problem = checkDigest(stated, canonical);
      if (problem === "mismatch") fail(code);
      else if (problem !== null) fail("ack.digest_unconfirmed");
    }
  }
  // ACK-110
  if (attempt === null) skipped.add("checkpoint");
  else {
    const stated = get(attempt, "continue_checkpoint_digest");
    if (isNone(stated) || checkpoint === null) fail("ack.checkpoint_changed");
    else {
      let bytes = null;
      try { bytes = Buffer.from(canonicalJSON(checkpoint), "utf8"); } catch (error) {
        if (!(error instanceof CanonicalError)) throw error;
        fail("ack.checkpoint_changed");
      }
      if (bytes !== null) {
        const problem = checkDigest(stated, bytes);
        if (problem === "mismatch") fail("ack.checkpoint_changed");
        else if (problem !== null) fail("ack.digest_unconfirmed");
      }
    }
  }
  // ACK-111, ACK-112
  const readAt = instant(get(ack, "read_at"));
  if (readAt === null) fail("ack.stale");
  else {
    for (const stamp of [attempt !== null ? get(attempt, "registered_at") : null, blockValue("written_at")]) {
      if (stamp === SKIP || isNone(stamp)) continue;
      const moment = instant(stamp);
      if (moment === null || compare(readAt, moment) < 0) fail("ack.stale");
    }
    if (now === null) skipped.add("clock");
    else if (compare(readAt, add(now, skew)) > 0) fail("ack.read_in_future");
  }
  // ACK-113
  const action = get(ack, "first_safe_action");
  const next = field("NEXT_SAFE_ACTION");
  if (typeof action !== "string" || next === null || words(action).join(" ") !== words(next).join(" ")) {
    fail("ack.next_action_mismatch");
  }
  // ACK-114
  if (checkout === null) skipped.add("checkout");
  else {
    const stated = isObject(get(ack, "checkout")) ? get(ack, "checkout") : {};
    for (const part of ["repository", "branch", "head"]) {
      if (!same(get(stated, part), get(checkout, part))) fail("ack.checkout_mismatch");
    }
  }
  // ACK-115
  if (dirty === null) skipped.add("dirty_artifacts");
  else {
    const stated = dirtyMap(get(ack, "dirty_artifacts"));
    const fresh = dirtyMap(dirty);
    if (stated === null) fail("ack.dirty_mismatch");
    else if (stated.size !== fresh.size || [...fresh].some(([path, digest]) => !stated.has(path) || !sameDigest(stated.get(path), digest))) {
      fail("ack.dirty_mismatch");
    }
  }
  // ACK-116
  if (status === "TAKEOVER") {
    const report = get(ack, "takeover");
    const ownership = attempt !== null ? get(attempt, "ownership") : null;
    if (!isObject(report) || !isObject(ownership)) fail("ack.takeover_mismatch");
    else {
      for (const [stated, fresh] of [[get(report, "owner_id"), get(ownership, "to_id")],
        [get(report, "owner_id"), get(ack, "target_id")],
        [get(report, "fencing_epoch"), get(ownership, "fencing_epoch")],
        [get(report, "committed_at"), get(ownership, "committed_at")],
        [get(report, "checkpoint_revision"), blockValue("revision")]]) {
        if (fresh !== SKIP && !same(stated, fresh)) fail("ack.takeover_mismatch");
      }
    }
  }
  // ACK-117 to ACK-119: every failed rule's code and every skipped part, sorted, each once
  const sorted = (set) => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return codes.size
    ? [{ outcome: "rejected", codes: sorted(codes), skipped: sorted(skipped) }, 1]
    : [{ outcome: "accepted", codes: [], skipped: sorted(skipped) }, 0];
}

const unusable = (code) => [{ outcome: "unusable", codes: [code], skipped: [] }, 2];

// The gate on a parsed input value (ACK-120: what cannot be verified at all is unusable).
export function decide(value) {
  if (!isObject(value) || !Object.keys(value).every((k) => KEYS.has(k)) || !REQUIRED.every((k) => Object.hasOwn(value, k))) {
    return unusable("ack.input_invalid");
  }
  const part = (name) => get(value, name);
  const kinds = [["ack", isObject], ["packet_text", (v) => typeof v === "string"], ["registry", isObject],
    ["checkout", (v) => v === null || isObject(v)], ["dirty", (v) => v === null || Array.isArray(v)],
    ["checkpoint", (v) => v === null || isObject(v)], ["now", (v) => v === null || typeof v === "string"]];
  if (!kinds.every(([name, test]) => test(part(name)))) return unusable("ack.input_invalid");
  if (part("dirty") !== null && dirtyMap(part("dirty")) === null) return unusable("ack.input_invalid");
  const now = part("now") === null ? null : instant(part("now"));
  if (part("now") !== null && now === null) return unusable("ack.input_invalid");
  const skew = isNone(part("clock_skew")) ? CLOCK_SKEW_SECONDS : part("clock_skew");
  if (typeof skew !== "number" || !(skew >= 0 && skew < 1e9)) return unusable("ack.input_invalid");
  return check(part("ack"), part("packet_text"), part("registry"), part("checkout"), part("dirty"),
    part("checkpoint"), now, exact(skew));
}

// The gate on raw input bytes: at most 24 MiB of UTF-8, one strict JSON value.
export function run(bytes) {
  if (bytes.length > MAX_INPUT_BYTES) return unusable("ack.input_unreadable");
  let value;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    return unusable("ack.input_unreadable");
  }
  return decide(value);
}
