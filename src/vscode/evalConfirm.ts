// Before an eval spends: the model calls and a cost ceiling in a modal question, or rules only without a provider.
import * as vscode from 'vscode';
import { estimateEval, estimateText, type EvalEstimate } from '../core/eval/estimate';
import { MODEL_STRATEGIES, type StrategyId } from '../core/eval/types';
import type { SummaryConfig } from '../node/summarizeStep';
import { estimateSessions } from '../node/eval/estimateInput';
import { checkProvider } from '../node/eval/serverStrategy';
import { isProviderError } from '../core/summary/provider';
import { CommandIds } from './commandIds.js';
import { describeError } from './log.js';
import { askModal, showWarning } from './notify.js';

/** What the run will do: call the provider (with what was estimated), rules only, or nothing (cancelled). */
export type EvalChoice = { readonly run: 'provider'; readonly estimate: EvalEstimate } | { readonly run: 'rules-only'; readonly estimate?: EvalEstimate } | undefined;

export interface ConfirmInput {
  readonly files: readonly string[];
  readonly label: string;
  readonly strategies: readonly StrategyId[];
  readonly summary: SummaryConfig | undefined;
  readonly threshold: number;
  readonly keepRecentTurns: number;
  /** Programmatic callers (tests) answer the question themselves. */
  readonly confirm?: 'run' | 'rules-only';
}

/** Strategies that can call a model: the summary ones, server, and rolling (a summary at each compaction). */
const callsModel = (s: StrategyId): boolean => MODEL_STRATEGIES.has(s) || s === 'rolling';

export async function confirmEval(i: ConfirmInput): Promise<EvalChoice> {
  if (!i.summary || !i.strategies.some(callsModel)) return { run: 'rules-only' };
  const s = i.summary;
  // A provider that cannot work (no key, a refused base URL) is said once, here, not as a failed row per session.
  try { checkProvider(s); } catch (e) {
    if (i.confirm === 'run') throw e;
    const setKey = 'Set API key';
    const noKey = isProviderError(e) && e.kind === 'auth';
    // Not awaited: the rules-only run goes on; the button stays on the toast for after.
    void showWarning(`Context Compactor: evaluating rules only — ${s.provider} cannot be used: ${describeError(e)}`, ...(noKey ? [setKey] : []))
      .then((pick) => (pick === setKey ? vscode.commands.executeCommand(CommandIds.setApiKey, s.provider) : undefined));
    return { run: 'rules-only' };
  }
  if (i.confirm === 'rules-only') return { run: 'rules-only' };
  const sessions = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Estimating the model calls of evaluating ${i.label}`, cancellable: true },
    (_p, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return estimateSessions(i.files, abort.signal, i.strategies.includes('vendor')).then((x) => (abort.signal.aborted ? undefined : x));
    },
  );
  if (!sessions) return undefined;
  const estimate = estimateEval(sessions, { strategies: i.strategies, provider: s.provider, model: s.model, threshold: i.threshold, maxInputTokens: s.maxInputTokens, maxOutputTokens: s.maxOutputTokens, keepRecentTurns: i.keepRecentTurns });
  if (estimate.calls === 0 || i.confirm === 'run') return { run: 'provider', estimate };
  const run = `Run with ${s.provider}`;
  const rules = 'Rules only (no model calls)';
  const answer = await askModal(
    `Evaluate ${i.files.length} session${i.files.length === 1 ? '' : 's'} (${i.label}) with ${s.provider} / ${s.model}?`,
    `This run makes ${estimateText(estimate)}; a failed call is retried at most twice. Rules only runs cleanup and rolling without a model and skips the summary and server strategies.`,
    run, rules,
  );
  return answer === run ? { run: 'provider', estimate } : answer === rules ? { run: 'rules-only', estimate } : undefined;
}
