// The shapes `context-compactor eval` reports: one row per transcript and strategy, one summary per strategy.
import type { FormatId } from '../model/transcript';

export const STRATEGIES = ['cleanup', 'summary', 'cleanup+summary', 'rolling', 'server', 'vendor'] as const;
export type StrategyId = (typeof STRATEGIES)[number];
/** Strategies that need a provider; without one they are skipped, not failed. */
export const MODEL_STRATEGIES: ReadonlySet<StrategyId> = new Set<StrategyId>(['summary', 'cleanup+summary', 'server']);
/** vendor: ours that also run on each segment before one of the agent's own compactions, beside what the agent kept. */
export const SEGMENT_STRATEGIES: readonly StrategyId[] = ['cleanup', 'cleanup+summary', 'summary'];

// The kinds of the independent probe set (src/core/probes), which reads each original's raw records.
export { PROBE_KINDS, type ProbeKind } from '../probes/types';
import type { ProbeKind } from '../probes/types';

export interface Tally { kept: number; total: number }

/**
 * `eval --rounds N`: one round of compacting the previous round's output grown by the session's next turns. Per
 * row: its figures; per strategy: the median share kept and history cut, and the tallies by kind summed over rows.
 */
export interface RoundFigure {
  readonly round: number;
  readonly probesKept: number | null;
  readonly byKind: Partial<Record<ProbeKind, Tally>>;
  readonly historyCut: number | null;
}

export interface EvalRow {
  readonly file: string;
  /** The session's title (its first typed prompt), when it was read: reports name sessions by it, not by file. */
  readonly title?: string;
  readonly format: FormatId | 'unknown';
  readonly strategy: StrategyId;
  readonly status: 'ok' | 'failed' | 'skipped';
  /** Finished, tool pairs intact, not larger than the input, and no fallback from what the strategy promises. */
  readonly accepted: boolean;
  /** Why the row failed (one line), or — for `skipped` — why it did not run. */
  readonly failure?: string;
  readonly skipped?: string;
  readonly durationMs: number;
  readonly modelCalls: number;
  readonly modelInputTokens: number;
  readonly costUsd?: number;
  readonly reduction: number | null;
  readonly historyReduction: number | null;
  /** null where the output cannot be read (OpenAI's encrypted compaction item). */
  readonly identifierRecall: number | null;
  /** Share of the probes found in the output; null when the original has none or the output cannot be read. */
  readonly probesKept: number | null;
  readonly probes: Partial<Record<ProbeKind, Tally>>;
  /** Labels of the probes not found (the first few), for the "why" of the worst rows. */
  readonly lost: readonly string[];
  readonly pairsIntact: boolean | null;
  /**
   * --resume-check (Claude Code, Codex; outputs of cleanup, summary, cleanup+summary): bytes of the request the real
   * agent CLI sent resuming this output over those it sent resuming the original; null when the original did not resume.
   */
  readonly resumeBytesRatio?: number | null;
  readonly tokens: { readonly before: number; readonly after: number; readonly historyBefore: number; readonly historyAfter: number } | null;
  readonly tooSmallToCompact: boolean;
  /** rolling: compactions during the replay. */
  readonly compactions?: number;
  /** The summary failed and the cleaned transcript stood in. */
  readonly fallback?: boolean;
  readonly notes?: readonly string[];
  /**
   * vendor: the row is on the segment before the agent's own compaction `index` of `of` (1-based), not the whole file;
   * `encrypted`: that compaction's summary cannot be read (Codex remote compaction).
   */
  readonly segment?: { readonly index: number; readonly of: number; readonly encrypted?: boolean };
  /** --rounds N (N > 1): cleanup, summary, cleanup+summary compacted N times as the session grows. */
  readonly rounds?: readonly RoundFigure[];
}

export interface StrategySummary {
  readonly files: number;
  readonly accepted: number;
  readonly failed: number;
  readonly skipped: number;
  readonly medianDurationMs: number | null;
  readonly p95DurationMs: number | null;
  readonly medianModelInputTokens: number | null;
  readonly modelCalls: number;
  readonly costUsd: number | null;
  readonly medianReduction: number | null;
  readonly worstReduction: number | null;
  readonly medianHistoryReduction: number | null;
  readonly medianRecall: number | null;
  readonly medianProbesKept: number | null;
  /** --resume-check: median resumeBytesRatio of the rows checked (absent without the check). */
  readonly medianResumeBytesRatio?: number | null;
  /** Probes found over probes looked for, per kind, across all the strategy's rows. */
  readonly probes: Partial<Record<ProbeKind, Tally>>;
  /** rolling: transcripts whose replay compacted at least once, and compactions in all. */
  readonly compacted?: { readonly files: number; readonly compactions: number };
  /** --rounds N (N > 1): per round, across the strategy's rows that ran rounds. */
  readonly rounds?: readonly RoundFigure[];
}

export interface EvalReport {
  readonly strategies: readonly StrategyId[];
  readonly provider?: { readonly id: string; readonly model: string };
  /** rolling: the context size that triggers a compaction. */
  readonly threshold: number;
  /** --resume-check ran (rows of written outputs carry resumeBytesRatio). */
  readonly resumeCheck?: boolean;
  readonly files: number;
  /** Ctrl-C / cancel: rows hold what finished. */
  readonly interrupted: boolean;
  readonly durationMs: number;
  readonly rows: readonly EvalRow[];
  readonly summary: Partial<Record<StrategyId, StrategySummary>>;
  /** vendor: the agent's own compactions against ours on the same segments (whole-file figures stay in `summary`). */
  readonly segments?: SegmentsSummary;
  readonly warnings: readonly string[];
}

export interface SegmentFigures extends StrategySummary {
  /** Median tokens of history the output holds (the harness, the same on both sides, left out). */
  readonly medianOutputTokens: number | null;
}

export interface SegmentsSummary {
  /** The agents' own compactions found (one segment each), in how many sessions, per agent. */
  readonly compactions: number;
  readonly sessions: number;
  readonly byAgent: Partial<Record<FormatId, number>>;
  /** Compactions whose summary is encrypted (Codex remote): the vendor's probes there are a lower bound. */
  readonly encrypted: number;
  /** vendor first, then ours in the run's order. */
  readonly strategies: readonly StrategyId[];
  readonly byStrategy: Partial<Record<StrategyId, SegmentFigures>>;
}
