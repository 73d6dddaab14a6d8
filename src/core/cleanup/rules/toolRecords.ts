// tool-records: old tool calls and results shrink to small records (name, argument shapes, status, summary).
import { callRecord } from '../argRecords';
import { resultRecord } from '../records';
import { eachChangeable, type CleanupRule } from '../types';

export const toolRecords: CleanupRule = {
  id: 'tool-records',
  description: 'Old tool calls keep name, paths, commands and the shape of edits; old results become status, size, first/last lines, errors and identifiers',
  defaults: { keepUnderTokens: 120, argChars: 160, headLines: 3, tailLines: 2, lineChars: 160, maxErrorChars: 2000, identifierChars: 32000 },
  apply(ctx) {
    const p = ctx.params;
    const recordParams = { headLines: p.headLines!, tailLines: p.tailLines!, lineChars: p.lineChars!, maxErrorChars: p.maxErrorChars!, identifierChars: p.identifierChars! };
    eachChangeable(ctx, (m, i, b) => {
      if (b.type === 'tool_call') {
        const next = callRecord(b, { argChars: p.argChars!, identifierChars: p.identifierChars! }, ctx.listing);
        if (next && next.tokens < b.tokens) ctx.replace(m, i, next);
      } else if (b.type === 'tool_result' && b.tokens > p.keepUnderTokens! && !b.text.startsWith('[context-compactor: superseded')) {
        const next = resultRecord(b, ctx.toolNames.get(b.id), recordParams, ctx.listing, ctx.originalOf(b) as typeof b);
        if (next.block.tokens < b.tokens) {
          ctx.replace(m, i, next.block);
          ctx.listing.commit(next.identifiers);
        }
      }
    });
  },
};
