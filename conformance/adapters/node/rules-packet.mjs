// The continuation packet for the Node.js adapter's `validate` gate (spec/packet.md): its text
// grammar (text to fields, and the grammar's problems: packet.syntax, packet.line_ending,
// packet.control_char), the JSON projection the schema checks for both forms, and the packet's
// rules (PKT-*), with the procedure's ban on transcripts and browser state (PKT-017).
//
// Grammar: a field starts in column 0 as `KEY: value` (or `KEY:` with the value on the next
// lines); a value continues on lines indented by exactly two spaces; an empty line inside a
// value is kept when a continuation line follows it; lines end with LF.

import { Buffer } from "node:buffer";
import { digestRules, isObject, isString, secretsIn, hasSecret, topLevelVersion, versionRules } from "./rules-shared.mjs";

const FIELDS = [
  ["GOAL_ID", "goal_id"], ["OUTCOME / ACCEPTANCE", "outcome_acceptance"], ["AUTHORITY", "authority"],
  ["POLICY", "policy"], ["SOURCE", "source"], ["WORKING_STATE", "working_state"], ["PROGRESS", "progress"],
  ["DECISIONS", "decisions"], ["LIVE_WORK", "live_work"], ["NEXT_SAFE_ACTION", "next_safe_action"],
  ["RESTART_ID", "restart_id"], ["CHECKPOINT_DIGEST", "checkpoint_digest"],
];
const KEYS = FIELDS.map(([key]) => key);
const MEMBER_BY_KEY = new Map(FIELDS);
const MAX_BYTES = 64 * 1024; // PKT-014
const WORD_BOUND = 2000; // PKT-013

const KEY_LINE = /^([A-Z][A-Z0-9_]*(?:[ \t]*\/[ \t]*[A-Z][A-Z0-9_]*)*):(?: ([\s\S]*)|[ \t]*)$/;
const FORBIDDEN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const rstrip = (s) => s.replace(/[ \t]+$/, "");

// A value as the grammar carries it: no blanks at line ends, no empty first or last lines.
function canonicalValue(value) {
  const lines = value.replace(/\r\n/g, "\n").replace(/\r/g, "\n").split("\n").map(rstrip);
  while (lines.length && !lines[0]) lines.shift();
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  return lines.join("\n");
}

// Packet text to { fields: [{key, value, line}], problems: [codes] }.
function parse(text) {
  const problems = [];
  if (text.includes("\r")) {
    problems.push("packet.line_ending");
    text = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  }
  const fields = [];
  let key = null;
  let keyLine = 0;
  let lines = [];
  let blanks = 0;
  const close = () => { if (key !== null) fields.push({ key, value: canonicalValue(lines.join("\n")), line: keyLine }); };
  text.split("\n").forEach((line, index) => {
    if (FORBIDDEN.test(line)) problems.push("packet.control_char");
    if (!line.replace(/^[ \t]+|[ \t]+$/g, "")) { blanks++; return; }
    if (line.startsWith("  ")) {
      if (key === null) problems.push("packet.syntax");
      else { lines.push(...Array(blanks).fill(""), rstrip(line.slice(2))); }
      blanks = 0;
      return;
    }
    blanks = 0;
    const match = KEY_LINE.exec(line);
    if (match === null) { problems.push("packet.syntax"); return; }
    close();
    key = match[1];
    keyLine = index + 1;
    lines = [rstrip(match[2] ?? "")];
  });
  close();
  return { fields, problems };
}

// The JSON projection of parsed text: one member per known field present (the first of each).
function projection(parsed) {
  const out = new Map([["passdown_version", "1.0"], ["kind", "packet"]]);
  for (const field of parsed.fields) {
    const member = MEMBER_BY_KEY.get(field.key);
    if (member && !out.has(member)) out.set(member, field.value);
  }
  return out;
}

const isProjection = (text) => isString(text) && /^[ \t\r\n]*\{/.test(text);

// The packet's fields, and whether it came as the JSON projection.
function read({ data, text }) {
  if (isObject(data) && isProjection(text)) {
    return [{ fields: FIELDS.filter(([, member]) => isString(data.get(member))).map(([key, member]) => ({ key, value: data.get(member) })) }, true];
  }
  return [isString(text) ? parse(text) : { fields: [] }, false];
}

// -- transcripts and browser state (PKT-017) ------------------------------------------------------

const LINE_START = "^(?:  |[A-Z][A-Z0-9_]*(?: / [A-Z][A-Z0-9_]*)*: )?";
const TURN = new RegExp(`${LINE_START}[>#*_ \\t-]*(?<label>user|human|assistant|ai)(?:\\*\\*|__)?[ \\t]*:`, "gim");
const JSON_TURN = /"(?:role|type)"[ \t]*:[ \t]*"(?<label>user|human|assistant)"/gi;
const SIDE = { user: "user", human: "user", assistant: "assistant", ai: "assistant" };
const BROWSER_STATE = [
  new RegExp(`${LINE_START}[ \\t]*#[ \\t]*(?:Netscape[ \\t]+)?HTTP[ \\t]+Cookie[ \\t]+File`, "im"),
  new RegExp(`${LINE_START}(?:#HttpOnly_)?[^\\s]+\\t(?:TRUE|FALSE)\\t[^\\t\\n]*\\t(?:TRUE|FALSE)\\t\\d+\\t[^\\t\\n]+\\t`, "im"),
  /"cookies"\s*:\s*\[\s*\{/,
  /"(?:localStorage|sessionStorage)"\s*:\s*[[{]/,
];
// The texts searched: the whole text of a text packet, or each field of a projection.
const searched = (artifact) => {
  const [parsed, isJSON] = read(artifact);
  if (isJSON) return parsed.fields.map((field) => field.value);
  return isString(artifact.text) ? [artifact.text] : [];
};
function holdsTranscript(artifact) {
  const turns = { user: 0, assistant: 0 };
  for (const text of searched(artifact)) {
    for (const pattern of [TURN, JSON_TURN]) {
      for (const match of text.matchAll(pattern)) turns[SIDE[match.groups.label.toLowerCase()]]++;
    }
  }
  return Math.min(turns.user, turns.assistant) >= 2;
}

// -- the rules ----------------------------------------------------------------------------------------

const KEY_SHAPE = /[^A-Z0-9]/g;
// Python's str.split(): words between runs of white space.
const WORDS = /[^\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

const CHECKS = [
  ...versionRules((artifact) => (read(artifact)[1] ? topLevelVersion(artifact) : undefined)),
  { code: "packet.unknown_field", check: (artifact) => {
    const [parsed, isJSON] = read(artifact);
    return !isJSON && parsed.fields.some((field) => !MEMBER_BY_KEY.has(field.key));
  } },
  { code: "packet.duplicate_field", check: (artifact) => {
    const keys = read(artifact)[0].fields.map((field) => field.key);
    return new Set(keys).size !== keys.length;
  } },
  { code: "packet.field_order", check: (artifact) => {
    const [parsed, isJSON] = read(artifact);
    if (isJSON) return false;
    const seen = new Set();
    let latest = -1;
    for (const field of parsed.fields) {
      const position = KEYS.indexOf(field.key);
      if (position < 0 || seen.has(field.key)) continue;
      seen.add(field.key);
      if (position < latest) return true;
      latest = position;
    }
    return false;
  } },
  ...digestRules("packet", function* (artifact) {
    const field = read(artifact)[0].fields.find((f) => f.key === "CHECKPOINT_DIGEST");
    if (field && field.value) yield field.value;
  }),
  { code: "packet.too_many_words", severity: "warning", check: (artifact) => read(artifact)[0].fields
      .reduce((total, field) => total + (field.value.match(WORDS)?.length ?? 0), 0) > WORD_BOUND },
  { code: "packet.too_large", check: ({ text }) => isString(text) && Buffer.byteLength(text, "utf8") > MAX_BYTES },
  { code: "packet.secret", check: (artifact) => (read(artifact)[1] ? secretsIn(artifact.data) : hasSecret(artifact.text)) },
  { code: "packet.transcript", check: holdsTranscript },
  { code: "packet.browser_state", check: (artifact) => searched(artifact).some((text) => BROWSER_STATE.some((pattern) => pattern.test(text))) },
];

export const PACKET = {
  checks: CHECKS,
  parseText: (text) => { const parsed = parse(text); return { data: projection(parsed), problems: parsed.problems }; },
};
