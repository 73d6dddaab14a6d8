// tool-records: old tool calls and results shrink to small records (name, short args, status, summary).
import { resultRecord, shortenCall } from '../records';
import type { CleanupRule } from '../types';

export const toolRecords: CleanupRule = {
  id: 'tool-records',
  description: 'Old tool calls keep name and shortened arguments; old results become status, size, first/last lines, errors and identifiers',
  defaults: { keepUnderTokens: 120, argChars: 160, headLines: 3, tailLines: 2, lineChars: 160, maxErrorChars: 2000, identifierChars: 32000 },
  apply(ctx) {
    const p = ctx.params;
    for (let m = 0; m < ctx.protectedFrom; m++) {
      if (ctx.pinned.has(m)) continue;
      ctx.messages[m]!.blocks.forEach((b, i) => {
        if (b.type === 'tool_call' && ctx.answered.has(b.id) && b.inputText.length > p.argChars!) {
          const next = shortenCall(b, p.argChars!);
          if (next.tokens < b.tokens) ctx.replace(m, i, next);
        } else if (b.type === 'tool_result' && b.tokens > p.keepUnderTokens! && !b.text.startsWith('[context-compactor: superseded')) {
          const params = { headLines: p.headLines!, tailLines: p.tailLines!, lineChars: p.lineChars!, maxErrorChars: p.maxErrorChars!, identifierChars: p.identifierChars! };
          const next = resultRecord(b, ctx.toolNames.get(b.id), params, ctx.listedIdentifiers, ctx.originalOf(b) as typeof b);
          if (next.block.tokens < b.tokens) {
            ctx.replace(m, i, next.block);
            for (const id of next.identifiers) ctx.listedIdentifiers.add(id);
          }
        }
      });
    }
  },
};
