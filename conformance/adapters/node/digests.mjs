// Digests for the Node.js adapter, from spec/digest.md alone: the digest strings (DIG-001 to
// DIG-005), hashing (blake3 from @noble/hashes, MIT; sha256 from node:crypto) and the canonical
// bytes of each form (JCS, the packet's text, a packet's JSON projection rendered as text). The
// `digest` gate (digest.mjs) and the `ack` gate (ack.mjs) both hash through this module.
//
// API:
//   HASHERS                      {blake3, sha256}: bytes -> 64 lowercase hex characters
//   digestString(bytes, alg)     "alg:hex"
//   parseDigest(text)            [algorithm, hex], or "malformed" or "unknown_algorithm"
//   checkDigest(stated, bytes)   null (a match), "mismatch", "malformed" or "unknown_algorithm"
//   sameDigest(a, b)             whether two digest strings are one well-formed digest
//   canonicalJSON(value)         the RFC 8785 text of a value (load.mjs's values: Map, BigInt,
//                                Float; or JSON.parse's): throws CanonicalError(code, path)
//   canonicalPacket(text)        the packet text's canonical bytes (DIG-020 to DIG-025)
//   renderProjection(map)        the packet text a JSON projection renders as (DIG-064)
//   isProjection(text)           whether packet content is its JSON projection (DIG-064)

import { createHash } from "node:crypto";
import { blake3 } from "@noble/hashes/blake3.js";
import { LIMITS, isFloat, isInt } from "./load.mjs";

export const HASHERS = {
  blake3: (bytes) => Buffer.from(blake3(bytes)).toString("hex"),
  sha256: (bytes) => createHash("sha256").update(bytes).digest("hex"),
};

export const digestString = (bytes, algorithm) => `${algorithm}:${HASHERS[algorithm](bytes)}`;

// -- digest strings (DIG-001, DIG-004, DIG-005) --------------------------------------------------

const ALGORITHM = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*$/;
const ENCODED = /^[A-Za-z0-9=_-]+$/;
const HEX64 = /^[0-9a-f]{64}$/;

export function parseDigest(text) {
  if (typeof text !== "string" || text.length > 1024) return "malformed";
  const colon = text.indexOf(":");
  if (colon < 0) return "malformed";
  const algorithm = text.slice(0, colon);
  const encoded = text.slice(colon + 1);
  if (!ALGORITHM.test(algorithm) || !ENCODED.test(encoded)) return "malformed";
  if (!Object.hasOwn(HASHERS, algorithm)) return "unknown_algorithm";
  if (!HEX64.test(encoded)) return "malformed";
  return [algorithm, encoded];
}

export function checkDigest(stated, bytes) {
  const parsed = parseDigest(stated);
  if (typeof parsed === "string") return parsed;
  return HASHERS[parsed[0]](bytes) === parsed[1] ? null : "mismatch";
}

export function sameDigest(a, b) {
  const [x, y] = [parseDigest(a), parseDigest(b)];
  return typeof x !== "string" && typeof y !== "string" && x[0] === y[0] && x[1] === y[1];
}

// -- JCS (DIG-010, DIG-013) ----------------------------------------------------------------------

export class CanonicalError extends Error {
  constructor(code, message, path = null) { super(message); this.code = code; this.path = path; }
}

const MAX_SAFE = 2n ** 53n - 1n;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// GEN-022's JSON path of a member or element below `path`.
const child = (path, key) => (typeof key === "number" ? `${path}[${key}]`
  : NAME.test(key) ? `${path}.${key}` : `${path}["${key.replace(/[\\"]/g, (c) => `\\${c}`)}"]`);

const entries = (value) => (value instanceof Map ? [...value] : Object.entries(value));
const isObject = (value) => value instanceof Map || (value !== null && typeof value === "object" && !Array.isArray(value) && !isFloat(value));

// The JCS spelling of a number, or null where JCS has none (DIG-013).
function numberText(value) {
  if (isInt(value)) {
    if (value >= -MAX_SAFE && value <= MAX_SAFE) return value.toString();
    const double = Number(value);
    return Number.isFinite(double) && JSON.stringify(double) === value.toString() ? value.toString() : null;
  }
  const double = isFloat(value) ? value.value : value;
  return Number.isFinite(double) ? JSON.stringify(double) : null;
}

// The first value JCS cannot represent, in document order (an object's keys before its
// members' values), as a CanonicalError.
function check(root) {
  const stack = [[root, "$", 1]];
  while (stack.length) {
    const [node, path, level] = stack.pop();
    if (level > LIMITS.depth) throw new CanonicalError("digest.too_deep", `nests deeper than ${LIMITS.depth} levels`, path);
    if (node === null || typeof node === "boolean") continue;
    if (typeof node === "string") {
      if (!node.isWellFormed()) throw new CanonicalError("digest.lone_surrogate", "holds a lone surrogate", path);
    } else if (isInt(node)) {
      if (numberText(node) === null) throw new CanonicalError("digest.integer_range", "is an integer beyond 2**53 - 1 that a double would change", path);
    } else if (isFloat(node) || typeof node === "number") {
      if (numberText(node) === null) throw new CanonicalError("digest.non_finite", "is not a finite number", path);
    } else if (Array.isArray(node)) {
      for (let k = node.length - 1; k >= 0; k--) stack.push([node[k], child(path, k), level + 1]);
    } else if (isObject(node)) {
      const members = entries(node);
      for (const [key] of members) {
        if (typeof key !== "string") throw new CanonicalError("digest.key_type", "has a key that is not a string", path);
        if (!key.isWellFormed()) throw new CanonicalError("digest.lone_surrogate", "has a key holding a lone surrogate", child(path, key));
      }
      for (let k = members.length - 1; k >= 0; k--) stack.push([members[k][1], child(path, members[k][0]), level + 1]);
    } else {
      throw new CanonicalError("digest.value_type", "is a value of no JSON type", path);
    }
  }
}

function serialise(value) {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(serialise).join(",")}]`;
  if (isObject(value)) {
    // Members sorted by their names' UTF-16 code units (JavaScript's own string order).
    const members = entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([key, item]) => `${JSON.stringify(key)}:${serialise(item)}`).join(",")}}`;
  }
  return numberText(value);
}

export function canonicalJSON(value) {
  check(value);
  return serialise(value);
}

// -- the packet (DIG-020 to DIG-026) -------------------------------------------------------------

export function canonicalPacket(text) {
  const kept = [];
  let inDigest = false;
  for (const raw of text.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n")) {
    const line = raw.replace(/[ \t]+$/, "");
    if (line.startsWith("CHECKPOINT_DIGEST:")) { inDigest = true; continue; }
    if (inDigest && (!line || line.startsWith("  "))) continue;
    inDigest = false;
    kept.push(line);
  }
  while (kept.length && !kept[kept.length - 1]) kept.pop();
  const canonical = kept.map((line) => `${line}\n`).join("");
  if (!canonical.isWellFormed()) throw new CanonicalError("digest.lone_surrogate", "the packet holds a lone surrogate");
  return Buffer.from(canonical, "utf8");
}

// The twelve fields in their order, with their projection members (spec/packet.md).
const FIELDS = [["GOAL_ID", "goal_id"], ["OUTCOME / ACCEPTANCE", "outcome_acceptance"], ["AUTHORITY", "authority"],
  ["POLICY", "policy"], ["SOURCE", "source"], ["WORKING_STATE", "working_state"], ["PROGRESS", "progress"],
  ["DECISIONS", "decisions"], ["LIVE_WORK", "live_work"], ["NEXT_SAFE_ACTION", "next_safe_action"],
  ["RESTART_ID", "restart_id"], ["CHECKPOINT_DIGEST", "checkpoint_digest"]];

export const isProjection = (text) => /^[ \t\r\n]*\{/.test(text);

export function renderProjection(projection) {
  const out = [];
  for (const [key, member] of FIELDS) {
    const value = projection.get(member);
    if (typeof value !== "string") continue;
    const lines = value.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n").map((line) => line.replace(/[ \t]+$/, ""));
    while (lines.length && !lines[0]) lines.shift();
    while (lines.length && !lines[lines.length - 1]) lines.pop();
    const [first = "", ...rest] = lines;
    out.push(first ? `${key}: ${first}` : `${key}:`, ...rest.map((line) => (line ? `  ${line}` : "")));
  }
  return out.map((line) => `${line}\n`).join("");
}
