// drop-reasoning: old thinking is not needed to continue (the API accepts earlier turns without it).
import { eachChangeable, type CleanupRule } from '../types';

export const dropReasoning: CleanupRule = {
  id: 'drop-reasoning',
  label: 'Drop old reasoning',
  description: "The model's thinking from before the recent part goes; the agent continues without it",
  defaults: {},
  apply(ctx) {
    eachChangeable(ctx, (m, i, b) => { if (b.type === 'reasoning') ctx.replace(m, i, undefined); });
  },
};
