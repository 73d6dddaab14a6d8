// truncate-giant-results: a single huge old result keeps only its head and tail.
import { MARK, truncateResult } from '../records';
import { eachChangeable, type CleanupRule } from '../types';

export const truncateGiantResults: CleanupRule = {
  id: 'truncate-giant-results',
  label: 'Cut giant tool results',
  description: 'A very large old tool result keeps only its beginning and its end',
  defaults: { maxTokens: 8000, headChars: 6000, tailChars: 2000 },
  apply(ctx) {
    const p = ctx.params;
    eachChangeable(ctx, (m, i, b) => {
      // Our own records are already small by design; cutting one would lose the identifiers it lists.
      if (b.type === 'tool_result' && b.tokens > p.maxTokens! && !b.text.startsWith(`[${MARK}`) && b.text.length > p.headChars! + p.tailChars! + 200) {
        ctx.replace(m, i, truncateResult(b, p.headChars!, p.tailChars!));
      }
    });
  },
};
