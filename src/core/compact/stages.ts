// The compaction pipeline as a sequence of stages, each run once per compaction: the later stages take what the
// earlier ones produced (the summary and the fit reuse the one cleanup and its one split) instead of redoing it.
import { cleanupSession, type CleanupResult } from '../cleanup/engine';
import { withIdentifierMemo } from '../cleanup/identifiers';
import type { CleanupOptions } from '../cleanup/types';
import type { Session } from '../model/transcript';
import { calibrate, type Calibration } from '../tokens/calibrate';
import { splitAging, type AgingSplit } from './split';

/**
 * In order. read: the file into a Session (node layer). clean: the protected part (plan), then the rules that
 * turn the older history into records (`cleanupSession`). split: the cleaned history into harness / aging /
 * pinned / recent. summary: at most one model call over the aging part, fitted to its window (fit). measure:
 * the figures of the outcome that is kept. convert (only with a target agent, `compact --to`): the kept outcome as
 * an agent-neutral conversation with the target's tools (core/convert). render + write: the writer (the source
 * agent's, or the target's from the conversation), once, then the atomic write.
 */
export const STAGES = ['read', 'clean', 'split', 'fit', 'summary', 'measure', 'convert', 'render', 'write'] as const;
export type Stage = (typeof STAGES)[number];

/**
 * How many times each stage ran since the last `resetStageRuns()`: a test reads it to hold every stage to one run
 * per compaction (a counter rather than an injected spy: the stages are called from core and node alike).
 */
export const stageRuns: Record<Stage, number> = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;

export function resetStageRuns(): void {
  for (const s of STAGES) stageRuns[s] = 0;
}

export const countStage = (stage: Stage): void => { stageRuns[stage]++; };

/** The clean stage: plan the protected part and apply the rules. Call it once and pass its result on. */
export function cleanStage(session: Session, options: CleanupOptions): CleanupResult {
  countStage('clean');
  return withIdentifierMemo(() => cleanupSession(session, options));
}

// A cleanup result and a session are immutable once made: what is derived from them is derived once.
const splits = new WeakMap<CleanupResult, { readonly session: Session; readonly split: AgingSplit }>();
const calibrations = new WeakMap<Session, Calibration>();

/** The split stage of `cleanup` (a cleanup of `session`), computed on first use and shared by summary, fit and insert. */
export function splitOf(session: Session, cleanup: CleanupResult): AgingSplit {
  const known = splits.get(cleanup);
  if (known?.session === session) return known.split;
  countStage('split');
  const split = splitAging(session, cleanup);
  splits.set(cleanup, { session, split });
  return split;
}

/** The session's calibration (harness overhead and scale), computed once for every figure measured on it. */
export function calibrationOf(session: Session): Calibration {
  let c = calibrations.get(session);
  if (c === undefined) calibrations.set(session, (c = calibrate(session)));
  return c;
}
