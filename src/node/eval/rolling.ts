// The `rolling` strategy: replays a session under the simulator's policy (compact when the context passes the
// threshold, keep the recent turns) and returns the context the agent holds at the end, for measuring.
import { cleanupSession } from '../../core/cleanup/engine';
import type { CleanupOptions } from '../../core/cleanup/types';
import { summarizedMessages } from '../../core/compact/compactSession';
import { splitAging } from '../../core/compact/split';
import type { Message, Session } from '../../core/model/transcript';
import { buildTurns } from '../../core/read/turns';
import { calibrate } from '../../core/tokens/calibrate';
import { summarizeAging, type SummaryConfig } from '../summarizeStep';

export interface RollingPolicy {
  /** Context size (tokens) above which the next request is preceded by a compaction. */
  readonly threshold: number;
  readonly cleanup: CleanupOptions;
  /** A provider: each compaction also makes one summary call (anchored on the previous summary). */
  readonly summary?: SummaryConfig;
}

export interface RollingOutcome {
  readonly result: Session;
  readonly compactions: number;
  readonly modelCalls: number;
  readonly modelInputTokens: number;
  readonly costUsd?: number;
  /** The first summary failure (the replay goes on with the cleaned context, as compaction does). */
  readonly failure?: string;
}

export const withMessages = (s: Session, messages: Message[]): Session => ({ ...s, messages, turns: buildTurns(messages) });
const tokensOf = (messages: readonly Message[]): number => messages.reduce((a, m) => a + m.blocks.reduce((x, b) => x + b.tokens, 0), 0);

/** `changed`: cleanup changed a block or a summary was asked for (else the step is no compaction: nothing was older than the recent part). */
export interface HeldStep { readonly messages: Message[]; readonly changed: boolean; readonly modelCalls: number; readonly inputTokens: number; readonly costUsd?: number; readonly error?: string }

/**
 * One compaction of what an agent holds with a summary: clean it (earlier summary included) and summarize its aging
 * part, updating the earlier summary. Rolling and `eval --rounds` both compact this way.
 */
export async function summarizedStep(prefix: Session, cleanupOptions: CleanupOptions, summary: SummaryConfig, signal: AbortSignal): Promise<HeldStep> {
  const cleanup = cleanupSession(prefix, cleanupOptions);
  const step = await summarizeAging({ original: prefix, outcome: { cleanup }, cleanupOptions }, summary, signal);
  // The summary message claims the first record it replaces (never the pinned prompt's), so the next
  // compaction sorts it into the aging part and replaces it.
  const first = splitAging(prefix, cleanup).aging.find((m) => m.records.length > 0)?.records[0];
  const messages = step.text ? summarizedMessages(prefix, cleanup, step.text, first === undefined ? [] : [first]).messages : cleanup.session.messages;
  return { messages, changed: cleanup.changedOriginals.length > 0 || step.modelCalls > 0, modelCalls: step.modelCalls, inputTokens: step.figures?.inputTokens ?? 0, ...(step.figures?.costUsd !== undefined ? { costUsd: step.figures.costUsd } : {}), ...(step.figures?.error ? { error: step.figures.error } : {}) };
}

/**
 * Without a provider, each compaction cleans the original prefix, exactly as `simulate` models it (same
 * compaction points). With one, each compaction cleans what the agent holds (earlier summary included) and
 * summarizes its aging part, updating the earlier summary: what a rolling agent would actually carry.
 */
export async function rollingCompaction(session: Session, policy: RollingPolicy, signal: AbortSignal): Promise<RollingOutcome> {
  const cal = calibrate(session);
  let held: Message[] = [];
  let from = 0;
  let compactions = 0, modelCalls = 0, modelInputTokens = 0, cost: number | undefined;
  let failure: string | undefined;
  for (const t of session.turns) {
    if (t.kind !== 'model') continue;
    const pending = session.messages.slice(from, t.start);
    const context = cal.overhead + (tokensOf(held) + tokensOf(pending)) * cal.scale;
    if (context <= policy.threshold || t.start <= from) continue;
    if (signal.aborted) throw new Error('cancelled');
    // A compaction that changes nothing (all of it the recent part, e.g. one prompt under a harness over the
    // threshold) is none: not counted, and the replay goes on as if it had not been tried.
    if (!policy.summary) {
      const cleaned = cleanupSession(withMessages(session, session.messages.slice(0, t.start)), policy.cleanup);
      if (cleaned.changedOriginals.length === 0) continue;
      held = cleaned.session.messages;
    } else {
      const step = await summarizedStep(withMessages(session, [...held, ...pending]), policy.cleanup, policy.summary, signal);
      if (!step.changed) continue;
      modelCalls += step.modelCalls;
      modelInputTokens += step.inputTokens;
      if (step.costUsd !== undefined) cost = (cost ?? 0) + step.costUsd;
      if (step.error && failure === undefined) failure = `summary at turn ${t.index}: ${step.error}`;
      held = step.messages;
    }
    from = t.start;
    compactions++;
  }
  const result = withMessages(session, [...held, ...session.messages.slice(from)]);
  return { result, compactions, modelCalls, modelInputTokens, ...(cost !== undefined ? { costUsd: cost } : {}), ...(failure ? { failure } : {}) };
}
