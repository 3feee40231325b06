// The semantic rules of the artifacts for the Node.js adapter's `validate` gate (validate.mjs),
// written from each artifact's spec page: what a schema cannot say (ids that repeat, steps out
// of order, times that disagree, digests, secrets...), plus the rules every artifact shares
// (spec/versioning.md's version rules, GEN-004 timestamps, GEN-006/GEN-007 digests, GEN-024
// unknown members).
//
// API: RULES, a table from artifact kind to { checks, parseText? }. `checks` is a list of rules
// { code, severity ("error" by default, or "warning"), exclusive?, check(artifact) }, where
// check returns whether the rule found something; `parseText(text)`, for a kind with a text form
// of its own (the packet), gives { data, problems: [codes] } or null. An artifact is
// { kind, name, data, text, syntax }: data as load.mjs reads it (Map, BigInt, Float...), which
// may have failed the schema, so every rule reads defensively. The gate reports a rule that
// throws as `rule.crashed` (CNF-107).

import { Buffer } from "node:buffer";
import { CanonicalError, HASHERS, canonicalJSON, parseDigest } from "./digests.mjs";
import { isInt } from "./load.mjs";
import {
  blank, digestRules, endsInAt, get, has, hasSecret, isNull, isObject, isRelativePath, isString, listAt, millis,
  notCanonical, objectAt, same, timestampRule, versionRules,
} from "./rules-shared.mjs";
import { CHECKPOINT_RULES, XBRIEF_RULES } from "./rules-checkpoint.mjs";
import { PACKET } from "./rules-packet.mjs";
import { unknownMemberRules } from "./rules-members.mjs";

// -- the ACK (spec/ack.md) -------------------------------------------------------------------------

const dirtyEntries = ({ data }) => listAt(data, "dirty_artifacts").filter(isObject);
function repeats(entries, field) {
  const seen = new Set();
  for (const entry of entries) {
    const value = get(entry, field);
    if (!isString(value)) continue;
    if (seen.has(value)) return true;
    seen.add(value);
  }
  return false;
}

const ACK = [
  ...versionRules(),
  timestampRule("ack"),
  ...digestRules("ack", function* (a) {
    if (has(a.data, "checkpoint_digest")) yield get(a.data, "checkpoint_digest");
    for (const entry of dirtyEntries(a)) if (entry.has("digest")) yield entry.get("digest");
  }),
  { code: "ack.same_source_target", check: ({ data }) => !blank(get(data, "source_id")) && get(data, "source_id") === get(data, "target_id") },
  { code: "ack.takeover_owner", check: ({ data }) => { const owner = get(objectAt(data, "takeover"), "owner_id"); return isString(owner) && owner !== get(data, "target_id"); } },
  { code: "ack.path_form", check: (a) => dirtyEntries(a).some((entry) => isString(entry.get("path")) && !isRelativePath(entry.get("path"))) },
  { code: "ack.duplicate_path", check: (a) => repeats(dirtyEntries(a), "path") },
];

// -- the handoff record and the pending confirmation (spec/handoff-record.md) ------------------------

const MAX_SESSIONS = 1000;
// A list of session entries with exactly these members, each an id (the schema's shape).
function entriesOk(list, keys, least) {
  if (!Array.isArray(list) || list.length < least || list.length > MAX_SESSIONS) return false;
  return list.every((item) => isObject(item) && item.size === keys.length && keys.every((key) => item.has(key) && isId(item.get(key))));
}
// An identifier as defs.schema.json has it: 1 to 512 characters, no C0, DEL or C1 control, not
// only white space (ECMA-262's), and Unicode text.
const isId = (v) => isString(v) && v.isWellFormed() && v.length > 0 && [...v].length <= 512
  && !/[\x00-\x1f\x7f-\x9f]/.test(v) && !/^[\t\n\v\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$/.test(v);

// The session problems of a well-formed record: codes.
function sessionProblems(data) {
  const sessions = get(data, "sessions");
  const subagents = has(data, "subagents") ? get(data, "subagents") : [];
  const requestedBy = get(data, "requested_by");
  if (!(entriesOk(sessions, ["id"], 1) && entriesOk(subagents, ["id", "parent_id"], 0) && isString(requestedBy))) return new Set();
  const problems = new Set();
  const seen = new Set();
  for (const member of [...sessions, ...subagents]) {
    if (seen.has(member.get("id"))) problems.add("handoff.duplicate_session");
    seen.add(member.get("id"));
  }
  if (!sessions.some((s) => s.get("id") === requestedBy)) problems.add("handoff.requester_not_resumed");
  if (subagents.some((sub) => !seen.has(sub.get("parent_id")))) problems.add("handoff.subagent_parent_unknown");
  if (!problems.size) {
    const woken = new Set(sessions.map((s) => s.get("id")));
    let waiting = [...subagents];
    let progress = true;
    while (waiting.length && progress) {
      progress = false;
      const still = [];
      for (const sub of waiting) {
        if (woken.has(sub.get("parent_id"))) { woken.add(sub.get("id")); progress = true; } else still.push(sub);
      }
      waiting = still;
    }
    if (waiting.length) problems.add("handoff.subagent_cycle");
  }
  return problems;
}

function handoffDigestMismatch({ data }) {
  const stated = get(data, "digest");
  if (!isObject(data) || !isString(stated) || typeof parseDigest(stated) === "string") return false;
  const covered = new Map([...data].filter(([key]) => key !== "digest" && key !== "consumed"));
  let text;
  try { text = canonicalJSON(covered); } catch (error) {
    if (error instanceof CanonicalError) return true;
    throw error;
  }
  const [algorithm, hex] = parseDigest(stated);
  return HASH(algorithm, text) !== hex;
}
const HASH = (algorithm, text) => HASHERS[algorithm](Buffer.from(text, "utf8"));

const replayedSecrets = (holder) => isObject(holder) && ["reason", "continue_prompt"].some((key) => hasSecret(holder.get(key)));
const isHandoffTimestampKey = (key) => endsInAt(key) || key === "at";

const HANDOFF = [
  ...versionRules(),
  timestampRule("handoff", isHandoffTimestampKey),
  ...digestRules("handoff", function* ({ data }) { if (has(data, "digest")) yield get(data, "digest"); }),
  ...["handoff.duplicate_session", "handoff.requester_not_resumed", "handoff.subagent_parent_unknown", "handoff.subagent_cycle"]
    .map((code) => ({ code, check: ({ data }) => isObject(data) && sessionProblems(data).has(code) })),
  { code: "handoff.digest_mismatch", check: handoffDigestMismatch },
  { code: "handoff.secret", check: ({ data }) => replayedSecrets(data) },
];

const HANDOFF_PENDING = [
  ...versionRules(),
  timestampRule("handoff_pending", isHandoffTimestampKey),
  { code: "handoff_pending.expiry_order", check: ({ data }) => {
    if (!isObject(data)) return false;
    const [created, expires] = [millis(data.get("created_at")), millis(data.get("expires_at"))];
    return created !== null && expires !== null && !(expires > created);
  } },
  { code: "handoff_pending.secret", check: ({ data }) => replayedSecrets(get(data, "plan")) },
];

// -- the relaunch receipt (spec/relaunch-receipt.md) -------------------------------------------------

// The kept brief; an empty object has nothing for the brief rules to judge.
const brief = (data) => { const found = objectAt(data, "brief"); return found && found.size ? found : null; };
const count = (v) => (isInt(v) ? v : null);

function briefWrongSession({ data }) {
  const b = brief(data);
  if (!b) return false;
  const pinned = b.get("pinned_session_id");
  const sent = (count(b.get("deliveries")) ?? 0n) > 0n || b.get("delivery") !== "pending";
  if (sent && isNull(pinned)) return true;
  const bound = get(data, "new_session_id");
  return !isNull(pinned) && !isNull(bound) && !same(pinned, bound);
}

function deliveryMismatch({ data }) {
  const b = brief(data);
  if (!b) return false;
  const deliveries = count(b.get("deliveries"));
  if (deliveries === null || deliveries > 1n) return false;
  const pending = b.get("delivery") === "pending";
  const timed = !isNull(b.get("delivered_at"));
  return pending !== (deliveries === 0n) || pending === timed;
}

function timeOrder({ data }) {
  const created = millis(get(data, "created_at"));
  const signalled = millis(get(data, "signalled_at"));
  const settled = millis(get(data, "settled_at"));
  const b = brief(data);
  const delivered = b ? millis(b.get("delivered_at")) : null;
  const before = (moment, earliest) => moment !== null && earliest !== null && moment < earliest;
  return before(signalled, created) || before(settled, signalled ?? created) || before(delivered, created);
}

const RECEIPT = [
  ...versionRules(),
  timestampRule("receipt"),
  ...digestRules("receipt", function* ({ data }) { const b = brief(data); if (b && b.has("digest")) yield b.get("digest"); }),
  { code: "receipt.launched_twice", check: ({ data }) => (count(get(data, "launches")) ?? 0n) > 1n },
  { code: "receipt.relaunched_unproven", check: ({ data }) => get(data, "outcome") === "relaunched"
      && (isNull(get(data, "signalled_at")) || count(get(data, "launches")) === 0n) },
  { code: "receipt.brief_resent", check: ({ data }) => { const b = brief(data); return !!b && (count(b.get("deliveries")) ?? 0n) > 1n; } },
  { code: "receipt.brief_wrong_session", check: briefWrongSession },
  { code: "receipt.delivery_mismatch", check: deliveryMismatch },
  { code: "receipt.status_mismatch", check: ({ data }) => {
    const settled = get(data, "status") === "settled";
    const timeOrSettlement = [isNull(get(data, "settled_at")), isNull(get(data, "settlement"))];
    return settled ? timeOrSettlement.some(Boolean) : !timeOrSettlement.every(Boolean);
  } },
  { code: "receipt.time_order", check: timeOrder },
  { code: "receipt.bound_without_session", check: ({ data }) => get(objectAt(data, "settlement"), "by") === "session_bound" && isNull(get(data, "new_session_id")) },
  { code: "receipt.same_session", check: ({ data }) => !isNull(get(data, "new_session_id")) && same(get(data, "new_session_id"), get(data, "ended_session_id")) },
  { code: "receipt.brief_unavailable_notice", check: ({ data }) => {
    const settlement = objectAt(data, "settlement");
    if (!settlement) return false;
    const hasBrief = !isNull(get(data, "brief"));
    const notice = settlement.get("notice");
    return hasBrief ? notice === "brief_unavailable" : notice !== "brief_unavailable";
  } },
];

// -- the restart registry (spec/registry.md) ---------------------------------------------------------

const OPEN_STATES = new Set(["registered", "creation_unknown", "created", "acknowledged", "committed"]);
const attemptsOf = (data) => listAt(data, "attempts").filter(isObject);
const creationStatus = (attempt) => get(objectAt(attempt, "creation"), "status");
const archiveStatus = (attempt) => get(objectAt(attempt, "archive"), "status");
const ackMatched = (attempt) => get(objectAt(attempt, "ack"), "matches") === true;
const takeoverVerified = (attempt) => get(objectAt(attempt, "takeover"), "verified") === true;
const committedEpoch = (attempt) => { const epoch = get(objectAt(attempt, "ownership"), "fencing_epoch"); return isInt(epoch) ? epoch : null; };

const CONFIRMED = (a) => creationStatus(a) === "confirmed";
const COMMITTED = (a) => objectAt(a, "ownership") !== null;
const NO_ACK = (a) => isNull(a.get("ack"));
const NO_COMMIT = (a) => isNull(a.get("ownership"));
const NO_TAKEOVER = (a) => isNull(a.get("takeover"));
const NOT_ARCHIVING = (a) => archiveStatus(a) === "NOT_STARTED";
// What each attempt state requires (REG-009): every step up to the one it names, none after it.
const STATE_NEEDS = {
  registered: [(a) => creationStatus(a) === "not_sent", NO_ACK, NO_COMMIT, NO_TAKEOVER, NOT_ARCHIVING],
  creation_unknown: [(a) => creationStatus(a) === "unknown", NO_ACK, NO_COMMIT, NO_TAKEOVER, NOT_ARCHIVING],
  created: [CONFIRMED, (a) => !ackMatched(a), NO_COMMIT, NO_TAKEOVER, NOT_ARCHIVING],
  acknowledged: [CONFIRMED, ackMatched, NO_COMMIT, NO_TAKEOVER, NOT_ARCHIVING],
  committed: [CONFIRMED, ackMatched, COMMITTED, NO_TAKEOVER, NOT_ARCHIVING],
  taken_over: [CONFIRMED, ackMatched, COMMITTED, takeoverVerified, (a) => archiveStatus(a) !== "ARCHIVED"],
  completed: [CONFIRMED, ackMatched, COMMITTED, takeoverVerified, (a) => archiveStatus(a) === "ARCHIVED"],
  abandoned: [NO_COMMIT],
};

const SUFFIX = / \| started [0-9]{2}-[0-9]{2}$/;
function displayTitle(base, startedAt, zone) {
  // `<base> | started DD-MM`, the date in the zone, as the title gate writes it; null when the
  // gate would answer TITLE_UNAVAILABLE.
  let stripped = base.trim();
  while (SUFFIX.test(stripped)) stripped = stripped.replace(SUFFIX, "");
  stripped = stripped.trim();
  const moment = millis(startedAt);
  if (!stripped || moment === null || !knownZone(zone)) return null;
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-GB", { timeZone: zone, day: "2-digit", month: "2-digit" })
    .formatToParts(new Date(Number(moment))).map((p) => [p.type, p.value]));
  return `${stripped} | started ${parts.day}-${parts.month}`;
}
// An IANA zone name this system knows (REG-022), spelt as the database spells it: ICU would
// also take `EUROPE/WARSAW`, which names no file of the zone database.
function knownZone(zone) {
  if (zone === "UTC") return true;
  if (!isString(zone) || !zone || zone !== zone.trim()) return false;
  let resolved;
  try { resolved = new Intl.DateTimeFormat("en", { timeZone: zone }).resolvedOptions().timeZone; } catch { return false; }
  return resolved === zone || resolved.toLowerCase() !== zone.toLowerCase(); // itself, or an alias of another
}

function titleRows(data) {
  const policyZone = get(objectAt(data, "policy"), "timezone");
  return [...listAt(data, "titles").filter(isObject).map((row) => [row, row.get("timezone")]),
    ...listAt(data, "sessions").filter(isObject).map((row) => [row, policyZone])];
}

const REGISTRY = [
  ...versionRules(),
  timestampRule("registry"),
  ...digestRules("registry", function* ({ data }) {
    for (const attempt of attemptsOf(data)) {
      for (const name of ["checkpoint_digest", "continue_checkpoint_digest"]) if (attempt.has(name)) yield attempt.get(name);
      const ack = objectAt(attempt, "ack");
      if (ack && ack.has("ack_digest")) yield ack.get("ack_digest");
    }
  }),
  { code: "registry.duplicate_restart_id", check: ({ data }) => repeats(attemptsOf(data), "restart_id") },
  { code: "registry.attempt_state", check: ({ data }) => attemptsOf(data).some((a) => {
    const needs = isString(a.get("state")) && Object.hasOwn(STATE_NEEDS, a.get("state")) ? STATE_NEEDS[a.get("state")] : [];
    return needs.some((holds) => !holds(a));
  }) },
  { code: "registry.ack_before_creation", check: ({ data }) => attemptsOf(data).some((a) => !isNull(a.get("ack")) && !CONFIRMED(a)) },
  { code: "registry.commit_before_ack", check: ({ data }) => attemptsOf(data).some((a) => !isNull(a.get("ownership")) && !ackMatched(a)) },
  { code: "registry.takeover_before_commit", check: ({ data }) => attemptsOf(data).some((a) => !isNull(a.get("takeover")) && isNull(a.get("ownership"))) },
  { code: "registry.archive_before_takeover", check: ({ data }) => attemptsOf(data).some((a) => isString(archiveStatus(a)) && archiveStatus(a) !== "NOT_STARTED" && !takeoverVerified(a)) },
  { code: "registry.target_identity", check: ({ data }) => attemptsOf(data).some((a) => CONFIRMED(a)
      && (blank(a.get("target_id")) || same(a.get("target_id"), a.get("source_id")))) },
  { code: "registry.receipt_mismatch", check: ({ data }) => attemptsOf(data).some((a) => {
    const receipt = get(objectAt(a, "creation"), "receipt");
    return isString(get(receipt, "target_id")) && receipt.get("target_id") !== a.get("target_id");
  }) },
  { code: "registry.ownership_mismatch", check: ({ data }) => attemptsOf(data).some((a) => {
    const ownership = objectAt(a, "ownership");
    return !!ownership && [["from_id", "source_id"], ["to_id", "target_id"]]
      .some(([end, expected]) => isString(ownership.get(end)) && ownership.get(end) !== a.get(expected));
  }) },
  { code: "registry.concurrent_attempts", check: ({ data }) => attemptsOf(data).filter((a) => OPEN_STATES.has(a.get("state"))).length > 1 },
  { code: "registry.fencing_regressed", check: ({ data }) => {
    let highest = null;
    for (const epoch of attemptsOf(data).map(committedEpoch).filter((e) => e !== null)) {
      if (highest !== null && epoch <= highest) return true;
      highest = highest === null || epoch > highest ? epoch : highest;
    }
    return false;
  } },
  { code: "registry.fencing_behind", check: ({ data }) => {
    const current = get(data, "fencing_epoch");
    return isInt(current) && attemptsOf(data).map(committedEpoch).some((epoch) => epoch !== null && epoch > current);
  } },
  { code: "registry.display_title", check: ({ data }) => titleRows(data).some(([row, zone]) => {
    const [base, started, shown] = ["title_base", "started_at", "display_title"].map((key) => row.get(key));
    if (isString(base) && SUFFIX.test(base.trim())) return true;
    if (![base, started, shown, zone].every(isString)) return false;
    const expected = displayTitle(base, started, zone);
    return expected !== null && shown !== expected;
  }) },
  { code: "registry.title_status", check: ({ data }) => listAt(data, "titles").some((row) => get(row, "title_status") === "VERIFIED"
      && (isNull(row.get("started_at")) || isNull(row.get("display_title")))) },
  { code: "registry.timezone", check: ({ data }) => {
    const zones = [];
    if (objectAt(data, "policy")) zones.push(objectAt(data, "policy").get("timezone"));
    zones.push(...listAt(data, "titles").filter(isObject).map((row) => row.get("timezone")));
    return zones.some((zone) => isString(zone) && !knownZone(zone));
  } },
  { code: "registry.goal_mismatch", check: ({ data }) => {
    const goal = get(objectAt(data, "policy"), "goal_id");
    const observed = get(objectAt(objectAt(data, "observation"), "inputs"), "goal_id");
    return isString(goal) && isString(observed) && goal !== observed;
  } },
  { code: "registry.path_escape", check: ({ data }) => { const path = get(objectAt(data, "policy"), "checkpoint_path"); return isString(path) && !isRelativePath(path); } },
  { code: "registry.main_unknown", severity: "warning", check: ({ data }) => {
    const main = get(objectAt(data, "policy"), "main_id");
    return isString(main) && !listAt(data, "sessions").some((row) => get(row, "thread_id") === main);
  } },
  { code: "registry.not_canonical", check: ({ data }) => notCanonical(data) },
];

// -- the table ---------------------------------------------------------------------------------------

export const RULES = {
  ack: { checks: [...ACK, ...unknownMemberRules("ack")] },
  handoff: { checks: HANDOFF },
  handoff_pending: { checks: HANDOFF_PENDING },
  receipt: { checks: RECEIPT },
  registry: { checks: [...REGISTRY, ...unknownMemberRules("registry")] },
  checkpoint: { checks: [...CHECKPOINT_RULES, ...unknownMemberRules("checkpoint")] },
  xbrief: { checks: XBRIEF_RULES },
  packet: PACKET,
};
