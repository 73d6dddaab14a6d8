// media-placeholder: old images and documents become a one-line placeholder.
import { estimateTokens } from '../../tokens/estimate';
import { MARK } from '../records';
import { eachChangeable, type CleanupRule } from '../types';

export const mediaPlaceholder: CleanupRule = {
  id: 'media-placeholder',
  label: 'Replace old images and documents',
  description: 'Old images and attached documents become a one-line placeholder naming their type and size',
  defaults: {},
  apply(ctx) {
    eachChangeable(ctx, (m, i, b) => {
      if (b.type !== 'media') return;
      const text = `[${MARK}: ${b.mime} removed, ${Math.round(b.bytes / 1024)} KB]`;
      ctx.replace(m, i, { type: 'text', text, ref: b.ref, tokens: estimateTokens(text) });
    });
  },
};
