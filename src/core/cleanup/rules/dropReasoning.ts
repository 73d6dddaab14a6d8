// drop-reasoning: old thinking is not needed to continue (the API accepts earlier turns without it).
import { eachChangeable, type CleanupRule } from '../types';

export const dropReasoning: CleanupRule = {
  id: 'drop-reasoning',
  label: 'Drop old reasoning',
  description: "The model's thinking from before the recent part goes; the agent continues without it",
  defaults: {},
  apply(ctx) {
    eachChangeable(ctx, (m, i, b) => { if (b.type === 'reasoning') ctx.replace(m, i, undefined); });
    // The reply the latest prompt answers stays verbatim for its words (its question, its options); the thinking
    // that led to them is as old as any other before the recent part.
    for (const m of ctx.pinned) {
      const msg = ctx.messages[m];
      if (m >= ctx.protectedFrom || msg?.role !== 'assistant') continue;
      msg.blocks.forEach((b, i) => { if (b.type === 'reasoning') ctx.replace(m, i, undefined); });
    }
  },
};
