// Answers "is this pattern a substring of the text?" for many patterns over one text, without a pass per pattern.

/** Patterns shorter than this are looked for with includes() (a command name such as `ls`). */
const GRAM = 4;

/**
 * For each pattern, exactly `text.includes(pattern)`. Every position of the text is filed under a hash of the 4
 * characters starting there; a pattern occurring at q has each of its grams at q + j, so only the positions under
 * its rarest gram are candidates, each checked with startsWith (a hash collision only adds a candidate that fails
 * the check). One pass over the text instead of one per pattern: 1,262 identifiers over a 65k-character output
 * cost ~10 ms with includes(), ~1 ms here.
 */
export function findSubstrings(text: string, patterns: readonly string[]): boolean[] {
  const index = build(text);
  return patterns.map((p) => has(index, text, p));
}

/** Each bucket's newest position (`head`, -1: none) and count; `next[i]`: the position before i in i's bucket. */
interface Index { readonly shift: number; readonly head: Int32Array; readonly count: Uint32Array; readonly next: Int32Array }

// The arrays are kept for the next call up to this many positions: fresh memory costs a page fault per 4 KB
// touched (~1 ms for a 65k-character output's arrays, as much as the search itself), reused memory does not.
const KEEP_POSITIONS = 1 << 18;
let spare: { head: Int32Array; count: Uint32Array; next: Int32Array } | undefined;

/**
 * The positions of each bucket as a chain through `next`, made in one pass (a count and a prefix sum, then a second
 * pass filing each position, took ~1.7× as long over the bench session's output: two passes with random writes).
 */
function build(text: string): Index {
  const grams = Math.max(0, text.length - GRAM + 1);
  // About two positions per bucket, between 2^8 and 2^16 buckets.
  const bits = Math.min(16, Math.max(8, Math.ceil(Math.log2(grams + 1)) - 1));
  const shift = 32 - bits;
  const buckets = 1 << bits;
  const arrays = grams <= KEEP_POSITIONS
    ? (spare ??= { head: new Int32Array(1 << 16), count: new Uint32Array(1 << 16), next: new Int32Array(KEEP_POSITIONS) })
    : { head: new Int32Array(buckets), count: new Uint32Array(buckets), next: new Int32Array(grams) };
  const { head, count, next } = arrays;
  head.fill(-1, 0, buckets);
  count.fill(0, 0, buckets);
  // Each position's bucket once, through a window of 4 characters that slides (one charCodeAt per position).
  let a = text.charCodeAt(0), b = text.charCodeAt(1), c = text.charCodeAt(2);
  for (let i = 0; i < grams; i++) {
    const d = text.charCodeAt(i + 3);
    const k = mix(a, b, c, d, shift);
    next[i] = head[k]!;
    head[k] = i;
    count[k]!++;
    a = b; b = c; c = d;
  }
  return { shift, head, count, next };
}

function has({ shift, head, count, next }: Index, text: string, pattern: string): boolean {
  if (pattern.length < GRAM) return text.includes(pattern);
  if (pattern.length > text.length) return false;
  // The gram of the pattern with the fewest positions in the text (none: the pattern is not there). Stop at one:
  // a rarer gram could only say "absent", which checking that one candidate says too.
  let best = 0, fewest = Infinity;
  for (let j = 0; j + GRAM <= pattern.length && fewest > 1; j++) {
    const n = count[bucket(pattern, j, shift)]!;
    if (n < fewest) { fewest = n; best = j; }
  }
  if (fewest === 0) return false;
  for (let p = head[bucket(pattern, best, shift)]!; p >= 0; p = next[p]!) {
    const at = p - best;
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
