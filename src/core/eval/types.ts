// The shapes `context-compactor eval` reports: one row per transcript and strategy, one summary per strategy.
import type { FormatId } from '../model/transcript';
import type { SegmentsSummary } from './vendorSummary';

export const STRATEGIES = ['cleanup', 'summary', 'cleanup+summary', 'rolling', 'server', 'vendor'] as const;
export type StrategyId = (typeof STRATEGIES)[number];
/** Strategies that need a provider; without one they are skipped, not failed. */
export const MODEL_STRATEGIES: ReadonlySet<StrategyId> = new Set<StrategyId>(['summary', 'cleanup+summary', 'server']);
/** vendor: ours that also run on each segment before one of the agent's own compactions, beside what the agent kept. */
export const SEGMENT_STRATEGIES: readonly StrategyId[] = ['cleanup', 'cleanup+summary', 'summary'];

export const PROBE_KINDS = ['files', 'error', 'request', 'commands', 'ids', 'todos', 'constraints', 'instructions'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export interface Tally { kept: number; total: number }

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
