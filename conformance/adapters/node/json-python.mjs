// JSON text as Python's json.dumps writes it (ASCII only, ", " and ": " separators, floats as
// repr): the validate gate checks a `document` as this text (CNF-101), and messages show values
// in it. Values are load.mjs's (Map, BigInt, Float) or JSON.parse's.

import { isFloat, isInt } from "./load.mjs";


export function floatRepr(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exponentText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exponent);
    return `${sign}${body}e${exponent < 0 ? "-" : "+"}${e < 10 ? "0" : ""}${e}`;
  }
  const point = exponent + 1;
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export const asciiString = (s) => `"${s.replace(/[\x00-\x1f"\\\u007f-\uffff]/g, (c) => {
  const named = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" }[c];
  return named ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
})}"`;

// json.dumps(value) with the default separators: `sortKeys` sorts members (UTF-16 order, which
// is code point order for the BMP), `maxDigits` refuses an integer longer than Python prints.
export function pythonJSON(value, { sortKeys = false, maxDigits = null } = {}) {
  const write = (v) => pythonJSON(v, { sortKeys, maxDigits });
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (isInt(value)) {
    const text = value.toString();
    if (maxDigits !== null && text.replace("-", "").length > maxDigits) throw new Error("int too long to print");
    return text;
  }
  if (isFloat(value)) return floatRepr(value.value);
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : floatRepr(value);
  if (typeof value === "string") return asciiString(value);
  if (Array.isArray(value)) return `[${value.map(write).join(", ")}]`;
  const entries = [...(value instanceof Map ? value.entries() : Object.entries(value))];
  if (sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${asciiString(k)}: ${write(v)}`).join(", ")}}`;
}
