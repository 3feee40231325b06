// Reading an artifact's text for the Node.js adapter: bytes to a value, or the `load.*` code of
// the loading rule the bytes break (spec/input-safety.md, INP-001 to INP-007, INP-013 and
// INP-014; the YAML reading of spec/input-safety.md, "Reading YAML", with which code wins when
// a text breaks several rules, INP-028), and the reader of the gates' JSON input, which reads
// JSON as Python's json module does.
//
// API (every gate module of this adapter reads artifacts through it):
//   load(bytes, syntax, options?)   -> { value, text } or { error: "load.<code>", message }
//       bytes: a Uint8Array (a file's bytes); syntax: "json", "yaml" or "text" (text is
//       decoded and checked for its encoding only: value is null). options.maxBytes: the size
//       bound (default LIMITS.bytes; null for none, where the caller bounds its own input).
//   loadText(text, syntax, options?) -> the same, for a JavaScript string: its UTF-8 bytes (a
//       lone surrogate, which has none, is load.encoding).
//   parseJSON(text, mode?)          -> a value; throws LoadError. mode STRICT (the default) is
//       the artifact reader (every load.* rule); mode PYTHON reads as Python's json.loads does
//       (NaN and Infinity accepted, the last of two equal keys wins): for gate inputs.
//   readGateInput(bytes, limit)     -> a value, or undefined where Python's json.loads(bytes)
//       would fail (the encodings it detects, at most `limit` bytes).
//   Values: null, booleans, strings, BigInt (an integer, exact), Float (a number written with a
//   fraction or an exponent: `.value` is its double), arrays, and Map (an object, in document
//   order). isInt, isFloat tell the numbers apart; plain(value) gives what JSON.parse would.
//   LIMITS, LoadError, Float, YAML_AVAILABLE (whether the package `yaml` is installed: without it
//   YAML text throws an Error, never a finding) are exported too.

// The YAML parser, `yaml` (ISC), is one of the packages of the repository's package.json (`npm ci`):
// without it JSON still loads, and YAML text is refused (YAML_AVAILABLE says which).
const yaml = await import("yaml").catch((error) => {
  if (error?.code === "ERR_MODULE_NOT_FOUND") return null;
  throw error;
});
export const YAML_AVAILABLE = yaml !== null;
const { parseAllDocuments, isAlias, isMap, isScalar, isSeq } = yaml ?? {};

export const LIMITS = Object.freeze({
  bytes: 10 * 1024 * 1024, // INP-002
  depth: 64, // INP-006
  digits: 4300, // INP-013
  string: 1024 * 1024, // INP-014: characters (code points)
});

export class Float {
  constructor(value) { this.value = value; }
}

export const isInt = (v) => typeof v === "bigint";
export const isFloat = (v) => v instanceof Float;

export class LoadError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

export const STRICT = "strict";
export const PYTHON = "python";

const PYTHON_MAX_DEPTH = 990; // Python's reader gives up near its recursion limit

// -- characters --------------------------------------------------------------------------------

// Python's str.isspace(): Unicode White_Space and U+001C to U+001F (INP-021: what "empty" means).
const SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

// Code points in a string (a surrogate pair is one character).
function characters(s) {
  let pairs = 0;
  for (let k = 0; k < s.length - 1; k++) {
    const u = s.charCodeAt(k);
    if (u >= 0xd800 && u <= 0xdbff) {
      const w = s.charCodeAt(k + 1);
      if (w >= 0xdc00 && w <= 0xdfff) { pairs++; k++; }
    }
  }
  return s.length - pairs;
}

const tooLong = (s) => s.length > LIMITS.string && characters(s) > LIMITS.string;

// -- JSON --------------------------------------------------------------------------------------

const WS = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const RUN = /[^"\\\x00-\x1f]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const CONSTANTS = [["NaN", NaN], ["Infinity", Infinity], ["-Infinity", -Infinity]];

export function parseJSON(text, mode = STRICT) {
  const strict = mode === STRICT;
  let i = 0;
  // The loading rules read after the parse (as Python checks them on the parsed data): the
  // level of the first value nested too deep, and of the first string too long.
  let deepLevel = Infinity;
  let longLevel = Infinity;
  const syntax = (what) => { throw new LoadError("load.syntax", `not valid JSON: ${what} at character ${i}`); };
  const ws = () => { WS.lastIndex = i; WS.exec(text); i = WS.lastIndex; };
  const string = (level) => {
    i++;
    let out = "";
    for (;;) {
      RUN.lastIndex = i;
      RUN.exec(text);
      if (RUN.lastIndex > i) { out += text.slice(i, RUN.lastIndex); i = RUN.lastIndex; }
      if (i >= text.length) syntax("an unterminated string");
      const c = text[i];
      if (c === '"') { i++; break; }
      if (c !== "\\") syntax("a control character in a string");
      const e = text[i + 1];
      if (Object.hasOwn(ESCAPES, e)) { out += ESCAPES[e]; i += 2; continue; }
      if (e === "u" && HEX4.test(text.slice(i + 2, i + 6))) {
        out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)); // pairs join by themselves
        i += 6; continue;
      }
      syntax("an invalid escape");
    }
    if (strict && level < longLevel && tooLong(out)) longLevel = level;
    return out;
  };
  const value = (level) => {
    if (strict && level > LIMITS.depth && level < deepLevel) deepLevel = level;
    if (level > PYTHON_MAX_DEPTH) {
      if (strict) throw new LoadError("load.too_deep", "the document nests too deeply to read");
      syntax("nesting too deep");
    }
    const c = text[i];
    if (c === "{") {
      i++; ws();
      const map = new Map();
      if (text[i] === "}") { i++; return map; }
      for (;;) {
        if (text[i] !== '"') syntax("expecting a key");
        const key = string(level + 1);
        ws(); if (text[i] !== ":") syntax("expecting ':'"); i++; ws();
        const item = value(level + 1);
        if (map.has(key)) {
          if (strict) throw new LoadError("load.duplicate_key", `the key ${JSON.stringify(key)} appears twice in one object`);
          map.delete(key); // Python keeps the last value
        }
        map.set(key, item);
        ws();
        if (text[i] === ",") { i++; ws(); continue; }
        if (text[i] === "}") { i++; return map; }
        syntax("expecting ',' or '}'");
      }
    }
    if (c === "[") {
      i++; ws();
      const list = [];
      if (text[i] === "]") { i++; return list; }
      for (;;) {
        list.push(value(level + 1));
        ws();
        if (text[i] === ",") { i++; ws(); continue; }
        if (text[i] === "]") { i++; return list; }
        syntax("expecting ',' or ']'");
      }
    }
    if (c === '"') return string(level);
    for (const [word, result] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, i)) { i += word.length; return result; }
    }
    for (const [word, number] of CONSTANTS) {
      if (!text.startsWith(word, i)) continue;
      if (strict) throw new LoadError("load.non_finite", `${word} is not JSON`);
      i += word.length;
      return new Float(number);
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) syntax("expecting a value");
    i = NUMBER.lastIndex;
    if (match[1] === undefined && match[2] === undefined) {
      const digits = match[0].length - (match[0][0] === "-" ? 1 : 0);
      if (digits > LIMITS.digits) {
        if (strict) throw new LoadError("load.too_many_digits", `an integer of ${digits} digits`);
        syntax("an integer too long");
      }
      return BigInt(match[0]);
    }
    const number = Number(match[0]);
    if (strict && !Number.isFinite(number)) {
      throw new LoadError("load.non_finite", `the number ${match[0].slice(0, 40)} reads as infinity`);
    }
    return new Float(number);
  };
  if (text.startsWith("\ufeff")) {
    if (strict) throw new LoadError("load.bom", "the text starts with a byte order mark");
    syntax("a byte order mark");
  }
  ws();
  const result = value(1);
  ws();
  if (i !== text.length) syntax("extra data");
  if (deepLevel <= longLevel && deepLevel !== Infinity) {
    throw new LoadError("load.too_deep", `the document nests deeper than ${LIMITS.depth} levels`);
  }
  if (longLevel !== Infinity) {
    throw new LoadError("load.string_too_long", `a string is longer than ${LIMITS.string} characters`);
  }
  return result;
}

// -- YAML (spec/input-safety.md, "Reading YAML") -----------------------------------------------

const YAML_OPTIONS = { version: "1.2", schema: "failsafe", resolveKnownTags: false, merge: false, uniqueKeys: false, strict: true, prettyErrors: false };
const TAG = "tag:yaml.org,2002:";

// The plain scalars that are not strings (INP-022), each form with the value it reads as.
const BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const FLOAT = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+|[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const INT = /^(?!_)(?:[-+]?0b[01_]*[01][01_]*|[-+]?0o[0-7_]*[0-7][0-7_]*|[-+]?[0-9_]*[0-9][0-9_]*|[-+]?0x[0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*)$/;
const MAX_INT_TEXT = LIMITS.digits + 8; // a sign, a prefix and a few `_`
const INT_BOUND = 10n ** BigInt(LIMITS.digits);

function yamlInt(text) {
  if (text.length > MAX_INT_TEXT) throw new LoadError("load.too_many_digits", "an integer of too many digits");
  let s = text.replace(/_/g, "");
  let sign = 1n;
  if (s[0] === "-" || s[0] === "+") { if (s[0] === "-") sign = -1n; s = s.slice(1); }
  let value;
  if (s === "") throw new LoadError("load.syntax", `${JSON.stringify(text)} is not an integer`);
  if (s.startsWith("0b")) value = BigInt(s);
  else if (s.startsWith("0x")) value = BigInt(s);
  else if (s.startsWith("0o")) value = BigInt(s);
  else value = BigInt(s); // YAML 1.2: a leading 0 is decimal
  value *= sign;
  if (!(-INT_BOUND < value && value < INT_BOUND)) throw new LoadError("load.too_many_digits", "an integer of more than 4300 digits");
  return value;
}

function yamlFloat(text, onNonFinite = null) {
  const s = text.replace(/_/g, "").toLowerCase();
  let value;
  if (s.endsWith(".inf")) value = s[0] === "-" ? -Infinity : Infinity;
  else if (s === ".nan") value = NaN;
  else value = Number(s.endsWith(".") ? s + "0" : s.replace(/\.e/, ".0e"));
  if (!Number.isFinite(value)) {
    const problem = new LoadError("load.non_finite", "a NaN or infinite number (.nan, .inf, or one beyond the largest double)");
    if (onNonFinite === null) throw problem;
    onNonFinite(problem); // a problem of the built data, reported after building (INP-028)
  }
  return new Float(value);
}

const SCALARS = [[BOOL, (s) => s[0] === "t" || s[0] === "T"], [NULL, () => null], [FLOAT, yamlFloat], [INT, yamlInt],
  [/^=$/, () => { throw new LoadError("load.yaml_tag", "the plain scalar = is YAML 1.1's value key, which has no data"); }]];

// What a scalar tagged !!bool may hold, in any case (INP-026).
const EXPLICIT_BOOL = { true: true, yes: true, on: true, false: false, no: false, off: false };

// An explicitly tagged scalar: what each tag reads its text as.
const TAGGED = {
  [`${TAG}str`]: (s) => s,
  [`${TAG}timestamp`]: (s) => s, // timestamps stay the strings they were written as (INP-007)
  [`${TAG}int`]: (s) => { if (!INT.test(s)) throw new LoadError("load.syntax", `${JSON.stringify(s)} is not an integer`); return yamlInt(s); },
  [`${TAG}float`]: (s, later) => {
    if (!FLOAT.test(s) && !INT.test(s)) throw new LoadError("load.syntax", `${JSON.stringify(s)} is not a number`);
    return yamlFloat(s, later);
  },
  [`${TAG}bool`]: (s) => {
    const value = EXPLICIT_BOOL[s.toLowerCase()];
    if (value === undefined) throw new LoadError("load.syntax", `${JSON.stringify(s)} is not a boolean`);
    return value;
  },
  [`${TAG}null`]: (s) => {
    if (!NULL.test(s)) throw new LoadError("load.syntax", `${JSON.stringify(s)} is not null`);
    return null;
  },
};
// The node each standard tag applies to (INP-026): another node is load.syntax.
const TAG_NODES = Object.fromEntries([["str", "scalar"], ["int", "scalar"], ["float", "scalar"], ["bool", "scalar"],
  ["null", "scalar"], ["timestamp", "scalar"], ["binary", "scalar"], ["map", "map"], ["set", "map"], ["seq", "seq"],
  ["omap", "seq"], ["pairs", "seq"]].map(([name, node]) => [`${TAG}${name}`, node]));
// The standard tags of values JSON cannot hold.
const NOT_JSON = new Set([`${TAG}binary`, `${TAG}set`, `${TAG}pairs`]);

const isMergeKey = (node) => isScalar(node) && node.tag === undefined && node.type === "PLAIN" && node.value === "<<";

function plainScalar(text, later) {
  for (const [form, read] of SCALARS) if (form.test(text)) return form === FLOAT ? yamlFloat(text, later) : read(text);
  return text;
}

// How deep building goes before it stops: past the depth bound (INP-006) the text is still
// built, for the problems building finds (INP-028), up to this far.
const BUILD_DEPTH = 2000;

// INP-028: one code for a text that breaks several rules, by step: the first document's syntax
// (an alias naming no anchor included), then building its values (duplicate keys, tags, integer
// digits), then the rest of the text (its syntax, a second document), then the built data
// (aliases expanding it, depth, keys that are not strings, values JSON cannot hold, NaN and
// infinities, string length): a problem of the data is kept in `later` while building goes on.
function parseYAML(text) {
  if (!YAML_AVAILABLE) throw new Error("YAML needs the package yaml: run npm ci at the repository's root");
  const documents = parseAllDocuments(text, YAML_OPTIONS);
  const docs = Array.isArray(documents) ? documents : [documents];
  const syntaxOf = (doc) => {
    if (doc.errors.length) {
      // nesting the parser's own stack cannot hold is too deep (INP-006), not a syntax error
      if (doc.errors[0].code === "RESOURCE_EXHAUSTION") throw new LoadError("load.too_deep", "the document nests too deeply to read");
      throw new LoadError("load.syntax", `not valid YAML: ${doc.errors[0].message.split("\n")[0]}`);
    }
    const version = doc.directives?.yaml;
    if (version?.explicit && version.version !== "1.2") throw new LoadError("load.syntax", `a %YAML ${version.version} directive: Passdown reads YAML 1.2`);
    yaml.visit(doc, { Alias(_, node) { if (!node.resolve(doc)) throw new LoadError("load.syntax", `the alias *${node.source} names no anchor`); } });
  };
  if (!docs.length) throw new LoadError("load.syntax", "expected one YAML document, found 0");
  const doc = docs[0];
  syntaxOf(doc);
  let deferred = null;
  const later = (problem) => { deferred ??= problem; };
  let budget = 2 * characters(text) + 10000; // INP-002: aliases expanding the document
  let expanding = true;
  const anchors = new Map();
  const convert = (node, level) => {
    if (--budget < 0 && expanding) {
      later(new LoadError("load.too_large", "YAML aliases expand the document far beyond its size"));
      expanding = false; // no alias is expanded any more: what is left is still built once
    }
    if (level > LIMITS.depth) {
      later(new LoadError("load.too_deep", `the document nests deeper than ${LIMITS.depth} levels`));
      if (level > BUILD_DEPTH) throw deferred;
    }
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      if (!expanding) return null;
      let target = anchors.get(node);
      if (target === undefined) { target = node.resolve(doc); anchors.set(node, target); }
      budget++; // the alias stands for its target: one value, not two
      return convert(target, level);
    }
    const tag = node.tag === "!" ? undefined : node.tag; // `!` alone: the node is read as if untagged
    let json = true;
    if (tag !== undefined) {
      if (!Object.hasOwn(TAG_NODES, tag)) throw new LoadError("load.yaml_tag", `an unsafe or unknown YAML tag: ${tag}`);
      const kind = isScalar(node) ? "scalar" : isMap(node) ? "map" : "seq";
      if (TAG_NODES[tag] !== kind) throw new LoadError("load.syntax", `the tag ${tag} does not apply to a ${kind}`);
      if (NOT_JSON.has(tag)) {
        later(new LoadError("load.yaml_type", `a YAML ${tag.slice(TAG.length)} value is not JSON data`));
        json = false;
      }
    }
    if (isScalar(node)) {
      if (!json) return null;
      const value = tag === undefined ? (node.type === "PLAIN" ? plainScalar(node.value, later) : node.value)
        : TAGGED[tag](String(node.value), later);
      if (typeof value === "string" && tooLong(value)) later(new LoadError("load.string_too_long", "a string is too long"));
      return value;
    }
    let built;
    if (isSeq(node) && tag === `${TAG}omap`) built = omap(node, level);
    else if (isSeq(node)) built = node.items.map((item) => convert(item, level + 1));
    else if (isMap(node)) built = mapping(node, level);
    else throw new LoadError("load.syntax", "not valid YAML");
    return json ? built : null;
  };
  // A key as the mapping holds it: its string, or for a key that is not a string (a problem of
  // the data) a stand-in that only an equal key shares, so that duplicates are still found.
  const key = (node, level) => {
    const value = convert(node, level + 1);
    if (typeof value === "string") return value;
    later(new LoadError("load.yaml_type", "a mapping key is not a string"));
    return `\u0000${typeof value}:${isFloat(value) ? value.value : String(value)}`;
  };
  const mapping = (node, level) => {
    const out = new Map();
    let merges = null;
    for (const pair of node.items) {
      if (isMergeKey(pair.key)) {
        if (merges !== null) throw new LoadError("load.duplicate_key", "the merge key << appears twice in one mapping");
        merges = pair.value;
        continue;
      }
      const name = key(pair.key, level);
      if (out.has(name)) throw new LoadError("load.duplicate_key", `the key ${JSON.stringify(name)} appears twice in one mapping`);
      out.set(name, convert(pair.value, level + 1));
    }
    if (merges === null) return out;
    // INP-027: the members of the merged mappings that the mapping does not hold itself, the
    // first mapping of a list winning.
    const merged = convert(merges, level + 1);
    const sources = merged instanceof Map ? [merged] : merged;
    if (!Array.isArray(sources) || !sources.every((source) => source instanceof Map)) {
      if (merged === null && deferred !== null) return out; // an alias no longer expanded
      throw new LoadError("load.syntax", "the merge key << takes a mapping or a list of mappings");
    }
    for (const source of sources) for (const [name, item] of source) if (!out.has(name)) out.set(name, item);
    return out;
  };
  const omap = (node, level) => {
    const out = new Map();
    for (const item of node.items) {
      if (!isMap(item) || item.items.length !== 1) throw new LoadError("load.syntax", "an !!omap entry is not a one-pair mapping");
      const [entry] = mapping(item, level);
      if (out.has(entry[0])) throw new LoadError("load.duplicate_key", `the key ${JSON.stringify(entry[0])} appears twice in one mapping`);
      out.set(...entry);
    }
    return out;
  };
  const value = convert(doc.contents, 1);
  for (const other of docs.slice(1)) syntaxOf(other);
  if (docs.length !== 1) throw new LoadError("load.syntax", `expected one YAML document, found ${docs.length}`);
  if (deferred !== null) throw deferred;
  return value;
}

// -- bytes -------------------------------------------------------------------------------------

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// UTF-8 text without a byte order mark (INP-003), or LoadError.
export function decode(bytes) {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) throw new LoadError("load.bom", "the file starts with a UTF-8 byte order mark");
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw new LoadError("load.encoding", "the file is UTF-16, not UTF-8");
  if (bytes.indexOf(0) >= 0) throw new LoadError("load.encoding", "the file holds NUL bytes: UTF-16, UTF-32 or binary, not UTF-8 text");
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new LoadError("load.encoding", "the file is not valid UTF-8");
  }
}

const PARSERS = { json: (text) => parseJSON(text, STRICT), yaml: parseYAML, text: () => null };

export function load(bytes, syntax, options = {}) {
  const maxBytes = options.maxBytes === undefined ? LIMITS.bytes : options.maxBytes;
  try {
    if (maxBytes !== null && bytes.length > maxBytes) throw new LoadError("load.too_large", `the input is larger than the ${maxBytes}-byte bound`);
    const text = decode(bytes);
    if (syntax !== "text" && SPACE.test(text)) throw new LoadError("load.empty", "the file is empty");
    return { value: PARSERS[syntax](text), text };
  } catch (error) {
    if (!(error instanceof LoadError)) throw error;
    return { error: error.code, message: error.message };
  }
}

export function loadText(text, syntax, options = {}) {
  if (!text.isWellFormed()) return { error: "load.encoding", message: "the text holds a lone surrogate, which UTF-8 cannot encode" };
  return load(Buffer.from(text, "utf8"), syntax, options);
}

// -- gate input: bytes as Python's json.loads(bytes) decodes them --------------------------------

function guessEncoding(b) {
  // json.detect_encoding (RFC 4627 section 3): byte order marks first, then zero bytes.
  const starts = (...mark) => mark.every((byte, k) => b[k] === byte);
  if (starts(0, 0, 0xfe, 0xff)) return ["utf-32-be", 4];
  if (starts(0xff, 0xfe, 0, 0)) return ["utf-32-le", 4];
  if (starts(0xfe, 0xff)) return ["utf-16-be", 2];
  if (starts(0xff, 0xfe)) return ["utf-16-le", 2];
  if (starts(0xef, 0xbb, 0xbf)) return ["utf-8", 3];
  if (b.length >= 4) {
    if (!b[0]) return [b[1] ? "utf-16-be" : "utf-32-be", 0];
    if (!b[1]) return [b[2] || b[3] ? "utf-16-le" : "utf-32-le", 0];
  } else if (b.length === 2) {
    if (!b[0]) return ["utf-16-be", 0];
    if (!b[1]) return ["utf-16-le", 0];
  }
  return ["utf-8", 0];
}

function fromUnits(units) {
  let text = "";
  for (let k = 0; k < units.length; k += 8192) text += String.fromCharCode(...units.slice(k, k + 8192));
  return text;
}

function decodeSurrogatePass(b) {
  // Strict UTF-8, except that an encoded lone surrogate (ED A0 80 to ED BF BF) decodes to
  // that surrogate, as Python's "surrogatepass" error handler does.
  try { return UTF8.decode(b); } catch { /* surrogates, or invalid: decoded below */ }
  const units = [];
  for (let i = 0; i < b.length;) {
    const c = b[i];
    const cont = (k) => b[i + k] >= 0x80 && b[i + k] <= 0xbf;
    if (c < 0x80) { units.push(c); i += 1; continue; }
    if (c >= 0xc2 && c <= 0xdf && cont(1)) { units.push(((c & 0x1f) << 6) | (b[i + 1] & 0x3f)); i += 2; continue; }
    if (c >= 0xe0 && c <= 0xef && cont(1) && cont(2)) {
      const point = ((c & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f);
      if (point >= 0x800) { units.push(point); i += 3; continue; } // surrogates included
    }
    if (c >= 0xf0 && c <= 0xf4 && cont(1) && cont(2) && cont(3)) {
      const point = ((c & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f);
      if (point >= 0x10000 && point <= 0x10ffff) {
        units.push(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
        i += 4; continue;
      }
    }
    throw new LoadError("load.encoding", `invalid UTF-8 at byte ${i}`);
  }
  return fromUnits(units);
}

function decodeUnits(b, width, bigEndian) {
  // UTF-16 or UTF-32; unpaired surrogates pass, as with "surrogatepass".
  if (b.length % width) throw new LoadError("load.encoding", "truncated data");
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const units = [];
  for (let k = 0; k < b.length; k += width) {
    const point = width === 2 ? view.getUint16(k, !bigEndian) : view.getUint32(k, !bigEndian);
    if (point > 0x10ffff) throw new LoadError("load.encoding", `code point not in range at byte ${k}`);
    if (point >= 0x10000) units.push(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
    else units.push(point);
  }
  return fromUnits(units);
}

function decodeGateBytes(bytes) {
  const [encoding, mark] = guessEncoding(bytes);
  const rest = bytes.subarray(mark);
  if (encoding === "utf-8") return decodeSurrogatePass(rest);
  return decodeUnits(rest, encoding.startsWith("utf-32") ? 4 : 2, encoding.endsWith("be"));
}

export function readGateInput(bytes, limit) {
  if (bytes.length > limit) return undefined;
  try { return parseJSON(decodeGateBytes(bytes), PYTHON); } catch (error) {
    if (error instanceof LoadError) return undefined;
    throw error;
  }
}

// A value of this module's readers (Maps, BigInt, Float) as JSON.parse would give it.
export function plain(value) {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (isInt(value)) return Number(value);
  if (isFloat(value)) return value.value;
  return value;
}
