// Helpers the artifacts' rules share (rules.mjs and the rules-*.mjs beside it): reading
// untrusted values, timestamps (GEN-004), versions (VER-004, VER-005), digests (GEN-006,
// GEN-007), secrets, canonical bytes (REG-028, CKP-025) and relative paths.

import { instant } from "./ack.mjs";
import { CanonicalError, canonicalJSON, parseDigest } from "./digests.mjs";
import { isFloat, isInt } from "./load.mjs";

// -- reading untrusted values ----------------------------------------------------------------------

export const isObject = (v) => v instanceof Map;
export const get = (value, key) => (isObject(value) ? value.get(key) : undefined);
export const has = (value, key) => isObject(value) && value.has(key);
export const objectAt = (value, key) => (isObject(get(value, key)) ? get(value, key) : null);
export const listAt = (value, key) => (Array.isArray(get(value, key)) ? get(value, key) : []);
export const isString = (v) => typeof v === "string";
// Python's str.isspace(): Unicode White_Space and U+001C to U+001F.
const SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;
export const blank = (v) => !isString(v) || SPACE.test(v);
// JSON values equal as Python's == has them (1 == 1.0; strings by value).
export function same(a, b) {
  if ((isInt(a) || isFloat(a)) && (isInt(b) || isFloat(b))) return (isInt(a) ? Number(a) : a.value) === (isInt(b) ? Number(b) : b.value);
  return a === b;
}
export const isNull = (v) => v === null || v === undefined; // Python's .get() is None for both

// Every [key, value] below a value (member names and indices), parents first.
export function* walk(value, skip = () => false) {
  const stack = [value];
  while (stack.length) {
    const node = stack.pop();
    const children = isObject(node) ? [...node].filter(([key]) => !skip(key)) : Array.isArray(node) ? node.map((v, k) => [k, v]) : [];
    yield* children;
    for (let k = children.length - 1; k >= 0; k--) stack.push(children[k][1]);
  }
}

// -- timestamps (GEN-004) --------------------------------------------------------------------------

// Whether a string has the timestamp form (the schema's to judge): date, time, optional
// fraction, an offset; what it names may still be unreal.
function timestampForm(text) {
  if (text.length > 64 || text.length < 20) return false;
  if (text[4] !== "-" || text[7] !== "-" || text[13] !== ":" || text[16] !== ":" || !"Tt ".includes(text[10])) return false;
  if (![[0, 4], [5, 7], [8, 10], [11, 13], [14, 16], [17, 19]].every(([a, b]) => /^[0-9]+$/.test(text.slice(a, b)) && text.slice(a, b).length === b - a)) return false;
  let position = 19;
  if (text[position] === ".") {
    let end = position + 1;
    while (end < text.length && text[end] >= "0" && text[end] <= "9") end++;
    if (end === position + 1) return false;
    position = end;
  }
  const zone = text.slice(position);
  return zone === "Z" || zone === "z" || /^[+-][0-9]{2}:[0-9]{2}$/.test(zone);
}
// A timestamp's form with no real moment: a date that does not exist, a leap second, an offset
// beyond 23:59, an instant outside the years 0001 to 9999.
export const unreal = (v) => isString(v) && timestampForm(v) && instant(v) === null;
// A timestamp's instant in milliseconds (BigInt), or null.
export function millis(v) {
  const exact = isString(v) ? instant(v) : null;
  if (exact === null) return null;
  const [n, d] = exact;
  const scaled = n * 1000n;
  return scaled >= 0n ? scaled / d : -((-scaled + d - 1n) / d); // floor: digits after the third dropped
}
// Compare two timestamps exactly: -1, 0, 1, or null when either is none.
export function compareMoments(a, b) {
  const x = isString(a) ? instant(a) : null;
  const y = isString(b) ? instant(b) : null;
  if (x === null || y === null) return null;
  const [p, q] = [x[0] * y[1], y[0] * x[1]];
  return p < q ? -1 : p > q ? 1 : 0;
}
export const endsInAt = (key) => isString(key) && (key.endsWith("_at") || key === "last_readback" || key === "since");

export const timestampRule = (kind, isTimestampKey = endsInAt, skip = () => false) => ({
  code: `${kind}.timestamp`,
  check: ({ data }) => [...walk(data, skip)].some(([key, value]) => isTimestampKey(key) && unreal(value)),
});

// -- versions (VER-004, VER-005) -------------------------------------------------------------------

const VERSION = /^(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})$/;
export const SUPPORTED = [1, 0];
export function parseVersion(v) {
  const match = isString(v) ? VERSION.exec(v) : null;
  return match ? [Number(match[1]), Number(match[2])] : null;
}
export const topLevelVersion = ({ data }) => (has(data, "passdown_version") ? get(data, "passdown_version") : undefined);
export function versionRules(locate = topLevelVersion) {
  const version = (artifact) => parseVersion(locate(artifact));
  return [
    { code: "version.newer_minor", severity: "warning", check: (a) => { const v = version(a); return v !== null && v[0] === SUPPORTED[0] && v[1] > SUPPORTED[1]; } },
    { code: "version.unsupported_major", check: (a) => { const v = version(a); return v !== null && v[0] !== SUPPORTED[0]; } },
  ];
}

// -- digests (GEN-006, GEN-007) --------------------------------------------------------------------

const DIGEST_GRAMMAR = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;
// "malformed", "unverifiable" or null; strings outside the digest grammar are the schema's.
export function digestProblem(v) {
  if (!isString(v) || v.length > 1024 || !DIGEST_GRAMMAR.test(v)) return null;
  const parsed = parseDigest(v);
  if (parsed === "unknown_algorithm") return "unverifiable";
  return parsed === "malformed" ? "malformed" : null;
}
export function digestRules(kind, locate) {
  const found = (artifact, wanted) => [...locate(artifact)].some((value) => digestProblem(value) === wanted);
  return [
    { code: `${kind}.digest_malformed`, check: (a) => found(a, "malformed") },
    { code: `${kind}.digest_unverifiable`, severity: "warning", check: (a) => found(a, "unverifiable") },
  ];
}

// -- secrets ---------------------------------------------------------------------------------------

const EDGE = "(?<![A-Za-z0-9_-])";
// The secret shapes refused in handoff artifacts; none matches across a line feed.
const SECRET_SHAPES = [
  /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY[A-Z ]{0,10}-----/,
  new RegExp(`${EDGE}gh[pousr]_[A-Za-z0-9]{30,}`),
  new RegExp(`${EDGE}github_pat_[A-Za-z0-9_]{20,}`),
  new RegExp(`${EDGE}xox[abprs]-[A-Za-z0-9-]{10,}`),
  new RegExp(`${EDGE}sk-[A-Za-z0-9_-]{20,}`),
  /(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])/,
  new RegExp(`${EDGE}eyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*`),
  /(?<![A-Za-z0-9_])[Bb][Ee][Aa][Rr][Ee][Rr][ \t]+(?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{16,}=*/,
  /(?<![a-zA-Z0-9-])(?:[Ss][Ee][Tt]-)?[Cc][Oo][Oo][Kk][Ii][Ee][ \t]*:[ \t]*[^\s=;:]+=[^\s;]+/,
  /(?<![a-zA-Z0-9])(?:password|passwd|pwd|passphrase|api[_-]?key|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|private[_-]?key)[a-zA-Z0-9_]{0,20}[ \t]*[:=][ \t]*["']?(?![$<{%*]|\[REDACTED\]|(?:redacted|none|null|unset|empty|changeme)\b)[^\s"'<>]{6,}/i,
];
export const hasSecret = (text) => isString(text) && text.split("\n").some((line) => SECRET_SHAPES.some((shape) => shape.test(line)));
// Whether any string below a value (member names included) holds a secret.
export const secretsIn = (value, skip = () => false) => [...walk(value, skip)].some(([key, child]) => hasSecret(key) || hasSecret(child));

// -- canonical bytes (REG-028, CKP-025) ------------------------------------------------------------

export function notCanonical(value) {
  try {
    canonicalJSON(value);
    return false;
  } catch (error) {
    if (error instanceof CanonicalError) return true;
    throw error;
  }
}

// -- paths -----------------------------------------------------------------------------------------

// A path naming one file inside a folder on every platform.
export function isRelativePath(v) {
  if (!isString(v) || !v) return false;
  const parts = v.split("/");
  return !(v.startsWith("/") || v.includes("\\") || (v.length > 1 && v[1] === ":") || parts.includes("..") || parts.includes("") || parts.includes("."));
}

