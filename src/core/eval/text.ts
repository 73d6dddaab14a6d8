// Text of a session as probes see it: one normalized string per block, so wording and escaping never decide.
import type { Block, Session } from '../model/transcript';

/**
 * Lower case, unified quotes, slashes and spaces, no Markdown emphasis: "Don’t  touch `src\\a.ts`" → "don't touch
 * src/a.ts". Native single-purpose passes: this runs over every byte of every output an eval measures.
 */
export function normalize(s: string): string {
  return s.toLowerCase()
    .replace(/[\u2018\u2019\u201b`´]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\\+/g, '/')
    .replace(/\*+/g, '')
    .replace(/\s{2,}|[\t\n\r\f\v]/g, ' ')
    .trim();
}

/** Every string inside a tool call's arguments, in order (what a record or a summary may quote). */
export function argStrings(input: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 20) return out;
  if (typeof input === 'string') out.push(input);
  else if (Array.isArray(input)) for (const v of input) argStrings(v, out, depth + 1);
  else if (input && typeof input === 'object') for (const v of Object.values(input)) argStrings(v, out, depth + 1);
  return out;
}

/** The words of a block: a tool call counts with its name and argument values, media with nothing. */
export function blockText(b: Block): string {
  switch (b.type) {
    case 'tool_call': return [b.name, ...argStrings(b.input), typeof b.input === 'string' ? '' : b.inputText].join('\n');
    case 'media': return '';
    default: return b.text;
  }
}

/** A session's text as probes search it: each block normalized, and all of them (blocks apart by a newline). */
export interface SessionText {
  readonly all: string;
  readonly blocks: readonly string[];
}

export function sessionText(session: Pick<Session, 'messages'>, extra: readonly string[] = []): SessionText {
  const blocks: string[] = [];
  for (const m of session.messages) {for (const b of m.blocks) {
    const t = blockText(b);
    if (t) blocks.push(normalize(t));
  }}
  for (const t of extra) blocks.push(normalize(t));
  return { all: blocks.join('\n'), blocks };
}

const STOP = new Set(('this that with from have will would should could into than then them they their there these those what when where which while your yours about after again also been before being both does doing done each just more most much only other over same some such very make made sure please dont don\'t cannot can\'t must never always avoid instead rather prefer using used file files code need want like ' +
  'isso esta este para como mais não nunca sempre').split(' '));

/** The words a paraphrase must keep: Latin words of 4+ letters outside a stop list, and CJK character pairs. */
export function contentWords(s: string): string[] {
  const n = normalize(s);
  const out = new Set<string>();
  for (const w of n.match(/[\p{L}\p{N}_./-]{4,}/gu) ?? []) if (!STOP.has(w) && !/^\p{Script=Han}/u.test(w)) out.add(w.replace(/[.,/-]+$/, ''));
  for (const run of n.match(/\p{Script=Han}+/gu) ?? []) for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
  return [...out].filter((w) => w.length >= 2);
}

/**
 * Whether ≥ `share` of `words` appear within `span` characters of one block: a paraphrased rule is one bullet or
 * sentence of a summary, not words scattered over it.
 */
export function wordsNearby(text: SessionText, words: readonly string[], share = 0.75, span = 400): boolean {
  if (words.length < 2) return false;
  const need = Math.max(2, Math.ceil(words.length * share));
  for (const block of text.blocks) {
    const hits: { at: number; w: number }[] = [];
    words.forEach((w, k) => {
      for (let i = block.indexOf(w); i !== -1 && hits.length < 5000; i = block.indexOf(w, i + 1)) hits.push({ at: i, w: k });
    });
    if (new Set(hits.map((h) => h.w)).size < need) continue;
    hits.sort((a, b) => a.at - b.at);
    // Slide a window over the hits: how many different words fall inside `span` characters?
    const count = new Map<number, number>();
    for (let lo = 0, hi = 0; hi < hits.length; hi++) {
      count.set(hits[hi]!.w, (count.get(hits[hi]!.w) ?? 0) + 1);
      while (hits[hi]!.at - hits[lo]!.at > span) {
        const n = count.get(hits[lo]!.w)! - 1;
        if (n === 0) count.delete(hits[lo]!.w); else count.set(hits[lo]!.w, n);
        lo++;
      }
      if (count.size >= need) return true;
    }
  }
  return false;
}
