// Finds, in a line's bytes, the value of a key the parser never reads, so that it is neither decoded nor parsed.

const QUOTE = 0x22, BACKSLASH = 0x5c;

/** Lines shorter than this are decoded whole: finding a key costs more than a short value saves. */
export const UNREAD_MIN_LINE = 2048;

/**
 * `[start, end)` of the value that follows the first `"key":` in `bytes[from, to)`, or undefined when the key is not
 * there or what follows does not look like one JSON value. The first match may be nested or belong to something odd;
 * the caller checks the parsed record (TranscriptReader.push's `whole`) and decodes the whole line when it does not
 * hold the key at its top level with the placeholder.
 */
export function unreadValueSpan(bytes: Buffer, from: number, to: number, key: Buffer): [number, number] | undefined {
  // indexOf has no end bound: a subarray keeps the search inside the line.
  const at = bytes.subarray(from, to).indexOf(key);
  if (at === -1) return undefined;
  const start = from + at + key.length;
  const end = valueEnd(bytes, start, to);
  return end === -1 ? undefined : [start, end];
}

/**
 * The index after the JSON value that starts at `bytes[i]`, or -1. Strings are crossed with memchr-fast jumps to the
 * next quote (tool output is mostly long strings), brackets only counted: JSON.parse checks the rest.
 */
function valueEnd(bytes: Buffer, i: number, to: number): number {
  let depth = 0;
  for (; i < to; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      i = closingQuote(bytes, i, to);
      if (i === -1) return -1;
      if (depth === 0) return i + 1;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      if (--depth === 0) return i + 1;
      if (depth < 0) return -1;
    } else if (depth === 0 && c !== 0x20 && c !== 0x09 && c !== 0x0d) {
      // A number or literal at the top: it runs to the next ',', '}' or ']'.
      let k = i;
      while (k < to && bytes[k] !== 0x2c && bytes[k] !== 0x7d && bytes[k] !== 0x5d) k++;
      return k;
    }
  }
  return -1;
}

/** The quote that closes the string opened at `open`: the next one not escaped by an odd run of backslashes. */
function closingQuote(bytes: Buffer, open: number, to: number): number {
  let k = open;
  for (;;) {
    k = bytes.indexOf(QUOTE, k + 1);
    if (k === -1 || k >= to) return -1;
    let n = 0;
    while (bytes[k - 1 - n] === BACKSLASH) n++;
    if ((n & 1) === 0) return k;
  }
}
