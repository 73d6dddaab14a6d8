// What an eval run will spend before it runs: model calls per strategy, tokens and a catalog-priced cost ceiling.
import type { Session } from '../model/transcript';
import type { ProviderId } from '../summary/provider';
import { calibrate } from '../tokens/calibrate';
import { requestCost } from '../usage/pricing';
import type { StrategyId } from './types';

/**
 * One session: its latest context size (tokens, as the Sessions view has it) and, when it was read, its rolling
 * profile: the harness and the context before each model turn as if nothing were compacted.
 */
export interface EstimateSession {
  readonly contextTokens: number;
  readonly rolling?: RollingProfile;
  /** vendor: the agent's own compactions in it (ours run again on the segment before each). */
  readonly compactions?: number;
}
export interface RollingProfile { readonly harness: number; readonly turns: readonly number[] }

/** The rolling replay's view of a session (node/eval/rolling.ts measures context the same way). */
export function rollingProfile(session: Session): RollingProfile & { readonly context: number } {
  const cal = calibrate(session);
  const turns: number[] = [];
  let tokens = 0, at = 0;
  for (const t of session.turns) {
    if (t.kind !== 'model') continue;
    for (; at < t.start; at++) tokens += session.messages[at]!.blocks.reduce((a, b) => a + b.tokens, 0);
    turns.push(cal.overhead + tokens * cal.scale);
  }
  for (; at < session.messages.length; at++) tokens += session.messages[at]!.blocks.reduce((a, b) => a + b.tokens, 0);
  return { harness: cal.overhead, turns, context: Math.round(cal.overhead + tokens * cal.scale) };
}

export interface EstimateConfig {
  readonly strategies: readonly StrategyId[];
  readonly provider: ProviderId;
  readonly model: string;
  /** rolling: compact when the context passes this many tokens. */
  readonly threshold: number;
  /** The summary request is fitted to this (the summary step's own budget). */
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  /** The recent model turns a compaction keeps as they are. */
  readonly keepRecentTurns: number;
}

export interface StrategyEstimate {
  readonly strategy: StrategyId;
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface EvalEstimate {
  readonly byStrategy: readonly StrategyEstimate[];
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** USD at catalog prices, every answer as long as allowed; undefined when the model has no price ("cost unknown"). */
  readonly costUsd: number | undefined;
}

/** The summary prompt's own words (instructions, sections, carried facts) on top of the conversation it sends. */
const PROMPT_TOKENS = 1_500;

/**
 * Compactions of a rolling replay: at each model turn whose context passes the threshold and that follows more
 * model turns than the recent part keeps, the context falls to the harness, a summary (half the output allowance) and the recent turns, and grows from there. Without a profile
 * (the session was not read), from its latest context: the first past the threshold, then one per regrowth.
 */
export function rollingCompactions(s: EstimateSession, c: Pick<EstimateConfig, 'threshold' | 'maxOutputTokens' | 'keepRecentTurns'>): number {
  const summary = c.maxOutputTokens / 2;
  if (!s.rolling) {
    if (s.contextTokens <= c.threshold || c.threshold <= 0) return 0;
    return 1 + Math.floor((s.contextTokens - c.threshold) / Math.max(1, c.threshold - Math.min(summary, c.threshold / 2)));
  }
  const { turns, harness } = s.rolling;
  let removed = 0, n = 0;
  turns.forEach((full, i) => {
    // Only model turns older than the recent ones can be compacted: before, a compaction changes nothing (runEval
    // counts none), however far a harness alone passes the threshold.
    if (full - removed <= c.threshold || i <= c.keepRecentTurns) return;
    const recent = full - turns[Math.max(0, i - c.keepRecentTurns)]!;
    removed = Math.max(removed, full - (harness + summary + recent));
    n++;
  });
  return n;
}

/** Calls of one session per strategy, by the rules runEval follows (see node/eval/strategies.ts). */
function callsOf(s: StrategyId, x: EstimateSession, c: EstimateConfig): { calls: number; input: number } {
  const context = Math.max(0, x.contextTokens);
  const fitted = Math.min(context, c.maxInputTokens) + PROMPT_TOKENS;
  switch (s) {
    case 'cleanup': return { calls: 0, input: 0 };
    // One summary of the aging part, fitted to the model's budget (cleanup+summary sends less: the cleaned part).
    case 'summary':
    case 'cleanup+summary': return context > 0 ? { calls: 1, input: fitted } : { calls: 0, input: 0 };
    // One summary per compaction, each of about a threshold's worth of context.
    case 'rolling': {
      const n = rollingCompactions(x, c);
      return { calls: n, input: Math.min(c.threshold, c.maxInputTokens) + PROMPT_TOKENS };
    }
    // The provider's own compaction of the whole history, not fitted; OpenAI-compatible servers have none.
    case 'server': return c.provider === 'anthropic' || c.provider === 'openai' ? { calls: context > 0 ? 1 : 0, input: context } : { calls: 0, input: 0 };
    // On each segment before an agent's compaction, one call for each of summary and cleanup+summary the run has, each fitted.
    case 'vendor': {
      const perSegment = c.strategies.filter((x) => x === 'summary' || x === 'cleanup+summary').length;
      return { calls: (x.compactions ?? 0) * perSegment, input: c.maxInputTokens + PROMPT_TOKENS };
    }
  }
}

/**
 * Without a provider nothing calls a model. With one, each call is priced on its own (a long-context tier applies
 * per request) with the whole `maxOutputTokens` as its answer: a ceiling, not a guess low. Retries on errors
 * (at most 2 per call) are not counted.
 */
export function estimateEval(sessions: readonly EstimateSession[], c: EstimateConfig): EvalEstimate {
  const byStrategy: StrategyEstimate[] = [];
  let cost: number | undefined = 0;
  for (const s of c.strategies) {
    let calls = 0, input = 0;
    for (const x of sessions) {
      if (c.provider === 'none') break;
      const one = callsOf(s, x, c);
      if (one.calls === 0) continue;
      calls += one.calls;
      input += one.calls * one.input;
      const usd = requestCost(c.model, { inputTokens: one.input, outputTokens: c.maxOutputTokens, cacheCreationTokens: 0, cacheReadTokens: 0 });
      cost = usd === undefined || cost === undefined ? undefined : cost + one.calls * usd;
    }
    byStrategy.push({ strategy: s, calls, inputTokens: input, outputTokens: calls * c.maxOutputTokens });
  }
  const sum = (f: (e: StrategyEstimate) => number): number => byStrategy.reduce((a, e) => a + f(e), 0);
  const calls = sum((e) => e.calls);
  return { byStrategy, calls, inputTokens: sum((e) => e.inputTokens), outputTokens: sum((e) => e.outputTokens), costUsd: calls === 0 ? 0 : cost };
}

const tokens = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}k` : String(n));

/** "up to 41 model calls (summary 12, cleanup+summary 12, rolling 5, server 12) · about 1.9M tokens in, at most 164k out · cost ≤ $6.20 at catalog prices". */
export function estimateText(e: EvalEstimate): string {
  const parts = e.byStrategy.filter((x) => x.calls > 0).map((x) => `${x.strategy} ${x.calls}`);
  const cost = e.costUsd === undefined ? 'cost unknown (the model has no price in the catalog)' : `cost ≤ $${e.costUsd < 0.01 && e.costUsd > 0 ? e.costUsd.toFixed(4) : e.costUsd.toFixed(2)} at catalog prices`;
  return `up to ${e.calls} model call${e.calls === 1 ? '' : 's'} (${parts.join(', ')}) · about ${tokens(e.inputTokens)} tokens in, at most ${tokens(e.outputTokens)} out · ${cost}`;
}
