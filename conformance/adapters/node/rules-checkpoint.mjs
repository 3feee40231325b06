// The continue checkpoint's rules (spec/checkpoint.md, CKP-*; and PRC-059 of spec/procedure.md)
// for the Node.js adapter's `validate` gate, and those of any xBRIEF 0.8 document (kind
// `xbrief`, CNF-113), which are the checkpoint's core rules under `xbrief.*` codes. Rules are
// listed as rules.mjs describes them.
//
// Other tools' extension blocks (`x-<token>/...`) are never entered; timestamps are read only
// where xBRIEF 0.8 or the Passdown block defines one.

import { pythonJSON } from "./json-python.mjs";
import {
  blank, compareMoments, get, isNull, isObject, isString, listAt, notCanonical, objectAt, secretsIn, unreal, versionRules,
} from "./rules-shared.mjs";

const BLOCK = "x-passdown/checkpoint";
const HEADER = "xBRIEFInfo";
const LEGACY_HEADER = "vBRIEFInfo";
const LEGACY_VERSIONS = ["0.4", "0.5", "0.6", "0.7"];
const LEGACY_ROOTS = ["todoList", "playbook"];
const CONTAINER_TYPES = ["group", "milestone", "epic"];
const CHILD_LISTS = ["items", "subItems"];

// -- reading the document ----------------------------------------------------------------------------

// The version a legacy checkpoint declares (xBRIEF 0.4 to 0.7, or any vBRIEF), else null.
export function legacyVersion(data) {
  if (!isObject(data)) return null;
  if (data.has(LEGACY_HEADER)) {
    const version = get(data.get(LEGACY_HEADER), "version");
    return isString(version) ? version : pythonJSON(version ?? null);
  }
  const version = get(data.get(HEADER), "version");
  return LEGACY_VERSIONS.includes(version) ? version : null;
}

// The member holding the plan: `plan`, or in a legacy document without one its 0.4 root.
function rootOf(data) {
  if (isObject(data) && !isObject(data.get("plan")) && legacyVersion(data) !== null) {
    return LEGACY_ROOTS.find((name) => isObject(data.get(name))) ?? "plan";
  }
  return "plan";
}
const planOf = (data) => objectAt(data, rootOf(data)) ?? new Map();
const blockOf = (data) => objectAt(data, BLOCK);
const headerOf = (data) => (isObject(data) && data.has(LEGACY_HEADER) ? LEGACY_HEADER : HEADER);

// Every plan item at any depth, in document order (parents before children).
function itemsOf(data) {
  const found = [];
  const visit = (items) => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (!isObject(item)) continue;
      found.push(item);
      for (const name of CHILD_LISTS) visit(item.get(name));
    }
  };
  visit(planOf(data).get("items"));
  return found;
}
function itemsById(items) {
  const found = new Map();
  for (const item of items) if (isString(item.get("id")) && !found.has(item.get("id"))) found.set(item.get("id"), item);
  return found;
}
const hasCompleted = (items) => items.some((item) => item.get("status") === "completed");

function nextPending(data, items) {
  const wanted = get(objectAt(blockOf(data), "next_action"), "item_id");
  if (isString(wanted)) {
    const found = itemsById(items).get(wanted);
    if (found && found.get("status") === "pending") return found;
  }
  return items.find((item) => item.get("status") === "pending") ?? null;
}

// A container with children to roll `auto` up from: nested items, planRefs, or a planRef.
function hasChildren(item) {
  if (CHILD_LISTS.some((name) => Array.isArray(item.get(name)) && item.get(name).some(isObject))) return true;
  const refs = item.get("planRefs");
  return (Array.isArray(refs) && refs.length > 0) || isString(item.get("planRef"));
}
const edgesOf = (data) => listAt(planOf(data), "edges").filter(isObject);

function hasCycle(edges) {
  const successors = new Map();
  for (const edge of edges) {
    const [from, to] = [edge.get("from"), edge.get("to")];
    if (isString(from) && isString(to)) {
      if (!successors.has(from)) successors.set(from, []);
      successors.get(from).push(to);
    }
  }
  const state = new Map(); // 1 on the current path, 2 finished
  for (const root of successors.keys()) {
    if (state.get(root)) continue;
    state.set(root, 1);
    const path = [root];
    const iterators = [(successors.get(root) ?? [])[Symbol.iterator]()];
    while (iterators.length) {
      const step = iterators[iterators.length - 1].next();
      if (step.done) { state.set(path.pop(), 2); iterators.pop(); continue; }
      const node = step.value;
      if (state.get(node) === 1) return true;
      if (!state.get(node)) { state.set(node, 1); path.push(node); iterators.push((successors.get(node) ?? [])[Symbol.iterator]()); }
    }
  }
  return false;
}

// -- timestamps where xBRIEF 0.8 and the Passdown block define them (GEN-004, CKP-005) ---------------

const INFO_TIMESTAMPS = ["created", "updated"];
const ITEM_TIMESTAMPS = ["created", "updated", "completed", "dueDate", "startDate", "endDate"];
const BLOCK_TIMESTAMPS = ["written_at", "consumed_at"];
const PLAN_NESTED = [["changeLog", ["timestamp"], true], ["fork", ["forkedAt"], false]];
const ITEM_NESTED = [["recurrence", ["until"], false], ["lockedBy", ["acquiredAt", "expiresAt"], false]];
const BLOCK_NESTED = [["blockers", ["since"], true], ["failed_attempts", ["at"], true], ["leases", ["expires_at"], true]];

function* membersAt(node, names) {
  if (isObject(node)) for (const name of names) if (node.has(name)) yield node.get(name);
}
function* nestedAt(node, table) {
  if (!isObject(node)) return;
  for (const [member, names, isList] of table) {
    const value = node.get(member);
    if (isList && Array.isArray(value)) for (const entry of value) yield* membersAt(entry, names);
    else if (!isList) yield* membersAt(value, names);
  }
}
function* timestamps(data) {
  if (!isObject(data)) return;
  yield* membersAt(data.get(headerOf(data)), INFO_TIMESTAMPS);
  yield* membersAt(planOf(data), INFO_TIMESTAMPS);
  yield* nestedAt(planOf(data), PLAN_NESTED);
  for (const item of itemsOf(data)) { yield* membersAt(item, ITEM_TIMESTAMPS); yield* nestedAt(item, ITEM_NESTED); }
  yield* membersAt(blockOf(data), BLOCK_TIMESTAMPS);
  yield* nestedAt(blockOf(data), BLOCK_NESTED);
}

// -- the legacy forms only `passdown migrate --fix` converts (CKP-031) -------------------------------

const TYPE_CHARS = /^[a-z0-9-]+$/;
function needsFix(data) {
  const header = headerOf(data);
  const version = get(data.get(header), "version");
  if (isString(version) && version.split(".").length === 3 && version.endsWith(".0") && LEGACY_VERSIONS.includes(version.slice(0, -2))) return true;
  const root = rootOf(data);
  const plan = data.get(root);
  if (isObject(plan) && !plan.has("items") && !plan.has("subItems")) return true;
  const items = itemsOf(data);
  if (items.some((item) => isString(item.get("narrative")))) return true;
  return [planOf(data), ...items].some((node) => listAt(node, "references").some((reference) => {
    const type = get(reference, "type");
    const namespaced = isString(type) && type.length > 0 && /^\p{L}/u.test(type) && TYPE_CHARS.test(type);
    return namespaced || (isObject(reference) && !reference.has("uri"));
  }));
}

// -- the rules ----------------------------------------------------------------------------------------

const isForeignExtension = (key) => isString(key) && key.startsWith("x-") && /^x-[a-z0-9-]+\//.test(key) && !key.startsWith("x-passdown/");
const NOT_SINGULAR = /^continue[-_.].+\.json$/is;
const baseName = (name) => name.replace(/\\/g, "/").split("/").pop();
const XBRIEF_ROOTS = [HEADER, LEGACY_HEADER, "plan", BLOCK, ...LEGACY_ROOTS];

// The core rules xBRIEF 0.8 states and JSON Schema cannot (CKP-015 to CKP-018).
const CORE = {
  auto_on_leaf: ({ data }) => itemsOf(data).some((item) => item.get("status") === "auto"
    && (!CONTAINER_TYPES.includes(item.has("type") ? item.get("type") : "task") || !hasChildren(item))),
  duplicate_id: ({ data }) => {
    const seen = new Set();
    return itemsOf(data).some((item) => { const id = item.get("id"); if (!isString(id)) return false; if (seen.has(id)) return true; seen.add(id); return false; });
  },
  edge_dangling: ({ data }) => {
    const ids = itemsById(itemsOf(data));
    return edgesOf(data).some((edge) => ["from", "to"].some((end) => isString(edge.get(end)) && !ids.has(edge.get(end))));
  },
  edge_cycle: ({ data }) => hasCycle(edgesOf(data)),
};

function itemStatusIsNot(data, wanted, status) {
  const found = itemsById(itemsOf(data)).get(wanted);
  return found === undefined || found.get("status") !== status;
}

export const CHECKPOINT_RULES = [
  ...versionRules(({ data }) => { const own = blockOf(data); return own && own.has("passdown_version") ? own.get("passdown_version") : undefined; }),
  { code: "checkpoint.timestamp", check: ({ data }) => [...timestamps(data)].some(unreal) },
  { code: "checkpoint.file_name", check: ({ name }) => {
    const base = baseName(name);
    return !["continue.xbrief.json", "continue.vbrief.json"].includes(base.toLowerCase()) && NOT_SINGULAR.test(base);
  } },
  { code: "checkpoint.not_xbrief", exclusive: true, check: ({ data }) => isObject(data) && !XBRIEF_ROOTS.some((member) => data.has(member)) },
  { code: "checkpoint.legacy_vbrief", severity: "warning", check: ({ data, name }) => legacyVersion(data) !== null
      || baseName(name) === "continue.vbrief.json" || baseName(name).toLowerCase().endsWith(".vbrief.json") },
  { code: "checkpoint.legacy_fix", severity: "warning", check: ({ data }) => legacyVersion(data) !== null && needsFix(data) },
  { code: "checkpoint.no_pending_items", check: ({ data }) => isObject(data) && !itemsOf(data).some((item) => item.get("status") === "pending") },
  { code: "checkpoint.no_completed_items", severity: "warning", check: ({ data }) => isObject(data) && !hasCompleted(itemsOf(data)) },
  { code: "checkpoint.decisions_missing", check: ({ data }) => legacyVersion(data) === null
      && hasCompleted(itemsOf(data)) && blank(get(objectAt(planOf(data), "narratives"), "Decisions")) },
  { code: "checkpoint.hazards_missing", severity: "warning", check: ({ data }) => hasCompleted(itemsOf(data))
      && blank(get(objectAt(planOf(data), "narratives"), "Hazards")) },
  { code: "checkpoint.resume_point_missing", check: ({ data }) => {
    const found = nextPending(data, itemsOf(data));
    return found !== null && legacyVersion(data) === null && blank(get(objectAt(found, "narrative"), "ResumePoint"));
  } },
  { code: "checkpoint.next_action_unknown", check: ({ data }) => {
    const wanted = get(objectAt(blockOf(data), "next_action"), "item_id");
    return isString(wanted) && itemStatusIsNot(data, wanted, "pending");
  } },
  ...Object.entries(CORE).map(([name, check]) => ({ code: `checkpoint.${name}`, check })),
  { code: "checkpoint.evidence_item", check: ({ data }) => listAt(blockOf(data), "completed_work")
      .some((entry) => isString(get(entry, "item_id")) && itemStatusIsNot(data, entry.get("item_id"), "completed")) },
  { code: "checkpoint.consumed", severity: "warning", check: ({ data }) => isString(get(blockOf(data), "consumed_at")) || planOf(data).get("status") === "completed" },
  { code: "checkpoint.not_canonical", check: ({ data }) => blockOf(data) !== null && notCanonical(blockOf(data)) },
  { code: "checkpoint.secret", check: ({ data }) => secretsIn(data, isForeignExtension) },
  // PRC-059: written after every completion, failure and blocker it records
  { code: "checkpoint.written_at_stale", check: ({ data }) => {
    const own = blockOf(data);
    const written = get(own, "written_at");
    if (!own || isNull(written) || compareMoments(written, written) === null) return false;
    const events = itemsOf(data).filter((item) => item.has("completed")).map((item) => item.get("completed"));
    for (const [member, stamp] of [["failed_attempts", "at"], ["blockers", "since"]]) {
      for (const entry of listAt(own, member)) if (isObject(entry) && entry.has(stamp)) events.push(entry.get(stamp));
    }
    return events.some((when) => compareMoments(when, written) === 1);
  } },
];

export const XBRIEF_RULES = [
  ...Object.entries(CORE).map(([name, check]) => ({ code: `xbrief.${name}`, check })),
  { code: "xbrief.legacy_version", exclusive: true, check: ({ data }) => legacyVersion(data) !== null },
];
