// The one summary call: build the anchored request, fit it, call under the retry/deadline policy,
// and fall back to the cleaned transcript on any failure.
import type { CleanupResult } from '../core/cleanup/engine';
import type { CleanupOptions } from '../core/cleanup/types';
import { countStage, splitOf } from '../core/compact/stages';
import type { Session } from '../core/model/transcript';
import { carriedFacts } from '../core/summary/carried';
import { fitConversation } from '../core/summary/fit';
import { buildSummaryRequest, composeSummary, missingSections } from '../core/summary/prompt';
import { runWithPolicy } from '../core/summary/callPolicy';
import { isProviderError, type ProviderId } from '../core/summary/provider';
import type { SummaryFigures } from '../core/compact/report';
import { requestCost } from '../core/usage/pricing';
import { estimateTokens } from '../core/tokens/estimate';
import { createSummarizer } from './providers/createSummarizer';
import { systemClock, systemRandom } from './providers/systemClock';

export interface SummaryConfig {
  readonly provider: ProviderId;
  readonly model: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly timeoutSeconds: number;
  readonly maxOutputTokens: number;
  /** Input budget of the summary model (its window minus output and margin). */
  readonly maxInputTokens: number;
  /** What the snapshot should dwell on (`--focus`). */
  readonly focus?: string;
}

export type Phase = 'cleanup' | 'summary' | 'writing';

export interface SummaryStepResult {
  /** Summary text to insert, or undefined for cleanup-only. */
  readonly text?: string;
  readonly modelCalls: number;
  readonly fallback: 'cleanup-only' | null;
  readonly figures?: SummaryFigures;
  readonly warnings: string[];
}

/**
 * What the summary stage takes from the stages before it: the session as read, and its one cleanup (a compaction's
 * PreparedCompaction is one; a rolling replay passes a prefix of a session). Nothing here cleans again.
 */
export interface SummaryInput {
  readonly original: Session;
  readonly cleanupOptions: CleanupOptions;
  readonly outcome: { readonly cleanup: CleanupResult };
}

export async function summarizeAging(p: SummaryInput, config: SummaryConfig, signal: AbortSignal): Promise<SummaryStepResult> {
  const split = splitOf(p.original, p.outcome.cleanup);
  if (split.aging.length === 0) return { modelCalls: 0, fallback: null, warnings: ['nothing is older than the protected turns: no summary needed'] };
  const warnings: string[] = [];
  const base: SummaryFigures = { provider: config.provider, model: config.model, attempts: 0 };
  let summarizer;
  try {
    summarizer = createSummarizer({ provider: config.provider, model: config.model, baseUrl: config.baseUrl, apiKey: config.apiKey, timeoutMs: config.timeoutSeconds * 1000 });
  } catch (e) {
    const msg = isProviderError(e) ? e.message : String(e);
    return { modelCalls: 0, fallback: 'cleanup-only', figures: { ...base, error: msg }, warnings: [`summary skipped (${msg}); wrote the cleaned transcript instead`] };
  }
  if (!summarizer) return { modelCalls: 0, fallback: null, warnings };
  countStage('fit');
  const fitted = fitConversation(p.original, p.cleanupOptions, Math.max(2000, config.maxInputTokens - config.maxOutputTokens - 2000), p.outcome.cleanup);
  if (fitted.steps.length) warnings.push(`summary input reduced to fit the model: ${fitted.steps.join(', ')}`);
  const req = buildSummaryRequest({ conversation: fitted.conversation, previousSummary: split.previousSummary?.text, maxOutputTokens: config.maxOutputTokens, focus: config.focus });
  countStage('summary');
  const outcome = await runWithPolicy(summarizer, req, { deadlineMs: config.timeoutSeconds * 1000, maxRetries: 2, clock: systemClock, random: systemRandom, signal });
  const anchoredOn = split.previousSummary?.origin;
  if (!outcome.ok) {
    return {
      modelCalls: outcome.attempts, fallback: 'cleanup-only', figures: { ...base, attempts: outcome.attempts, anchoredOn, error: outcome.error.message },
      warnings: [...warnings, `summary failed after ${outcome.attempts} attempt(s): ${outcome.error.message} — wrote the cleaned transcript instead`],
    };
  }
  const r = outcome.result;
  const missing = missingSections(r.text);
  if (missing.length) warnings.push(`the summary lacks section(s): ${missing.join(', ')}`);
  const inputTokens = r.inputTokens ?? estimateTokens(req.system + req.prompt);
  const outputTokens = r.outputTokens ?? estimateTokens(r.text);
  const pricedModel = r.model || config.model;
  const cost = requestCost(pricedModel, { inputTokens, outputTokens, cacheCreationTokens: 0, cacheReadTokens: 0 });
  if (cost === undefined) warnings.push(`summary cost unknown: model ${pricedModel} is not in the price catalog`);
  const facts = carriedFacts({ aging: split.agingOriginals, kept: [...split.harness, ...split.pinned, ...split.recent], cwd: p.original.cwd });
  return {
    text: composeSummary(r.text, facts), modelCalls: outcome.attempts, fallback: null, warnings,
    figures: { ...base, model: r.model || config.model, attempts: outcome.attempts, inputTokens, outputTokens, costUsd: cost, anchoredOn },
  };
}
