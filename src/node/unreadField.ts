// Finds a record's top-level field its reader never reads (Claude Code's `toolUseResult`) in a line's bytes, so
// the line is decoded and JSON-parsed without it.
//
// Why: Claude Code writes every tool output twice on a line, in `message.content[].content` (what the model saw) and
// in `toolUseResult` (the tool's own data, which no reader of ours uses): on a real 8 MB session that field is 43 % of
// the bytes, and decoding and parsing it was most of what reading cost beyond the rest of the line.

/** Lines this long or longer are left whole: the parser's depth check looks at those (safeJson DEPTH_CHECK_BYTES). */
const MAX_LINE_BYTES = 4 << 20;

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c;
const OPEN_OBJ = 0x7b, CLOSE_OBJ = 0x7d, OPEN_ARR = 0x5b, CLOSE_ARR = 0x5d;

/** The bytes a field's key is written as: `"name":`. */
export function fieldKey(name: string): Buffer {
  return Buffer.from(`${JSON.stringify(name)}:`, 'utf8');
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

/**
 * The byte range `[start, end)` to leave out of the line `b[from, to)` so that it parses as the same record without
 * the top-level field whose key is `key` (its comma included), or undefined to keep the line whole: the field is
 * absent, not on the record's top level, or the line is too long or not shaped as one JSON object.
 *
 * The key's bytes found are a key token: `"name":` with an unescaped closing quote cannot sit inside a string. It is
 * a key of the top-level object when, after its value, the rest of the line closes exactly one object level and that
 * closing brace is the line's last byte: the object holding the field then ends the line, which only the record does.
 * So only the field's value and what follows it are scanned, never the part of the line before it.
 */
export function unreadRange(b: Buffer, from: number, to: number, key: Buffer): { start: number; end: number } | undefined {
  if (to - from >= MAX_LINE_BYTES || to - from < key.length + 2 || b[from] !== OPEN_OBJ || b[to - 1] !== CLOSE_OBJ) return undefined;
  const at = b.subarray(from, to).indexOf(key);
  if (at <= 0) return undefined;
  const k = from + at;
  if (b[k - 1] === BACKSLASH) return undefined; // `\"name":` ends a string that holds the name: not this key
  const v = valueEnd(b, k + key.length, to);
  if (v < 0 || v === k + key.length) return undefined;
  // The rest of the line must close the object the key is in, and that must be the line's last byte.
  let close = v;
  while (b[close] === COMMA) {
    const next = valueEnd(b, close + 1, to);
    if (next < 0) return undefined;
    close = next;
  }
  if (close !== to - 1 || b[close] !== CLOSE_OBJ) return undefined;
  // A comma before the key goes with it; the first key takes the comma after it instead (`{"name":1,"a":2}`).
  if (b[k - 1] === COMMA) return { start: k - 1, end: v };
  if (b[k - 1] === OPEN_OBJ) return { start: k, end: b[v] === COMMA ? v + 1 : v };
  return undefined;
}
