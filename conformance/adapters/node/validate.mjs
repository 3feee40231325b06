// The `validate` gate (spec/gates/validate.md), written from the spec for the Node.js adapter:
// one document of a given artifact kind in, whether it is a valid Passdown artifact and the
// codes of its findings out. This module owns the gate's input and output (CNF-101 to
// CNF-103), the table of artifact kinds (file names, syntaxes, schema), the order of the
// checks and the schema check (CNF-104 to CNF-106). Loading (spec/input-safety.md, INP-*) is
// load.mjs's; the artifacts' semantic rules, and the packet's text grammar, are rules.mjs's.
//
// The schemas are the repository's own, schemas/v1/*.schema.json, read from disk and compiled
// with ajv's draft 2020-12 build, every one added up front and no loader given, so nothing is
// ever fetched. ajv gives the verdict. When it says no, `failures` walks the schema again to
// say which keywords failed, as a tree: ajv lists the errors of every `anyOf`/`oneOf` branch
// flat, and CNF-105 reports the failure of the branch that comes closest, which needs to know
// which errors belong to which branch. Patterns are JavaScript's own RegExp with the `u` flag,
// which is ECMA-262 (CNF-106); `format` is never checked.
//
// Its input is read exactly (EXACT_INPUT: load.mjs's values), so that a document is written
// back as the JSON text Python would write from it, integers and floats kept apart.

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { Buffer } from "node:buffer";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js"; // ERR_MODULE_NOT_FOUND without `npm ci`: the gate is not listed
import { Float, isFloat, isInt, load, plain, readGateInput } from "./load.mjs";
import { pythonJSON } from "./json-python.mjs";
import { RULES } from "./rules.mjs";

export const VERSION = "1.0.0";
export const EXACT_INPUT = true;
const MAX_INPUT_BYTES = 64 * 1024 * 1024; // the envelope; the document's own bound is load.mjs's
const INPUT_MEMBERS = new Set(["kind", "name", "document", "text"]);
const MAX_SCHEMA_FINDINGS = 200;

// -- the artifact kinds --------------------------------------------------------------------------

// Each kind: its file names (the first is its own, the default `name`; one `*` at most), the
// syntaxes it is written in (the first is the default for a text whose name gives none of
// them) and its schema under schemas/v1/. Its rules, and the reader of a text form of its own
// (the packet's), are rules.mjs's RULES[kind].
const KINDS = {
  checkpoint: { names: ["continue.xbrief.json", "continue.vbrief.json", "continue-*.json"], syntaxes: ["json"], schema: "checkpoint.schema.json" },
  packet: { names: ["continuation.packet.txt", "continuation.packet.json"], syntaxes: ["text", "json"], schema: "packet.schema.json" },
  registry: { names: ["registry.json", "registry.yaml", "registry.yml"], syntaxes: ["json", "yaml"], schema: "registry.schema.json" },
  ack: { names: ["ack.json"], syntaxes: ["json"], schema: "ack.schema.json" },
  handoff: { names: ["handoff.json"], syntaxes: ["json"], schema: "handoff.schema.json" },
  handoff_pending: { names: ["handoff.pending.json"], syntaxes: ["json"], schema: "handoff-pending.schema.json" },
  receipt: { names: ["relaunch-receipt.json", "*.relaunch-receipt.json"], syntaxes: ["json"], schema: "relaunch-receipt.schema.json" },
  // any xBRIEF 0.8 document (CNF-113): no file name of its own
  xbrief: { names: [], syntaxes: ["json"], schema: "xbrief-0.8.schema.json" },
};

// The syntax a file name gives (CNF-101): `.yaml`/`.yml` YAML, `.json` JSON, else the kind's text form.
function syntaxOfName(name) {
  const lower = (name ?? "").replace(/\\/g, "/").split("/").pop().toLowerCase();
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  if (lower.endsWith(".json")) return "json";
  return "text";
}

// The syntax to read a kind's text in: the name's when the kind is written in it, else JSON for
// a text that opens with `{`, else the kind's other syntax.
function syntaxFor(kind, name, bytes) {
  const byName = syntaxOfName(name);
  if (kind.syntaxes.includes(byName)) return byName;
  let k = 0;
  while (k < bytes.length && [0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c].includes(bytes[k])) k++;
  if (kind.syntaxes.includes("json") && bytes[k] === 0x7b) return "json";
  return kind.syntaxes.find((s) => s !== "json") ?? "json";
}

// -- the schemas -----------------------------------------------------------------------------------

// The schemas folder: the repository's, or the installed package's (passdown/_data/schemas/v1),
// at the same place relative to this file. Without it the gate is not offered.
const SCHEMA_DIR = fileURLToPath(new URL("../../../schemas/v1/", import.meta.url));
if (!existsSync(SCHEMA_DIR)) {
  throw Object.assign(new Error(`validate.mjs: no schemas at ${SCHEMA_DIR}`), { code: "PASSDOWN_NO_SCHEMAS" });
}
const SCHEMAS = new Map(); // $id -> schema
for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".schema.json")).sort()) {
  const schema = JSON.parse(readFileSync(SCHEMA_DIR + file, "utf8"));
  SCHEMAS.set(schema.$id, schema);
}
const SCHEMA_BASE = "https://spec.passdown.dev/schemas/v1/";
// ajv: draft 2020-12, ECMA-262 patterns with the `u` flag (CNF-106), `format` an annotation
// only (validateFormats), unknown keywords (`x-hint`, `x-requirement`) allowed.
const ajv = new Ajv2020({ strict: false, validateFormats: false, unicodeRegExp: true });
for (const schema of SCHEMAS.values()) ajv.addSchema(schema);

// Why a schema check could not run: schema.unavailable or schema.unresolvable (INP-008).
class SchemaTrouble extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

const validators = new Map();
function verdict(file, value) {
  if (!validators.has(file)) {
    if (!SCHEMAS.has(SCHEMA_BASE + file)) throw new SchemaTrouble("schema.unavailable", `no schema ${file}`);
    try {
      validators.set(file, ajv.getSchema(SCHEMA_BASE + file));
    } catch (failure) {
      throw new SchemaTrouble("schema.unresolvable", failure.message); // a $ref to a schema not here
    }
  }
  return validators.get(file)(value);
}

// A reference as [the schema it names, the $id of the file holding it].
function resolve(ref, baseId) {
  const [address, fragment = ""] = ref.split("#");
  const id = address === "" ? baseId : new URL(address, baseId).href;
  let node = SCHEMAS.get(id);
  for (const part of fragment.split("/").slice(1)) node = node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  if (node === undefined) throw new SchemaTrouble("schema.unresolvable", `cannot resolve ${ref}`);
  return [node, id];
}

// -- values as JSON Schema sees them (load.mjs's: Map, BigInt, Float) -------------------------------

const isObject = (v) => v instanceof Map;
const isNumber = (v) => isInt(v) || isFloat(v);
const numeric = (v) => (isInt(v) ? Number(v) : v.value);
const TYPE_TESTS = {
  object: isObject, array: Array.isArray, string: (v) => typeof v === "string", boolean: (v) => typeof v === "boolean",
  null: (v) => v === null, number: isNumber,
  integer: (v) => isInt(v) || (isFloat(v) && Number.isInteger(v.value)), // 1.0 is an integer
};
const hasType = (value, type) => TYPE_TESTS[type]?.(value) ?? false;
const codePoints = (s) => [...s].length;

function equal(a, b) { // JSON equality: 1 equals 1.0, true never equals 1
  if (isNumber(a) && isNumber(b)) return isInt(a) && isInt(b) ? a === b : numeric(a) === numeric(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => equal(x, b[k]));
  if (isObject(a) && isObject(b)) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && equal(v, b.get(k)));
  return a === b;
}
// A schema's literal (plain JSON.parse) against a document's value.
const literalEquals = (value, literal) => equal(value, toValue(literal));
function toValue(literal) {
  if (Array.isArray(literal)) return literal.map(toValue);
  if (literal !== null && typeof literal === "object") return new Map(Object.entries(literal).map(([k, v]) => [k, toValue(v)]));
  if (typeof literal === "number") return Number.isInteger(literal) ? BigInt(literal) : new Float(literal);
  return literal;
}

const PATTERNS = new Map();
const pattern = (source) => {
  if (!PATTERNS.has(source)) PATTERNS.set(source, new RegExp(source, "u"));
  return PATTERNS.get(source);
};

// -- the schema's failures, as a tree ----------------------------------------------------------------

// A failure: the keyword (null for a `false` schema), the instance path relative to the
// place whose branches are being tried, the subschema holding the keyword, the instance, and
// for `anyOf`/`oneOf` the failures of every branch (context).
const failure = (keyword, schema, instance, context = []) => ({ keyword, path: [], schema, instance, context });

function* failures(instance, schema, baseId) {
  if (schema === true) return;
  if (schema === false) { yield failure(null, schema, instance); return; }
  for (const keyword of Object.keys(schema)) {
    const check = KEYWORDS[keyword];
    if (check) yield* check(instance, schema[keyword], schema, baseId);
  }
}

function* descend(instance, schema, baseId, step) {
  for (const found of failures(instance, schema, baseId)) {
    if (step !== undefined) found.path.unshift(step);
    yield found;
  }
}

const passes = (instance, schema, baseId) => failures(instance, schema, baseId).next().done;

const KEYWORDS = {
  *$ref(instance, ref, schema, baseId) {
    const [target, id] = resolve(ref, baseId);
    yield* descend(instance, target, id);
  },
  *type(instance, types, schema) {
    if (![types].flat().some((t) => hasType(instance, t))) yield failure("type", schema, instance);
  },
  *enum(instance, values, schema) {
    if (!values.some((v) => literalEquals(instance, v))) yield failure("enum", schema, instance);
  },
  *const(instance, value, schema) {
    if (!literalEquals(instance, value)) yield failure("const", schema, instance);
  },
  *required(instance, names, schema) {
    if (!isObject(instance)) return;
    for (const name of names) if (!instance.has(name)) yield failure("required", schema, instance);
  },
  *properties(instance, properties, schema, baseId) {
    if (!isObject(instance)) return;
    for (const [name, sub] of Object.entries(properties)) {
      if (instance.has(name)) yield* descend(instance.get(name), sub, baseId, name);
    }
  },
  *patternProperties(instance, patterns, schema, baseId) {
    if (!isObject(instance)) return;
    for (const [source, sub] of Object.entries(patterns)) {
      for (const [key, value] of instance) if (pattern(source).test(key)) yield* descend(value, sub, baseId, key);
    }
  },
  *additionalProperties(instance, additional, schema, baseId) {
    if (!isObject(instance)) return;
    const declared = schema.properties ?? {};
    const patterns = Object.keys(schema.patternProperties ?? {});
    const extras = [...instance.keys()].filter((key) => !Object.hasOwn(declared, key) && !patterns.some((p) => pattern(p).test(key)));
    if (additional === false) {
      if (extras.length) yield failure("additionalProperties", schema, instance);
      return;
    }
    for (const key of extras) yield* descend(instance.get(key), additional, baseId, key);
  },
  *propertyNames(instance, sub, schema, baseId) {
    if (!isObject(instance)) return;
    for (const key of instance.keys()) yield* descend(key, sub, baseId);
  },
  *items(instance, sub, schema, baseId) {
    if (!Array.isArray(instance)) return;
    const start = schema.prefixItems?.length ?? 0;
    for (let k = start; k < instance.length; k++) yield* descend(instance[k], sub, baseId, k);
  },
  *minItems(instance, bound, schema) { if (Array.isArray(instance) && instance.length < bound) yield failure("minItems", schema, instance); },
  *maxItems(instance, bound, schema) { if (Array.isArray(instance) && instance.length > bound) yield failure("maxItems", schema, instance); },
  *uniqueItems(instance, unique, schema) {
    if (unique && Array.isArray(instance) && instance.some((x, k) => instance.slice(k + 1).some((y) => equal(x, y)))) yield failure("uniqueItems", schema, instance);
  },
  *minLength(instance, bound, schema) { if (typeof instance === "string" && codePoints(instance) < bound) yield failure("minLength", schema, instance); },
  *maxLength(instance, bound, schema) { if (typeof instance === "string" && codePoints(instance) > bound) yield failure("maxLength", schema, instance); },
  *pattern(instance, source, schema) { if (typeof instance === "string" && !pattern(source).test(instance)) yield failure("pattern", schema, instance); },
  *minimum(instance, bound, schema) { if (isNumber(instance) && numericLess(instance, bound)) yield failure("minimum", schema, instance); },
  *maximum(instance, bound, schema) { if (isNumber(instance) && numericLess(bound, instance)) yield failure("maximum", schema, instance); },
  *exclusiveMinimum(instance, bound, schema) { if (isNumber(instance) && !numericLess(bound, instance)) yield failure("exclusiveMinimum", schema, instance); },
  *exclusiveMaximum(instance, bound, schema) { if (isNumber(instance) && !numericLess(instance, bound)) yield failure("exclusiveMaximum", schema, instance); },
  *allOf(instance, branches, schema, baseId) {
    for (const branch of branches) yield* descend(instance, branch, baseId);
  },
  *anyOf(instance, branches, schema, baseId) {
    const context = [];
    for (const branch of branches) {
      const found = [...descend(instance, branch, baseId)];
      if (!found.length) return;
      context.push(...found);
    }
    yield failure("anyOf", schema, instance, context);
  },
  *oneOf(instance, branches, schema, baseId) {
    const context = [];
    const valid = [];
    for (const branch of branches) {
      const found = [...descend(instance, branch, baseId)];
      if (found.length) context.push(...found);
      else valid.push(branch);
    }
    if (!valid.length) yield failure("oneOf", schema, instance, context);
    else if (valid.length > 1) yield failure("oneOf", schema, instance);
  },
  *not(instance, sub, schema, baseId) { if (passes(instance, sub, baseId)) yield failure("not", schema, instance); },
  *if(instance, condition, schema, baseId) {
    if (passes(instance, condition, baseId)) { if (schema.then !== undefined) yield* descend(instance, schema.then, baseId); }
    else if (schema.else !== undefined) yield* descend(instance, schema.else, baseId);
  },
  *contains(instance, sub, schema, baseId) {
    if (Array.isArray(instance) && !instance.some((item) => passes(item, sub, baseId))) yield failure("contains", schema, instance);
  },
  *dependentRequired(instance, dependencies, schema) {
    if (!isObject(instance)) return;
    for (const [trigger, needed] of Object.entries(dependencies)) {
      if (instance.has(trigger) && needed.some((name) => !instance.has(name))) yield failure("dependentRequired", schema, instance);
    }
  },
};

function numericLess(a, b) { // a < b, for a value or a schema's number on either side
  const x = typeof a === "number" ? a : numeric(a);
  const y = typeof b === "number" ? b : numeric(b);
  if (isInt(a) && typeof b === "number" && Number.isInteger(b)) return a < BigInt(b);
  if (typeof a === "number" && Number.isInteger(a) && isInt(b)) return BigInt(a) < b;
  return x < y;
}

// The failure that says best what is wrong (CNF-105): inside an `anyOf` or `oneOf`, the failure
// of the branch that comes closest: the deepest, then the earliest (names by code point), preferring a nested
// `anyOf`/`oneOf` and a subschema whose type the value has; when the two best tie, the
// `anyOf`/`oneOf` itself.
const WEAK = new Set(["anyOf", "oneOf"]);
const typeMatches = (found) => found.schema && typeof found.schema === "object" && found.schema.type !== undefined
  && [found.schema.type].flat().some((t) => hasType(found.instance, t));
const relevance = (f) => [-f.path.length, f.path, !WEAK.has(f.keyword), false, !typeMatches(f)];
function compareKeys(a, b) {
  for (let k = 0; k < a.length; k++) {
    const c = compareItem(a[k], b[k]);
    if (c) return c;
  }
  return 0;
}
function compareItem(x, y) {
  if (Array.isArray(x)) {
    for (let k = 0; k < Math.min(x.length, y.length); k++) {
      const c = compareItem(x[k], y[k]);
      if (c) return c;
    }
    return x.length - y.length;
  }
  if (typeof x === "boolean") return Number(x) - Number(y);
  if (typeof x === "string" && typeof y === "string") { // member names by code point, not UTF-16 unit
    return compareItem([...x].map((c) => c.codePointAt(0)), [...y].map((c) => c.codePointAt(0)));
  }
  return x < y ? -1 : x > y ? 1 : 0;
}
function closest(found) {
  let best = found;
  while (best.context.length) {
    const keyed = best.context.map((f) => [relevance(f), f]);
    keyed.sort((a, b) => compareKeys(a[0], b[0])); // stable: the first of equals
    if (keyed.length >= 2 && compareKeys(keyed[0][0], keyed[1][0]) === 0) return best;
    best = keyed[0][1];
  }
  return best;
}

const snake = (keyword) => (keyword === null ? "not_allowed" : keyword.replace(/^\$/, "").replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

// The `schema.*` codes of a value against a schema file (CNF-104 to CNF-106).
function schemaCodes(file, value) {
  try {
    return explainedCodes(file, value);
  } catch (failure) {
    if (failure instanceof SchemaTrouble) return [failure.code];
    throw failure;
  }
}

function explainedCodes(file, value) {
  if (verdict(file, plain(value))) return [];
  const schemaId = SCHEMA_BASE + file;
  const listed = [];
  let tooMany = false;
  for (const found of descend(value, SCHEMAS.get(schemaId), schemaId)) {
    if (listed.length === MAX_SCHEMA_FINDINGS) { tooMany = true; break; }
    listed.push(found);
  }
  // a `not` that fails on a value of the wrong type fails only vacuously: the type says why
  const mistyped = new Set(listed.filter((f) => f.keyword === "type").map((f) => JSON.stringify(f.path)));
  const codes = listed.filter((f) => !(f.keyword === "not" && mistyped.has(JSON.stringify(f.path))))
    .map((f) => `schema.${snake(closest(f).keyword)}`);
  if (tooMany) codes.push("schema.too_many_errors");
  return codes;
}

// -- the check of one document ---------------------------------------------------------------------

const error = (code) => ({ code, severity: "error" });

// The findings of one document's bytes, [{code, severity}], in the order of the checks: loading
// (which stops at its first problem), the text form's grammar, the schema, then every rule
// (CNF-104: whatever the schema found).
function check(kindName, name, bytes, syntax) {
  const kind = KINDS[kindName];
  const rules = RULES[kindName];
  const chosen = syntax ?? syntaxFor(kind, name, bytes);
  const loaded = load(bytes, chosen);
  if (loaded.error) return [error(loaded.error)];
  const findings = [];
  let data = loaded.value;
  if (chosen === "text") {
    if (!rules.parseText) return [error("detect.no_parser")];
    let parsed;
    try {
      parsed = rules.parseText(loaded.text);
    } catch (failure) {
      debug(`the ${kindName} parser`, failure);
      return [error("rule.crashed")]; // CNF-107
    }
    findings.push(...parsed.problems.map(error));
    data = parsed.data;
  }
  const artifact = { kind: kindName, name, data, text: loaded.text, syntax: chosen };
  const located = schemaCodes(kind.schema, data).map(error);
  for (const rule of rules.checks) {
    let found;
    try {
      found = rule.check(artifact);
    } catch (failure) {
      debug(`the rule ${rule.code}`, failure);
      located.push(error("rule.crashed")); // CNF-107: and on with the other rules
      continue;
    }
    if (found) located.push({ code: rule.code, severity: rule.severity ?? "error", exclusive: rule.exclusive });
  }
  // a rule saying the document is not of this kind at all (checkpoint.not_xbrief) speaks alone
  const exclusive = located.filter((finding) => finding.exclusive);
  findings.push(...(exclusive.length ? exclusive : located));
  return findings;
}

function debug(what, failure) {
  if (process.env.PASSDOWN_ADAPTER_DEBUG) process.stderr.write(`validate.mjs: ${what} failed: ${failure.stack}\n`);
}

function answer(findings) {
  const codes = (severity) => [...new Set(findings.filter((f) => f.severity === severity).map((f) => f.code))].sort();
  const errors = codes("error");
  return [{ valid: errors.length === 0, errors, warnings: codes("warning") }, errors.length ? 1 : 0];
}

const BAD_INPUT = () => [{ valid: false, errors: ["gate.bad_input"], warnings: [] }, 2];

// A name is usable when it is a string with something other than white space (Python's
// str.isspace(), as load.mjs reads "empty", INP-021).
const BLANK = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;
const usableName = (name) => typeof name === "string" && !BLANK.test(name);

// The gate on an input value as load.mjs's PYTHON reader gives it (CNF-101, CNF-102).
export function decide(value) {
  if (!(value instanceof Map) || ![...value.keys()].every((key) => INPUT_MEMBERS.has(key))) return BAD_INPUT();
  const kindName = value.get("kind");
  if (typeof kindName !== "string" || !Object.hasOwn(KINDS, kindName) || value.has("document") === value.has("text")) return BAD_INPUT();
  if (value.has("name") && !usableName(value.get("name"))) return BAD_INPUT();
  const kind = KINDS[kindName];
  if (value.has("text")) {
    const text = value.get("text");
    if (typeof text !== "string") return BAD_INPUT();
    if (!text.isWellFormed()) return answer([{ code: "load.encoding", severity: "error" }]); // INP-003: no UTF-8 for it
    const name = value.get("name") ?? kind.names[0] ?? null;
    return answer(check(kindName, name, Buffer.from(text, "utf8"), undefined));
  }
  // a document is the JSON text written from it, so it is read as JSON whatever its name
  const name = value.get("name") ?? kind.names.find((n) => n.endsWith(".json")) ?? null;
  return answer(check(kindName, name, Buffer.from(pythonJSON(value.get("document")), "utf8"), "json"));
}

// The gate on raw input bytes.
export function run(bytes) {
  const value = readGateInput(bytes, MAX_INPUT_BYTES);
  if (value === undefined) return BAD_INPUT();
  return decide(value);
}
