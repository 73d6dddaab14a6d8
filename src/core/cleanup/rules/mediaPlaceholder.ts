// media-placeholder: old images and documents become a one-line placeholder.
import { estimateTokens } from '../../tokens/estimate';
import { MARK } from '../records';
import type { CleanupRule } from '../types';

export const mediaPlaceholder: CleanupRule = {
  id: 'media-placeholder',
  description: 'Replace old images and documents with a placeholder naming type and size',
  defaults: {},
  apply(ctx) {
    for (let m = 0; m < ctx.protectedFrom; m++) {
      if (ctx.pinned.has(m)) continue;
      ctx.messages[m]!.blocks.forEach((b, i) => {
        if (b.type !== 'media') return;
        const text = `[${MARK}: ${b.mime} removed, ${Math.round(b.bytes / 1024)} KB]`;
        ctx.replace(m, i, { type: 'text', text, ref: b.ref, tokens: estimateTokens(text) });
      });
    }
  },
};
