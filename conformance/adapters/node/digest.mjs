// The `digest` gate (spec/digest.md, "The digest gate"), written from the spec for the Node.js
// adapter: one artifact in, its canonical bytes and their digest out, or the code of why it has
// none. Its input is read exactly (load.mjs's values: an integer stays a BigInt, so
// 9007199254740993 is refused rather than rounded), so the adapter hands `decide` the case's
// input as load.mjs reads it (EXACT_INPUT); `run` takes the raw input bytes.
//
// The canonical forms and digest strings are digests.mjs's; an artifact's text is read by
// load.mjs, with every loading rule of spec/input-safety.md.

import { Buffer } from "node:buffer";
import { HASHERS, CanonicalError, canonicalJSON, canonicalPacket, digestString, isProjection, parseDigest, renderProjection } from "./digests.mjs";
import { PYTHON, load, parseJSON } from "./load.mjs";

export const VERSION = "1.0.0";
export const EXACT_INPUT = true;
const MAX_INPUT_BYTES = 16 * 1024 * 1024; // DIG-065
const SOURCES = ["document", "text", "base64"];
const KEYS = new Set(["kind", "algorithm", "syntax", "expected", ...SOURCES]);
const FORM_BY_KIND = { checkpoint: "jcs", registry: "jcs", ack: "jcs", handoff: "jcs", json: "jcs", yaml: "yaml", packet: "packet", raw: "raw" };
const SYNTAX_BY_FORM = { jcs: "json", yaml: "yaml", packet: "text" };
const FORM_BY_SYNTAX = { json: "jcs", yaml: "yaml" };
// RFC 4648 section 4, with its padding (DIG-066).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

class Refused extends Error {
  constructor(code, path = null) { super(code); this.code = code; this.path = path; }
}

const refuse = (code, path = null) => { throw new Refused(code, path); };

// An artifact's bytes in `form` (DIG-012: each loading rule first).
function canonicalBytes(bytes, form) {
  if (form === "raw") return bytes;
  const loaded = load(bytes, SYNTAX_BY_FORM[form], { maxBytes: null });
  if (loaded.error) refuse(loaded.error);
  if (form !== "packet") return Buffer.from(canonicalJSON(loaded.value), "utf8");
  if (!isProjection(loaded.text)) return canonicalPacket(loaded.text);
  const projection = load(bytes, "json", { maxBytes: null });
  if (projection.error) refuse(projection.error);
  if (!(projection.value instanceof Map)) refuse("load.syntax");
  return canonicalPacket(renderProjection(projection.value));
}

function canonical(form, source, given) {
  if (source === "document") {
    if (form === "packet" || form === "raw") refuse("digest.input_invalid");
    return Buffer.from(canonicalJSON(given), "utf8");
  }
  if (typeof given !== "string") refuse("digest.input_invalid");
  if (source === "base64") {
    if (!BASE64.test(given)) refuse("digest.input_invalid");
    return canonicalBytes(Buffer.from(given, "base64"), form);
  }
  if (!given.isWellFormed()) refuse("digest.lone_surrogate"); // DIG-067: UTF-8 cannot encode it
  return canonicalBytes(Buffer.from(given, "utf8"), form);
}

function answer(value) {
  if (!(value instanceof Map) || ![...value.keys()].every((key) => KEYS.has(key))) refuse("digest.input_invalid");
  const kind = value.get("kind");
  let form = typeof kind === "string" && Object.hasOwn(FORM_BY_KIND, kind) ? FORM_BY_KIND[kind] : null;
  const sources = SOURCES.filter((name) => value.has(name));
  if (form === null || sources.length !== 1) refuse("digest.input_invalid");
  const [source] = sources;
  let algorithm = value.has("algorithm") ? value.get("algorithm") : "blake3";
  const syntax = value.has("syntax") ? value.get("syntax") : undefined;
  const expected = value.has("expected") ? value.get("expected") : undefined;
  if (typeof algorithm !== "string" || (expected !== undefined && typeof expected !== "string")) refuse("digest.input_invalid");
  if (syntax !== undefined) {
    if (!Object.hasOwn(FORM_BY_SYNTAX, syntax) || source === "document" || (form !== "jcs" && form !== "yaml")) refuse("digest.input_invalid");
    form = FORM_BY_SYNTAX[syntax];
  }
  let check = null;
  if (expected !== undefined) {
    const parsed = parseDigest(expected);
    if (typeof parsed === "string") check = `digest.${parsed}`;
    else {
      if (value.has("algorithm") && algorithm !== parsed[0]) refuse("digest.input_invalid");
      algorithm = parsed[0];
    }
  }
  if (!Object.hasOwn(HASHERS, algorithm)) refuse("digest.unknown_algorithm");
  const bytes = canonical(form, source, value.get(source));
  const digest = digestString(bytes, algorithm);
  const output = form === "raw" ? { form, canonical_base64: Buffer.from(bytes).toString("base64"), digest }
    : { form, canonical: Buffer.from(bytes).toString("utf8"), digest };
  if (expected === undefined) return [output, 0];
  output.check = check ?? (digest === expected ? "match" : "digest.mismatch");
  return [output, output.check === "match" ? 0 : 1];
}

// The gate on an input value as load.mjs's PYTHON reader gives it.
export function decide(value) {
  try {
    return answer(value);
  } catch (error) {
    if (!(error instanceof Refused || error instanceof CanonicalError)) throw error;
    return [error.path === null ? { error: error.code } : { error: error.code, path: error.path }, 2];
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// The gate on raw input bytes: at most 16 MiB of UTF-8, one JSON value (DIG-065).
export function run(bytes) {
  let value;
  try {
    if (bytes.length > MAX_INPUT_BYTES) throw new Error("too large");
    value = parseJSON(UTF8.decode(bytes), PYTHON);
  } catch {
    return [{ error: "digest.input_unreadable" }, 2];
  }
  return decide(value);
}
