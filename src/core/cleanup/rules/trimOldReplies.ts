// trim-old-replies: the agent's long old replies keep their opening and the identifiers they named.
import { estimateTokens } from '../../tokens/estimate';
import { blockIdentifiers } from '../identifiers';
import { MARK } from '../records';
import { eachChangeable, type CleanupRule } from '../types';

/** The first lines of `text` within `maxTokens` (at least the first line, cut to fit). */
export function opening(text: string, maxTokens: number): { head: string; omitted: number } {
  const lines = text.split('\n');
  let used = 0, k = 0;
  while (k < lines.length) {
    const t = estimateTokens(lines[k]!) + 1;
    if (k > 0 && used + t > maxTokens) break;
    used += t;
    k++;
  }
  let head = lines.slice(0, k).join('\n');
  // One long first line (or a reply in a dense script): cut it by its own characters per token.
  if (used > maxTokens && head.length > 0) head = `${head.slice(0, Math.max(1, Math.floor((head.length * maxTokens) / used)))}…`;
  return { head, omitted: lines.length - k };
}

export const trimOldReplies: CleanupRule = {
  id: 'trim-old-replies',
  label: 'Shorten long old replies',
  description: "The agent's long old replies keep their opening lines and the identifiers they named",
  defaults: { keepUnderTokens: 120, headTokens: 60, identifierChars: 32000 },
  apply(ctx) {
    const p = ctx.params;
    eachChangeable(ctx, (m, i, b) => {
      if (b.type !== 'text' || ctx.messages[m]!.role !== 'assistant' || b.tokens <= p.keepUnderTokens! || b.text.startsWith(`[${MARK}`)) return; // our own records list what they must
      const { head, omitted } = opening(b.text, p.headTokens!);
      const missing = ctx.listing.pick(blockIdentifiers(b), head, p.identifierChars!);
      const text = [head, `[${MARK}: ${omitted} more line(s) of this reply omitted]`, ctx.listing.line(missing)].filter(Boolean).join('\n');
      const tokens = estimateTokens(text);
      if (tokens >= b.tokens) return;
      ctx.replace(m, i, { ...b, text, tokens });
      ctx.listing.commit(missing);
    });
  },
};
