// Makes the summary input fit the model's window by rules alone: tighter records, then trimming.
import type { CleanupResult } from '../cleanup/engine';
import type { CleanupOptions } from '../cleanup/types';
import { cleanStage, splitOf } from '../compact/stages';
import type { Session } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import { renderForSummary } from './render';

/** Tighter tool records used when the normal cleanup still does not fit. */
const TIGHT: CleanupOptions['rules'] = {
  'tool-records': { params: { keepUnderTokens: 30, argChars: 80, headLines: 1, tailLines: 1, lineChars: 100, identifierChars: 600 } },
};

export interface FittedInput { readonly conversation: string; readonly steps: string[] }

/**
 * `cleaned`: the compaction's own cleanup of `session` with `options`, reused for the first (usual) attempt; only
 * an input that still does not fit is cleaned again, with tighter records.
 */
export function fitConversation(session: Session, options: CleanupOptions, budgetTokens: number, cleaned?: CleanupResult): FittedInput {
  const steps: string[] = [];
  const render = (c: CleanupResult, maxBlock: number): string => renderForSummary(splitOf(session, c).aging, maxBlock);
  let text = render(cleaned ?? cleanStage(session, options), 4000);
  if (estimateTokens(text) <= budgetTokens) return { conversation: text, steps };
  steps.push('tighter tool records');
  text = render(cleanStage(session, { ...options, rules: { ...options.rules, ...TIGHT } }), 1200);
  if (estimateTokens(text) <= budgetTokens) return { conversation: text, steps };
  // Keep the start (the task as first stated) and the most recent history; drop the middle.
  const ratio = budgetTokens / estimateTokens(text);
  const keep = Math.max(1000, Math.floor(text.length * ratio * 0.95));
  const head = Math.floor(keep * 0.25);
  const tail = keep - head;
  steps.push(`trimmed ${text.length - keep} characters from the middle`);
  return { conversation: `${text.slice(0, head)}\n\n[… ${text.length - keep} characters of older turns omitted to fit the summary model …]\n\n${text.slice(-tail)}`, steps };
}
