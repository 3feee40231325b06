// Unknown members (spec/index.md, GEN-024) for the Node.js adapter's `validate` gate: a member
// the artifact's schema does not define, in an object whose members the schema lists, is
// `member.unknown` (a warning). The member sets come from the schemas themselves, walked along
// the document ($ref, allOf, anyOf, oneOf, then and else). In Passdown's own objects every
// unknown member counts; in xBRIEF's (the checkpoint's header, plan and items, which allow any
// other name, CKP-005) only a near miss of a defined name does. Other tools' `x-<token>/` blocks
// are never entered; objects the schema leaves open or closes are not judged; a newer minor
// passdown_version exempts Passdown's own objects (VER-004); a legacy checkpoint is not judged.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { legacyVersion } from "./rules-checkpoint.mjs";
import { SUPPORTED, get, isObject, isString, parseVersion } from "./rules-shared.mjs";

const SCHEMA_DIR = fileURLToPath(new URL("../../../schemas/v1/", import.meta.url));
const SCHEMA_OF_KIND = { checkpoint: "checkpoint.schema.json", registry: "registry.schema.json", ack: "ack.schema.json" };
const FOREIGN_FORMATS = new Set(["xbrief-0.8.schema.json"]);
const CUTOFF = 0.75; // how close a name must be to count as a misspelling

const files = new Map();
const schemaFile = (name) => {
  if (!files.has(name)) files.set(name, JSON.parse(readFileSync(SCHEMA_DIR + name, "utf8")));
  return files.get(name);
};

function resolve(ref, base) {
  const [target, pointer = ""] = ref.split("#");
  const file = target ? target.split("/").pop() : base;
  let node = schemaFile(file);
  for (const part of pointer.split("/").filter(Boolean)) {
    node = node && typeof node === "object" ? node[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  }
  return [file, node];
}

// Every schema object applying to a value, given those naming it directly.
function applicable(schemas) {
  const found = [];
  const seen = new Set();
  const stack = [...schemas];
  while (stack.length) {
    const [file, node] = stack.pop();
    if (!node || typeof node !== "object" || Array.isArray(node) || seen.has(node)) continue;
    seen.add(node);
    found.push([file, node]);
    if (isString(node.$ref)) stack.push(resolve(node.$ref, file));
    for (const keyword of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(node[keyword])) stack.push(...node[keyword].map((b) => [file, b]));
    for (const keyword of ["then", "else"]) if (keyword in node) stack.push([file, node[keyword]]);
  }
  return found;
}

// What the schemas say of one place: the names defined there (null: open or closed), whether
// it is Passdown's own, and the schemas of each member and of an array's items.
function place(schemas) {
  const nodes = applicable(schemas);
  const listed = nodes.filter(([, node]) => node.properties && typeof node.properties === "object");
  const openOrClosed = nodes.some(([, node]) => "additionalProperties" in node || "unevaluatedProperties" in node);
  const members = new Map();
  for (const [file, node] of listed) {
    for (const [name, schema] of Object.entries(node.properties)) {
      if (!members.has(name)) members.set(name, []);
      members.get(name).push([file, schema]);
    }
  }
  return {
    known: listed.length && !openOrClosed ? new Set(listed.flatMap(([, node]) => Object.keys(node.properties))) : null,
    own: !nodes.some(([file]) => FOREIGN_FORMATS.has(file)),
    members,
    items: nodes.filter(([, node]) => node.items && typeof node.items === "object" && !Array.isArray(node.items)).map(([file, node]) => [file, node.items]),
  };
}

const isForeignExtension = (key) => key.startsWith("x-") && /^x-[a-z0-9-]+\//.test(key) && !key.startsWith("x-passdown/");

// -- difflib's SequenceMatcher ratio (no junk) -------------------------------------------------------

function ratio(a, b) {
  const b2j = new Map();
  [...b].forEach((c, j) => { if (!b2j.has(c)) b2j.set(c, []); b2j.get(c).push(j); });
  const A = [...a];
  const B = [...b];
  const longest = (alo, ahi, blo, bhi) => {
    let [besti, bestj, bestsize] = [alo, blo, 0];
    let j2len = new Map();
    for (let i = alo; i < ahi; i++) {
      const next = new Map();
      for (const j of b2j.get(A[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    return [besti, bestj, bestsize];
  };
  let matches = 0;
  const queue = [[0, A.length, 0, B.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop();
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (!k) continue;
    matches += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  const total = A.length + B.length;
  return total ? (2 * matches) / total : 1;
}

// Whether a defined name is close to `name`: the same name in another case, or difflib's
// get_close_matches at the cutoff.
function hasNearest(name, known) {
  const lower = name.toLowerCase();
  return [...known].some((k) => (k.toLowerCase() === lower && k !== name) || ratio(k, name) >= CUTOFF);
}

// -- the walk -----------------------------------------------------------------------------------------

function hasUnknown(kind, data) {
  const schema = SCHEMA_OF_KIND[kind];
  const newer = newerMinor(kind, data);
  const stack = [[data, place([[schema, schemaFile(schema)]])]];
  while (stack.length) {
    const [value, here] = stack.pop();
    if (isObject(value)) {
      if (here.known !== null) {
        for (const key of value.keys()) {
          if (here.known.has(key) || isForeignExtension(key)) continue;
          if (here.own ? !newer : hasNearest(key, here.known)) return true;
        }
      }
      for (const [key, child] of value) {
        if ((isObject(child) || Array.isArray(child)) && here.members.has(key) && !isForeignExtension(key)) stack.push([child, place(here.members.get(key))]);
      }
    } else if (Array.isArray(value) && here.items.length) {
      const below = place(here.items);
      for (const child of value) if (isObject(child) || Array.isArray(child)) stack.push([child, below]);
    }
  }
  return false;
}

function newerMinor(kind, data) {
  const holder = kind === "checkpoint" ? get(data, "x-passdown/checkpoint") : data;
  const version = parseVersion(get(holder, "passdown_version"));
  return version !== null && version[0] === SUPPORTED[0] && version[1] > SUPPORTED[1];
}

export const unknownMemberRules = (kind) => [{
  code: "member.unknown", severity: "warning",
  check: ({ data }) => !(kind === "checkpoint" && legacyVersion(data) !== null) && hasUnknown(kind, data),
}];
