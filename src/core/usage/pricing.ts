// Costs from the offline model catalog (catalog.ts); an unknown model has no cost (undefined), never $0.
import { findModel, type ModelPrice } from './catalog';
import type { TokenCounts } from './types';

/** Counts of one request (or of requests billed alike); `cacheWrite1hTokens` is the 1-hour part of cache writes. */
export interface BilledCounts extends TokenCounts {
  cacheWrite1hTokens?: number;
}

/** Whether a request with this much input (uncached + cache read + cache write) is billed at the long-context tier. */
export function isLongContext(price: ModelPrice, promptTokens: number): boolean {
  return price.tier !== undefined && promptTokens > price.tier.start;
}

/**
 * USD for counts billed at one rate. Missing cache prices fall back as the vendors bill them: no cache-read
 * price means reads cost input (e.g. gpt-5-pro), no cache-write price means writes cost input (OpenAI bills
 * none separately), and no 1-hour price means the 5-minute one.
 */
function costAt(p: ModelPrice, c: BilledCounts, long: boolean, cacheWrite1hTokens = c.cacheWrite1hTokens ?? 0): number {
  const t = long ? p.tier : undefined;
  const input = t?.input ?? p.input;
  const cacheWrite = t?.cacheWrite ?? p.cacheWrite ?? input;
  const cacheWrite1h = t?.cacheWrite1h ?? p.cacheWrite1h ?? cacheWrite;
  const w1h = Math.min(cacheWrite1hTokens, c.cacheCreationTokens);
  return (c.inputTokens * input + c.outputTokens * (t?.output ?? p.output) + (c.cacheCreationTokens - w1h) * cacheWrite
    + w1h * cacheWrite1h + c.cacheReadTokens * (t?.cacheRead ?? p.cacheRead ?? input)) / 1e6;
}

/**
 * USD of one request: the long-context tier, when the model has one, applies to all of it past the threshold.
 * `cacheWrite1hTokens` apart (it overrides the field): the usage scan prices every request, without a copy of its counts.
 */
export function requestCost(model: string, c: BilledCounts, cacheWrite1hTokens = c.cacheWrite1hTokens): number | undefined {
  const p = findModel(model)?.price;
  if (!p) return undefined;
  return costAt(p, c, isLongContext(p, c.inputTokens + c.cacheReadTokens + c.cacheCreationTokens), cacheWrite1hTokens ?? 0);
}

/** USD of summed counts known to be all below (`long` false) or all above the model's long-context threshold. */
export function costOf(model: string, c: BilledCounts, long = false): number | undefined {
  const p = findModel(model)?.price;
  return p ? costAt(p, c, long) : undefined;
}
