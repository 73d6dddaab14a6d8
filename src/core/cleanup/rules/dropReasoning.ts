// drop-reasoning: old thinking is not needed to continue (the API accepts earlier turns without it).
import { eachChangeable, type CleanupRule } from '../types';

export const dropReasoning: CleanupRule = {
  id: 'drop-reasoning',
  description: 'Drop reasoning/thinking blocks older than the protected part',
  defaults: {},
  apply(ctx) {
    eachChangeable(ctx, (m, i, b) => { if (b.type === 'reasoning') ctx.replace(m, i, undefined); });
  },
};
