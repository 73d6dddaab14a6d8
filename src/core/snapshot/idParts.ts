// Which identifiers are a part of another one (a UUID's group, a folder of a listed path): listed once, in the longer.

/** What a part of an identifier ends at: `-/\.:@_=?&#` and white space. */
const PART_END = /[-/\\.:@_=?&#\s]/;
/** PART_END for the ASCII characters, looked up instead of matched (the pattern decides for the rest). */
const ASCII_END = Uint8Array.from({ length: 128 }, (_, c) => (PART_END.test(String.fromCharCode(c)) ? 1 : 0));
const ends = (c: number): boolean => (c < 128 ? ASCII_END[c] === 1 : PART_END.test(String.fromCharCode(c)));

/**
 * The identifiers of `written` (as listed) that are a part of another one: `w.split(PART_END)`'s pieces of 4
 * characters or more, other than `w` itself. A piece holds no PART_END character, so only an identifier without one
 * can be a piece; the others are scanned for pieces of those (by length first), never split into arrays of strings.
 */
export function partsOfOthers(written: Iterable<string>): Set<string> {
  const all = [...written];
  const whole = new Set<string>();
  const lengths = new Set<number>();
  for (const w of all) if (w.length >= 4 && !PART_END.test(w)) { whole.add(w); lengths.add(w.length); }
  const out = new Set<string>();
  if (whole.size === 0) return out;
  for (const w of all) {
    // An identifier without a PART_END character is its own only piece: it is a part of nothing by itself.
    if (whole.has(w) || w.length < 5) continue;
    let start = 0;
    for (let i = 0; i <= w.length; i++) {
      if (i < w.length && !ends(w.charCodeAt(i))) continue;
      if (i - start >= 4 && i - start < w.length && lengths.has(i - start)) {
        const piece = w.slice(start, i);
        if (whole.has(piece)) out.add(piece);
      }
      start = i + 1;
    }
  }
  return out;
}
