// JSON.stringify that survives hostile nesting: JSON.parse takes 100,000-deep arrays, JSON.stringify overflows the stack.

/** Nesting kept when a value is too deep to serialize; deeper parts become TOO_DEEP. */
export const MAX_DEPTH = 1000;
export const TOO_DEEP = `[nested deeper than ${MAX_DEPTH} levels: left out]`;

type Frame = { readonly src: unknown; readonly dst: unknown[] | Record<string, unknown>; readonly depth: number };

/** A copy of `value` with every array or object below MAX_DEPTH replaced by TOO_DEEP; iterative, so any depth is fine. */
export function pruneDeep(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const shell = (v: object): unknown[] | Record<string, unknown> => (Array.isArray(v) ? [] : {});
  const root = shell(value);
  const stack: Frame[] = [{ src: value, dst: root, depth: 1 }];
  while (stack.length > 0) {
    const { src, dst, depth } = stack.pop()!;
    for (const [k, v] of Object.entries(src as object)) {
      let out: unknown = v;
      if (typeof v === 'object' && v !== null) {
        if (depth >= MAX_DEPTH) out = TOO_DEEP;
        else { out = shell(v); stack.push({ src: v, dst: out as Frame['dst'], depth: depth + 1 }); }
      }
      // defineProperty, not assignment: a "__proto__" key stays a key instead of replacing the prototype.
      if (Array.isArray(dst)) dst.push(out);
      else Object.defineProperty(dst, k, { value: out, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

/** JSON text of `value`; when it is nested too deeply to serialize, of its pruned copy, and `onPruned` is told. */
export function stringifySafe(value: unknown, onPruned?: () => void): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    onPruned?.();
    return JSON.stringify(pruneDeep(value));
  }
}

/**
 * Lines at least this long are checked for nesting deeper than MAX_DEPTH before JSON.parse: JSON.parse takes any
 * depth, but a 60 MB line of `[[[…]]]` makes it build 30 M arrays (~25 s, GBs). Below this, a line of pure nesting
 * costs JSON.parse ≲ 1 s, less than checking every long tool output would add up to (~15 ms per MB of code text).
 */
export const DEPTH_CHECK_BYTES = 4 << 20;

/** The index of the '"' closing the string that opens at `open`, or -1 when it is not closed. */
function stringEnd(text: string, open: number): number {
  for (let j = open; ;) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(j - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return j;
  }
}

/**
 * `text` with every array or object that would sit deeper than MAX_DEPTH replaced by the TOO_DEEP string, or
 * undefined when nothing is that deep (or the text is not balanced JSON: JSON.parse then says so itself).
 * Strings are skipped with indexOf, so a line of long tool output costs little more than reading it.
 */
export function pruneDeepText(text: string): string | undefined {
  const parts: string[] = [];
  let copied = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i < 0) return undefined;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth <= MAX_DEPTH) continue;
      // Too deep: skip to the bracket that closes this one and put the placeholder in its place.
      let inner = 1;
      let j = i + 1;
      for (; j < text.length && inner > 0; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x22) { j = stringEnd(text, j); if (j < 0) return undefined; }
        else if (d === 0x5b || d === 0x7b) inner++;
        else if (d === 0x5d || d === 0x7d) inner--;
      }
      if (inner > 0) return undefined;
      parts.push(text.slice(copied, i), JSON.stringify(TOO_DEEP));
      copied = j;
      i = j - 1;
      depth--;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  if (parts.length === 0) return undefined;
  parts.push(text.slice(copied));
  return parts.join('');
}

/**
 * JSON.parse of one transcript line; a long line nested deeper than MAX_DEPTH is parsed with its deepest parts
 * replaced by TOO_DEEP, and `onPruned` is told. Throws as JSON.parse does on text that is not JSON.
 */
export function parseLine(text: string, onPruned?: () => void): unknown {
  if (text.length >= DEPTH_CHECK_BYTES) {
    const pruned = pruneDeepText(text);
    if (pruned !== undefined) {
      const value: unknown = JSON.parse(pruned);
      onPruned?.();
      return value;
    }
  }
  return JSON.parse(text);
}
