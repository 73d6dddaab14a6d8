// The probe set's own text normalization and matching (shares nothing with the compactor's or eval/text.ts).

/** Lower case, one kind of quote and slash, single spaces, no Markdown emphasis or code ticks. */
export function norm(s: string): string {
  return s.toLowerCase()
    .replace(/[\u2018\u2019\u201b`´]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\\+/g, '/')
    .replace(/\*+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export const clip = (s: string, n: number): string => (s.length <= n ? s : s.slice(0, n));

const STOP = new Set(('this that with from have will would should could into than then them they their there these those what when where which while your about after again also been before being both does doing done each just more most much only other over same some such very make made sure please dont don\'t cannot can\'t must never always avoid instead rather prefer using used need want like here know think look going okay sure thanks' +
  ' isso esta este para como mais não nunca sempre').split(' '));

/** Words a paraphrase must keep: Latin words of 4+ letters outside a stop list, and CJK character pairs. */
export function keyWords(s: string): string[] {
  const n = norm(s);
  const out = new Set<string>();
  for (const w of n.match(/[\p{L}\p{N}_-]{4,}/gu) ?? []) if (!STOP.has(w) && !/\p{Script=Han}/u.test(w)) out.add(w);
  for (const run of n.match(/\p{Script=Han}+/gu) ?? []) for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
  return [...out];
}

const WORD = /[\p{L}\p{N}]/u;
/** `needle` in `hay` as a whole token: an id "abc1234" is not kept by "abc12345" or "xabc1234". */
export function hasWhole(hay: string, needle: string): boolean {
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) {
    const before = hay[i - 1], after = hay[i + needle.length];
    if ((before === undefined || !WORD.test(before)) && (after === undefined || !WORD.test(after))) return true;
  }
  return false;
}

/** Whether ¾ of `words` stand within `span` characters of each other in one block: a paraphrase, not scattered words. */
export function wordsClose(blocks: readonly string[], words: readonly string[], span = 400): boolean {
  if (words.length < 2) return false;
  const need = Math.max(2, Math.ceil(words.length * 0.75));
  for (const block of blocks) {
    const hits: { at: number; w: number }[] = [];
    words.forEach((w, k) => { for (let i = block.indexOf(w); i !== -1 && hits.length < 4000; i = block.indexOf(w, i + 1)) hits.push({ at: i, w: k }); });
    if (new Set(hits.map((h) => h.w)).size < need) continue;
    hits.sort((a, b) => a.at - b.at);
    const count = new Map<number, number>();
    for (let lo = 0, hi = 0; hi < hits.length; hi++) {
      count.set(hits[hi]!.w, (count.get(hits[hi]!.w) ?? 0) + 1);
      for (; hits[hi]!.at - hits[lo]!.at > span; lo++) {
        const c = count.get(hits[lo]!.w)! - 1;
        if (c === 0) count.delete(hits[lo]!.w); else count.set(hits[lo]!.w, c);
      }
      if (count.size >= need) return true;
    }
  }
  return false;
}
