// Answers "is this pattern a substring of the text?" for many patterns over one text, without a pass per pattern.

/** Patterns shorter than this are looked for with includes() (a command name such as `ls`). */
const GRAM = 4;

/**
 * Every position of the text filed under a hash of the 4 characters starting there. A pattern occurring at q has
 * each of its grams at q + j, so only the positions under its rarest gram are candidates, each checked with
 * startsWith: the answer is exactly `text.includes(pattern)` (hash collisions only add candidates that fail the
 * check), at the cost of two passes over the text instead of one per pattern.
 */
export class SubstringIndex {
  private readonly shift: number;
  /** Positions sorted by bucket: bucket b's are positions[start[b] .. start[b + 1]). */
  private readonly start: Uint32Array;
  private readonly positions: Uint32Array;

  constructor(private readonly text: string) {
    const grams = Math.max(0, text.length - GRAM + 1);
    // About two positions per bucket, between 2^8 and 2^16 buckets.
    const bits = Math.min(16, Math.max(8, Math.ceil(Math.log2(grams + 1)) - 1));
    this.shift = 32 - bits;
    const start = new Uint32Array((1 << bits) + 1);
    for (let i = 0; i < grams; i++) start[this.bucket(text, i) + 1]!++;
    for (let b = 1; b < start.length; b++) start[b]! += start[b - 1]!;
    const next = start.slice(0, -1);
    const positions = new Uint32Array(grams);
    for (let i = 0; i < grams; i++) positions[next[this.bucket(text, i)]!++] = i;
    this.start = start;
    this.positions = positions;
  }

  /** Same answer as `text.includes(pattern)`. */
  has(pattern: string): boolean {
    if (pattern.length < GRAM) return this.text.includes(pattern);
    if (pattern.length > this.text.length) return false;
    // The gram of the pattern with the fewest positions in the text: none means the pattern is not there.
    let best = 0, fewest = Infinity;
    for (let j = 0; j + GRAM <= pattern.length && fewest > 0; j++) {
      const b = this.bucket(pattern, j);
      const n = this.start[b + 1]! - this.start[b]!;
      if (n < fewest) { fewest = n; best = j; }
    }
    if (fewest === 0) return false;
    const b = this.bucket(pattern, best);
    for (let k = this.start[b]!, end = this.start[b + 1]!; k < end; k++) {
      const at = this.positions[k]! - best;
      if (at >= 0 && this.text.startsWith(pattern, at)) return true;
    }
    return false;
  }

  private bucket(s: string, i: number): number {
    let h = s.charCodeAt(i);
    h = Math.imul(h, 31) + s.charCodeAt(i + 1);
    h = Math.imul(h, 31) + s.charCodeAt(i + 2);
    h = Math.imul(h, 31) + s.charCodeAt(i + 3);
    return Math.imul(h, 0x9e3779b1) >>> this.shift;
  }
}
