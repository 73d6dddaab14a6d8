// One model's billed tokens in one session and what they cost; the unit every agent's usage module reports in.
import { emptyCounts, type TokenCounts } from './types';

/** cost undefined: the catalog does not know the model ("cost unknown", never $0). */
export interface ModelUsage {
  counts: TokenCounts;
  cost: number | undefined;
}

export function addCounts(into: TokenCounts, c: TokenCounts): void {
  into.inputTokens += c.inputTokens;
  into.outputTokens += c.outputTokens;
  into.cacheCreationTokens += c.cacheCreationTokens;
  into.cacheReadTokens += c.cacheReadTokens;
}

export function addUsage(byModel: Map<string, ModelUsage>, model: string, counts: TokenCounts, cost: number | undefined): void {
  const cur = byModel.get(model) ?? { counts: emptyCounts(), cost: 0 };
  byModel.set(model, cur);
  addCounts(cur.counts, counts);
  cur.cost = cur.cost === undefined || cost === undefined ? undefined : cur.cost + cost;
}
