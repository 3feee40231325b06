// The `observe` gate (spec/gates/observe.md), written from the spec for the Node.js adapter:
// which records of a Claude Code transcript's or a Codex CLI rollout's tail give the context
// size of the latest call, and the session's id, start, model and capacity. `decide` takes a
// parsed input value, `run` the raw input bytes. No dependencies.

// The strict input reading and the value tests are the recovery gate module's (GEN-018).
import { Invalid, count, isObject, readStrict } from "./recovery.mjs";

export const VERSION = "1.0.0";
const MAX_INPUT_BYTES = 64 * 1024 * 1024; // HST-125
// GEN-017: ECMA-262's \s, what "only white space" means for an id.
const WHITE_SPACE = /^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$/;
const BLANK_LINE = /^[ \t\r]*$/; // HST-126
const EXIT = { measured: 0, compacted: 0, no_call: 0, not_a_session: 1 };
const CLAUDE_COUNTS = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];
const SYNTHETIC = "<synthetic>";
const COMPACTED = "compacted";

// A member's value, undefined when the object lacks it.
const get = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);

const text = (value) => (typeof value === "string" && !WHITE_SPACE.test(value) ? value : null);
const timestamp = (record) => (typeof get(record, "timestamp") === "string" ? record.timestamp : null);

// -- Claude Code (HST-128) ---------------------------------------------------------------------

function claudeCall(record) {
  if (get(record, "type") !== "assistant" || get(record, "isSidechain") === true) return null;
  const message = get(record, "message");
  if (!isObject(message) || !isObject(get(message, "usage"))) return null;
  const model = typeof get(message, "model") === "string" ? message.model : null;
  if (model === SYNTHETIC) return null;
  let tokens = 0;
  for (const name of CLAUDE_COUNTS) {
    const given = get(message.usage, name);
    const n = given === undefined ? 0 : count(given);
    if (n === null) return null;
    tokens += n;
  }
  return [tokens, model];
}

function claudeLatest(newestFirst) {
  for (const record of newestFirst) {
    if (get(record, "type") === "system" && get(record, "subtype") === "compact_boundary") return COMPACTED;
    const call = claudeCall(record);
    if (call) return [call[0], call[1], timestamp(record), null];
  }
  return null;
}

const claudeSession = (record) => text(get(record, "sessionId"));

function firstTimestamp(records) {
  for (const record of records) if (timestamp(record) !== null) return record.timestamp;
  return null;
}

// -- Codex CLI (HST-129) -----------------------------------------------------------------------

function payloadOf(record, kind) {
  const payload = get(record, "payload");
  return get(record, "type") === kind && isObject(payload) ? payload : null;
}

const codexMeta = (records) => records.map((r) => payloadOf(r, "session_meta")).find((p) => p !== null) ?? null;

function codexSession(record) {
  const payload = payloadOf(record, "session_meta");
  return payload ? text(get(payload, "id")) : null;
}

function codexStarted(records) {
  const meta = codexMeta(records);
  if (meta && typeof get(meta, "timestamp") === "string") return meta.timestamp;
  return firstTimestamp(records);
}

// A token count that reports a call: an input count, and input or output above zero.
function codexUsage(record) {
  const payload = payloadOf(record, "event_msg");
  if (!payload || get(payload, "type") !== "token_count") return null;
  const info = get(payload, "info");
  const last = isObject(info) ? get(info, "last_token_usage") : undefined;
  const tokens = isObject(last) ? count(get(last, "input_tokens")) : null;
  if (tokens === null || (tokens === 0 && !count(get(last, "output_tokens")))) return null;
  return [tokens, info];
}

function codexLatest(newestFirst) {
  let found = null;
  for (const record of newestFirst) {
    if (found === null) {
      if (get(record, "type") === COMPACTED) return COMPACTED;
      const usage = codexUsage(record);
      if (usage) found = [usage[0], null, timestamp(record), count(get(usage[1], "model_context_window"))];
    } else {
      const context = payloadOf(record, "turn_context");
      if (context && typeof get(context, "model") === "string") {
        found[1] = context.model;
        break;
      }
    }
  }
  return found;
}

const HOSTS = {
  claude: { session: claudeSession, recognised: (records) => records.some((r) => claudeSession(r) !== null),
    started: firstTimestamp, latest: claudeLatest },
  codex: { session: codexSession, recognised: (records) => codexMeta(records) !== null,
    started: codexStarted, latest: codexLatest },
};

// -- the gate ----------------------------------------------------------------------------------

// HST-126: each line a JSON object is a record; other non-blank lines are skipped and counted.
function records(source) {
  const found = [];
  let skipped = 0;
  for (const line of source.split("\n")) {
    if (BLANK_LINE.test(line)) continue;
    let value;
    try { value = JSON.parse(line); } catch { value = undefined; }
    if (isObject(value)) found.push(value);
    else skipped++;
  }
  return [found, skipped];
}

const field = (value) => ({ value: value ?? null, basis: value === null || value === undefined ? "unknown" : "measured" });

function observe(host, tailText, headText) {
  const rules = HOSTS[host];
  const [tail, skipped] = records(tailText);
  const head = headText === null ? tail : records(headText)[0];
  if (!rules.recognised(head)) return { outcome: "not_a_session", host, records: tail.length, skipped_lines: skipped };
  const latest = rules.latest([...tail].reverse());
  const measured = Array.isArray(latest);
  const session = head.map(rules.session).find((s) => s !== null) ?? tail.map(rules.session).find((s) => s !== null) ?? null;
  return {
    outcome: measured ? "measured" : latest ?? "no_call",
    host,
    current_input_tokens: field(measured ? latest[0] : null),
    call_at: field(measured ? latest[2] : null),
    model: field(measured ? latest[1] : null),
    context_capacity_tokens: field(measured ? latest[3] : null),
    session_id: field(session),
    started_at: field(rules.started(head)),
    records: tail.length,
    skipped_lines: skipped,
  };
}

function plan(value) {
  if (!isObject(value)) throw new Invalid("$");
  const host = get(value, "host");
  if (typeof host !== "string" || !Object.hasOwn(HOSTS, host)) throw new Invalid("$.host");
  if (typeof get(value, "tail") !== "string") throw new Invalid("$.tail");
  const head = get(value, "head") ?? null;
  if (head !== null && typeof head !== "string") throw new Invalid("$.head");
  return observe(value.host, value.tail, head);
}

const invalid = (field) => [{ outcome: "invalid_input", field }, 2];

export function decide(value) {
  try {
    const output = plan(value);
    return [output, EXIT[output.outcome]];
  } catch (error) {
    if (error instanceof Invalid) return invalid(error.path);
    throw error;
  }
}

// HST-125: at most 64 MiB of strict JSON (UTF-8 without a byte order mark, no repeated key, no
// NaN or infinity); anything else is invalid input at `$`.
export function run(bytes) {
  const value = readStrict(bytes, MAX_INPUT_BYTES);
  return value === undefined ? invalid("$") : decide(value);
}
