// collapse-noise: repeated harness reminders and injected context keep only their latest copy.
import type { CleanupRule } from '../types';

export const collapseNoise: CleanupRule = {
  id: 'collapse-noise',
  label: 'Collapse repeated noise',
  description: 'Old system reminders and injected context that appear again later, word for word, keep only their latest copy',
  defaults: {},
  apply(ctx) {
    const later = new Set<string>();
    for (let m = ctx.messages.length - 1; m >= 0; m--) {
      const blocks = ctx.messages[m]!.blocks;
      for (let i = blocks.length - 1; i >= 0; i--) {
        const b = blocks[i]!;
        if (b.type !== 'meta' || b.text === '') continue;
        if (later.has(b.text) && !ctx.pinned.has(m) && ctx.canChange(m, b)) ctx.replace(m, i, undefined);
        else later.add(b.text);
      }
    }
  },
};
