// Finds a field a record's reader never reads (Claude Code's `toolUseResult`, Codex's `payload.item`) in a line's
// bytes, so the line is decoded and JSON-parsed without it.
//
// Why: Claude Code writes every tool output twice on a line, in `message.content[].content` (what the model saw) and
// in `toolUseResult` (the tool's own data, which no reader of ours uses): on a real 8 MB session that field is 43 % of
// the bytes, and decoding and parsing it was most of what reading cost beyond the rest of the line. Codex repeats
// each item in an `item_completed` event (half of the 4 MB bench rollout), which its reader skips.

/** Lines this long or longer are left whole: the parser's depth check looks at those (safeJson DEPTH_CHECK_BYTES). */
const MAX_LINE_BYTES = 4 << 20;

import type { UnreadField } from '../core/read/formatReader';

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d;

/**
 * A field's key as written (`"name":`); for a field of a top-level object, the parent's key preceded by the record's
 * `type` member (`"type":"event_msg","payload":`).
 */
export interface FieldKey { readonly key: Buffer; readonly parent?: Buffer }

/** The bytes `unreadRange` looks for. */
export function fieldKey(field: UnreadField): FieldKey {
  const key = (name: string): string => `${JSON.stringify(name)}:`;
  const parent = field.parent === undefined ? undefined : `${field.parentOf === undefined ? '' : `${key('type')}${JSON.stringify(field.parentOf)},`}${key(field.parent)}`;
  return { key: Buffer.from(key(field.name), 'utf8'), parent: parent === undefined ? undefined : Buffer.from(parent, 'utf8') };
}

/**
 * Where the closing quote of the string whose opening quote is at `open` is, or -1 when the line ends first. A
 * quote inside a string is always escaped (an odd run of backslashes before it).
 */
function stringEnd(b: Buffer, open: number, end: number): number {
  let q = open;
  for (;;) {
    q = b.indexOf(QUOTE, q + 1);
    if (q < 0 || q >= end) return -1;
    let slashes = 0;
    while (b[q - 1 - slashes] === BACKSLASH) slashes++;
    if ((slashes & 1) === 0) return q;
  }
}

/**
 * Where the value that starts at `from` ends: the `,` or `}`/`]` after it at its own level, or -1 when the line ends
 * first. Strings are skipped whole (their brackets are text).
 */
function valueEnd(b: Buffer, from: number, end: number): number {
  let depth = 0;
  for (let i = from; i < end; i++) {
    const c = b[i]!;
    if (c === QUOTE) {
      i = stringEnd(b, i, end);
      if (i < 0) return -1;
    } else if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
    else if (c === CLOSE_OBJ || c === CLOSE_ARR) { if (depth-- === 0) return i; }
    else if (c === COMMA && depth === 0) return i;
  }
  return -1;
}

/** From a `,` after a member (or a close), past the members that follow: where their object closes, or -1. */
function objectClose(b: Buffer, at: number, end: number): number {
  let c = at;
  while (c >= 0 && b[c] === COMMA) c = valueEnd(b, c + 1, end);
  return c >= 0 && b[c] === CLOSE_OBJ ? c : -1;
}

/** Whether `b[at, at + key.length)` is `key`. */
const isAt = (b: Buffer, at: number, key: Buffer): boolean => b.compare(key, 0, key.length, at, at + key.length) === 0;

/**
 * Where the key `key` of the object whose `{` is at `open` begins: its members before it are stepped over (a
 * record's `payload` opens with a few short ones), -1 when the object has no such member or ends first.
 */
function memberAt(b: Buffer, open: number, end: number, key: Buffer): number {
  let i = open + 1;
  while (i < end && b[i] === QUOTE) {
    if (isAt(b, i, key)) return i;
    const next = valueEnd(b, i, end);
    if (next < 0 || b[next] !== COMMA) return -1;
    i = next + 1;
  }
  return -1;
}

/**
 * The byte range `[start, end)` to leave out of the line `b[from, to)` so that it parses as the same record without
 * the field `field` (its comma included), or undefined to keep the line whole: the field is absent, not where
 * `field` says, or the line is too long or not shaped as one compact JSON object.
 *
 * The key's bytes found are a key token: `"name":` with an unescaped closing quote cannot sit inside a string. It is
 * a key of the top-level object when, after its value, the rest of the line closes exactly one object level and that
 * closing brace is the line's last byte: the object holding the field then ends the line, which only the record does.
 * So only the field's value and what follows it are scanned, never the part of the line before it. A field of a
 * top-level object (`payload.item`): the parent's key is found so, its members before the field stepped over.
 */
export function unreadRange(b: Buffer, from: number, to: number, field: FieldKey): { start: number; end: number } | undefined {
  const { key, parent } = field;
  if (to - from >= MAX_LINE_BYTES || to - from < key.length + 2 || b[from] !== OPEN_OBJ || b[to - 1] !== CLOSE_OBJ) return undefined;
  let k: number;
  if (parent) {
    const at = b.subarray(from, to).indexOf(parent);
    const p = from + at;
    if (at <= 0 || (b[p - 1] !== COMMA && b[p - 1] !== OPEN_OBJ) || b[p + parent.length] !== OPEN_OBJ) return undefined;
    k = memberAt(b, p + parent.length, to, key);
    if (k < 0) return undefined;
  } else {
    const at = b.subarray(from, to).indexOf(key);
    if (at <= 0) return undefined;
    k = from + at;
  }
  // `\"name":` ends a string that holds the name: not this key (a key always follows `{` or `,` in compact JSON).
  if (b[k - 1] !== COMMA && b[k - 1] !== OPEN_OBJ) return undefined;
  const v = valueEnd(b, k + key.length, to);
  if (v < 0 || v === k + key.length) return undefined;
  // The rest must close the object the key is in (and then the record, for a parent's field) at the line's last byte.
  let close = objectClose(b, v, to);
  if (parent && close >= 0) close = objectClose(b, close + 1, to);
  if (close !== to - 1) return undefined;
  // A comma before the key goes with it; the first key takes the comma after it instead (`{"name":1,"a":2}`).
  return b[k - 1] === COMMA ? { start: k - 1, end: v } : { start: k, end: b[v] === COMMA ? v + 1 : v };
}
