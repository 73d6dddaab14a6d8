// old-context: large context the harness injected mid-session (a loaded skill, an attached file) becomes a
// one-line record; instruction files (CLAUDE.md, AGENTS.md) and the opening harness context stay verbatim.
import { estimateTokens } from '../../tokens/estimate';
import { cut, MARK } from '../records';
import { opening } from './trimOldReplies';
import { eachChangeable, type CleanupRule } from '../types';
import { blockIdentifiers } from '../identifiers';

/** Text that carries the user's or the project's standing instructions. */
export const INSTRUCTIONS = /CLAUDE\.md|AGENTS\.md|claudeMd|<user_instructions>|<INSTRUCTIONS>|GEMINI\.md|\.cursorrules/;

export const oldContext: CleanupRule = {
  id: 'old-context',
  label: 'Shrink old injected context',
  description: 'Large context added mid-session (a loaded skill, an attached file) becomes a one-line record; instruction files (CLAUDE.md, AGENTS.md) stay as they are',
  defaults: { keepUnderTokens: 400, headTokens: 40, identifierChars: 4000 },
  apply(ctx) {
    const p = ctx.params;
    // The opening harness context (before the first prompt) is the agent's setup: never touched here.
    const firstPrompt = ctx.messages.findIndex((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'));
    eachChangeable(ctx, (m, i, b) => {
      if (b.type !== 'meta' || m <= firstPrompt || b.tokens <= p.keepUnderTokens! || INSTRUCTIONS.test(b.text.slice(0, 4000))) return;
      const { head } = opening(b.text.replace(/^<system-reminder>\s*/, ''), p.headTokens!);
      const missing = ctx.listing.pick(blockIdentifiers(b), head, p.identifierChars!);
      const text = [`[${MARK}: ${b.subtype} context removed, ${b.tokens} tokens; it began:]`, cut(head, 400), ctx.listing.line(missing)].filter(Boolean).join('\n');
      const tokens = estimateTokens(text);
      if (tokens >= b.tokens) return;
      ctx.replace(m, i, { ...b, text, tokens });
      ctx.listing.commit(missing);
    });
  },
};
