// drop-reasoning: old thinking is not needed to continue (the API accepts earlier turns without it).
import type { CleanupRule } from '../types';

export const dropReasoning: CleanupRule = {
  id: 'drop-reasoning',
  description: 'Drop reasoning/thinking blocks older than the protected part',
  defaults: {},
  apply(ctx) {
    for (let m = 0; m < ctx.protectedFrom; m++) {
      ctx.messages[m]!.blocks.forEach((b, i) => { if (b.type === 'reasoning') ctx.replace(m, i, undefined); });
    }
  },
};
