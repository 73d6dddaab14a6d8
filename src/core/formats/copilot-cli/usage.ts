// Copilot CLI usage figures: one `session.usage_record` event per model request ({model, inputTokens (cached part
// included), outputTokens, cacheReadTokens, cacheWriteTokens, apiCallId}); the reader gives each reply its own.
import { count, type Json } from '../../usage/common';

/** Uncached input, output, cache write, cache read of a usage record; NaN somewhere when a figure is impossible. */
export function copilotCounts(u: Json): [input: number, output: number, cacheWrite: number, cacheRead: number] {
  const cacheRead = count(u.cacheReadTokens ?? 0);
  return [Math.max(0, count(u.inputTokens ?? 0) - cacheRead), count(u.outputTokens ?? 0), count(u.cacheWriteTokens ?? 0), cacheRead];
}
