// Answers "is this pattern a substring of the text?" for many patterns over one text, without a pass per pattern.

/** Patterns shorter than this are looked for with includes() (a command name such as `ls`). */
const GRAM = 4;

/**
 * For each pattern, exactly `text.includes(pattern)`. Every position of the text is filed under a hash of the 4
 * characters starting there; a pattern occurring at q has each of its grams at q + j, so only the positions under
 * its rarest gram are candidates, each checked with startsWith (a hash collision only adds a candidate that fails
 * the check). Two passes over the text instead of one per pattern: 1,262 identifiers over a 65k-character output
 * cost ~10 ms with includes(), ~1 ms here.
 */
export function findSubstrings(text: string, patterns: readonly string[]): boolean[] {
  const index = build(text);
  return patterns.map((p) => has(index, text, p));
}

interface Index { readonly shift: number; readonly start: Uint32Array; readonly positions: Uint32Array }

// The arrays are kept for the next call up to this many positions: fresh memory costs a page fault per 4 KB
// touched (~1 ms for a 65k-character output's arrays, as much as the search itself), reused memory does not.
const KEEP_POSITIONS = 1 << 18;
let spare: { start: Uint32Array; positions: Uint32Array; keys: Uint16Array } | undefined;

function build(text: string): Index {
  const grams = Math.max(0, text.length - GRAM + 1);
  // About two positions per bucket, between 2^8 and 2^16 buckets.
  const bits = Math.min(16, Math.max(8, Math.ceil(Math.log2(grams + 1)) - 1));
  const shift = 32 - bits;
  const buckets = 1 << bits;
  const arrays = grams <= KEEP_POSITIONS
    ? (spare ??= { start: new Uint32Array(2 * (1 << 16) + 1), positions: new Uint32Array(KEEP_POSITIONS), keys: new Uint16Array(KEEP_POSITIONS) })
    : { start: new Uint32Array(2 * buckets + 1), positions: new Uint32Array(grams), keys: new Uint16Array(grams) };
  // start[0 .. buckets]: where each bucket's positions begin; start[buckets + 1 ..]: the next free slot while filling.
  const { keys, positions } = arrays;
  const start = arrays.start.fill(0, 0, buckets + 1);
  // Each position's bucket once, through a window of 4 characters that slides (one charCodeAt per position).
  let a = text.charCodeAt(0), b = text.charCodeAt(1), c = text.charCodeAt(2);
  for (let i = 0; i < grams; i++) {
    const d = text.charCodeAt(i + 3);
    const k = mix(a, b, c, d, shift);
    keys[i] = k;
    start[k + 1]!++;
    a = b; b = c; c = d;
  }
  for (let k = 1; k <= buckets; k++) start[k]! += start[k - 1]!;
  const next = buckets + 1;
  start.copyWithin(next, 0, buckets);
  for (let i = 0; i < grams; i++) positions[start[next + keys[i]!]!++] = i;
  return { shift, start, positions };
}

function has({ shift, start, positions }: Index, text: string, pattern: string): boolean {
  if (pattern.length < GRAM) return text.includes(pattern);
  if (pattern.length > text.length) return false;
  // The gram of the pattern with the fewest positions in the text (none: the pattern is not there). Stop at one:
  // a rarer gram could only say "absent", which checking that one candidate says too.
  let best = 0, fewest = Infinity;
  for (let j = 0; j + GRAM <= pattern.length && fewest > 1; j++) {
    const b = bucket(pattern, j, shift);
    const n = start[b + 1]! - start[b]!;
    if (n < fewest) { fewest = n; best = j; }
  }
  if (fewest === 0) return false;
  const b = bucket(pattern, best, shift);
  for (let k = start[b]!, end = start[b + 1]!; k < end; k++) {
    const at = positions[k]! - best;
    if (at >= 0 && text.startsWith(pattern, at)) return true;
  }
  return false;
}

/** The bucket of the 4 UTF-16 units at `i`. */
function bucket(s: string, i: number, shift: number): number {
  return mix(s.charCodeAt(i), s.charCodeAt(i + 1), s.charCodeAt(i + 2), s.charCodeAt(i + 3), shift);
}

/** 4 UTF-16 units folded into 32 bits, then a multiplicative hash's top `32 - shift` bits. */
function mix(a: number, b: number, c: number, d: number, shift: number): number {
  return Math.imul((a << 18) ^ (b << 12) ^ (c << 6) ^ d, 0x9e3779b1) >>> shift;
}
