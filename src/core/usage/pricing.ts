// Offline price snapshot (USD per million tokens) and cost estimation; no network lookups, ever.
import type { TokenCounts } from './types';

export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** Snapshot of public list prices (LiteLLM / vendor pages, 2025-12). Cache write = 5-minute TTL rate. */
export const PRICING_SNAPSHOT_DATE = '2025-12-01';

const claude = (input: number, output: number): ModelPrice => ({ input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 });
// OpenAI does not bill cache writes separately; cached input is 10 % (gpt-5 family) or 25 % (gpt-4.1/o-series).
const openai = (input: number, output: number, cacheRead: number): ModelPrice => ({ input, output, cacheWrite: input, cacheRead });

const TABLE: Record<string, ModelPrice> = {
  'claude-opus-4-5': claude(5, 25),
  'claude-opus-4-1': claude(15, 75),
  'claude-opus-4': claude(15, 75),
  'claude-sonnet-4-5': claude(3, 15),
  'claude-sonnet-4': claude(3, 15),
  'claude-haiku-4-5': claude(1, 5),
  'claude-3-7-sonnet': claude(3, 15),
  'claude-3-5-sonnet': claude(3, 15),
  'claude-3-5-haiku': claude(0.8, 4),
  'claude-3-opus': claude(15, 75),
  'claude-3-haiku': claude(0.25, 1.25),
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-codex': openai(1.25, 10, 0.125),
  'gpt-5.1': openai(1.25, 10, 0.125),
  'gpt-5.1-codex': openai(1.25, 10, 0.125),
  'gpt-5.1-codex-max': openai(1.25, 10, 0.125),
  'gpt-5.1-codex-mini': openai(0.25, 2, 0.025),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-5.2': openai(1.75, 14, 0.175),
  'gpt-5.5': openai(5, 30, 0.5), // matches ccusage 20.0.24's embedded snapshot to the cent
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'o3': openai(2, 8, 0.5),
  'o4-mini': openai(1.1, 4.4, 0.275),
};

/** Normalises provider prefixes, date stamps and context-size tags: `anthropic/claude-sonnet-4-5-20250929[1m]` → `claude-sonnet-4-5`. */
export function normalizeModel(model: string): string {
  return model
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-\d{8}$/, '')
    .replace(/-latest$/, '');
}

export function priceOf(model: string): ModelPrice | undefined {
  return TABLE[normalizeModel(model)];
}

/** USD cost of the given counts for one model, or undefined when the model is not in the snapshot. */
export function costOf(model: string, c: TokenCounts): number | undefined {
  const p = priceOf(model);
  if (!p) return undefined;
  return (c.inputTokens * p.input + c.outputTokens * p.output + c.cacheCreationTokens * p.cacheWrite + c.cacheReadTokens * p.cacheRead) / 1e6;
}
