// Text of a session as probes see it: one normalized string per block, so wording and escaping never decide.
import type { Block, Session } from '../model/transcript';

/** Lower case, unified quotes, slashes and spaces, no Markdown emphasis: "Don’t  touch `src\\a.ts`" → "don't touch src/a.ts". */
export function normalize(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b`´]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\\\\|\\/g, '/')
    .replace(/\*\*|__|[*]/g, '')
    .replace(/\s+/g, ' ')
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

/** The compacted session's text, normalized per block and whole; lines kept per block for windowed matching. */
export interface SessionText {
  readonly all: string;
  /** Per block: its normalized lines (a window of lines is where a paraphrased rule must appear). */
  readonly blocks: readonly (readonly string[])[];
  /** Per block: its lines joined, to skip blocks that cannot match before windowing. */
  readonly joined: readonly string[];
}

export function sessionText(session: Pick<Session, 'messages'>, extra: readonly string[] = []): SessionText {
  const blocks: string[][] = [];
  for (const m of session.messages) {for (const b of m.blocks) {
    const t = blockText(b);
    if (t) blocks.push(t.split('\n').map(normalize).filter(Boolean));
  }}
  for (const t of extra) blocks.push(t.split('\n').map(normalize).filter(Boolean));
  // Lines of a block join with a space: a needle normalized across line breaks still matches.
  const joined = blocks.map((l) => l.join(' '));
  return { all: joined.join('\n'), blocks, joined };
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

/** Whether ≥ `share` of `words` appear within `span` consecutive lines of one block. */
export function wordsNearby(text: SessionText, words: readonly string[], share = 0.75, span = 3): boolean {
  const need = Math.max(2, Math.ceil(words.length * share));
  if (words.length < 2) return false;
  let found = false;
  text.blocks.forEach((lines, k) => {
    if (found) return;
    let present = 0;
    for (const w of words) if (text.joined[k]!.includes(w)) present++;
    if (present < need) return;
    for (let i = 0; i < lines.length && !found; i++) {
      const window = lines.slice(i, i + span).join(' ');
      let hits = 0;
      for (const w of words) if (window.includes(w)) hits++;
      if (hits >= need) found = true;
    }
  });
  return found;
}
