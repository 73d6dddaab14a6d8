// trim-old-prompts: an old prompt that a later one repeats (a slash-command template) keeps only what differs;
// a huge old paste keeps its opening, every line that states a constraint, its end and its identifiers.
import type { Block } from '../../model/transcript';
import { estimateTokens } from '../../tokens/estimate';
import { blockIdentifiers } from '../identifiers';
import { cut, MARK } from '../records';
import { eachChangeable, type CleanupRule } from '../types';
import { opening } from './trimOldReplies';

/** A line that tells the agent what to do or not do: kept verbatim from any trimmed prompt. */
export const CONSTRAINT = /\b(?:don'?t|do not|never|always|must|mustn'?t|should|shouldn'?t|only|avoid|make sure|ensure|instead|prefer|keep|use|without|no more)\b/i;

const lines = (t: string): string[] => t.split('\n').map((l) => l.trim()).filter(Boolean);

export const trimOldPrompts: CleanupRule = {
  id: 'trim-old-prompts',
  label: 'Shorten repeated or pasted prompts',
  description: 'An old prompt that a later one repeats keeps only what differs; a huge old paste keeps its opening, the lines stating constraints, its end and its identifiers',
  defaults: { repeatShare: 60, keepUnderTokens: 1500, headTokens: 300, tailTokens: 100, constraintLines: 30, identifierChars: 8000 },
  apply(ctx) {
    const p = ctx.params;
    const later: { m: number; set: Set<string> }[] = [];
    ctx.messages.forEach((msg, m) => {
      if (msg.role === 'user') for (const b of msg.blocks) if (b.type === 'text' && b.tokens > 100) later.push({ m, set: new Set(lines(b.text)) });
    });
    eachChangeable(ctx, (m, i, b) => {
      if (b.type !== 'text' || ctx.messages[m]!.role !== 'user' || b.tokens <= 100 || b.text.startsWith(`[${MARK}`)) return;
      const own = lines(b.text);
      const twin = later.find((l) => l.m > m && own.filter((x) => l.set.has(x)).length * 100 >= own.length * p.repeatShare!);
      let text: string | undefined;
      if (twin) {
        const differs = own.filter((x) => !twin.set.has(x));
        text = [...differs.map((x) => cut(x, 400)), `[${MARK}: ${own.length - differs.length} more line(s) of this prompt repeat a later request verbatim]`].join('\n');
      } else if (b.tokens > p.keepUnderTokens!) {
        text = pasteRecord(b, p, ctx.listing.line.bind(ctx.listing), (ids, shown) => ctx.listing.pick(ids, shown, p.identifierChars!), ctx.listing.commit.bind(ctx.listing));
      }
      if (text === undefined) return;
      const tokens = estimateTokens(text);
      if (tokens < b.tokens) ctx.replace(m, i, { ...b, text, tokens });
    });
  },
};

function pasteRecord(b: Block & { type: 'text' }, p: Readonly<Record<string, number>>, line: (ids: string[]) => string, pick: (ids: readonly string[], shown: string) => string[], commit: (ids: string[]) => void): string {
  const { head, omitted } = opening(b.text, p.headTokens!);
  const rest = b.text.split('\n').slice(b.text.split('\n').length - omitted);
  const constraints = rest.filter((l) => CONSTRAINT.test(l) && l.trim().length < 400).slice(0, p.constraintLines!);
  const tailLines: string[] = [];
  let used = 0;
  for (let k = rest.length - 1; k >= 0 && used < p.tailTokens!; k--) { used += estimateTokens(rest[k]!) + 1; tailLines.unshift(rest[k]!); }
  const shown = [head, ...constraints, ...tailLines].join('\n');
  const ids = pick(blockIdentifiers(b), shown);
  commit(ids);
  return [head, `[${MARK}: ${omitted} line(s) of pasted text omitted; the lines stating constraints and the end follow]`, ...constraints, '…', ...tailLines, line(ids)].filter(Boolean).join('\n');
}
