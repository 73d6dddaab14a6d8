// Builds eval rows from what a strategy produced: its measurement, its probe outcome and its model use.
import type { Measurement } from '../compact/measure';
import type { FormatId } from '../model/transcript';
import { round4, type ProbeOutcome } from '../probes/check';
import type { EvalRow, StrategyId } from './types';

export type RowMeasure = Pick<Measurement, 'before' | 'after' | 'reduction' | 'historyReduction' | 'identifierRecall' | 'pairsIntact' | 'tooSmallToCompact'>;

export interface RowInput {
  readonly file: string;
  readonly format: FormatId;
  readonly strategy: StrategyId;
  readonly durationMs: number;
  readonly measure: RowMeasure;
  /** undefined: the output cannot be read (encrypted), so neither probes nor recall can be checked. */
  readonly probes?: ProbeOutcome;
  readonly modelCalls?: number;
  readonly modelInputTokens?: number;
  readonly costUsd?: number;
  readonly fallback?: boolean;
  /** A summary that failed: the row fails, with the figures of the cleaned transcript that stood in. */
  readonly failure?: string;
  readonly compactions?: number;
  readonly notes?: readonly string[];
}

export function okRow(i: RowInput): EvalRow {
  const m = i.measure;
  const failed = i.failure !== undefined;
  return {
    file: i.file, format: i.format, strategy: i.strategy, status: failed ? 'failed' : 'ok',
    accepted: !failed && !i.fallback && m.pairsIntact && m.after.tokens <= m.before.tokens,
    ...(failed ? { failure: oneLine(i.failure!) } : {}),
    durationMs: Math.round(i.durationMs), modelCalls: i.modelCalls ?? 0, modelInputTokens: i.modelInputTokens ?? 0,
    ...(i.costUsd !== undefined ? { costUsd: i.costUsd } : {}),
    reduction: round4(m.reduction), historyReduction: round4(m.historyReduction),
    identifierRecall: i.probes ? round4(m.identifierRecall) : null,
    probesKept: i.probes?.kept ?? null, probes: i.probes?.byKind ?? {}, lost: i.probes?.lost.slice(0, 8) ?? [],
    pairsIntact: m.pairsIntact,
    tokens: { before: m.before.tokens, after: m.after.tokens, historyBefore: m.before.historyTokens, historyAfter: m.after.historyTokens },
    tooSmallToCompact: m.tooSmallToCompact,
    ...(i.compactions !== undefined ? { compactions: i.compactions } : {}),
    ...(i.fallback ? { fallback: true } : {}),
    ...(i.notes?.length ? { notes: i.notes } : {}),
  };
}

/** A strategy that could not run at all (unreadable file, crash) or was not asked to (no provider). */
export function emptyRow(file: string, format: FormatId | 'unknown', strategy: StrategyId, status: 'failed' | 'skipped', why: string, durationMs = 0): EvalRow {
  return {
    file, format, strategy, status, accepted: false, ...(status === 'failed' ? { failure: oneLine(why) } : { skipped: oneLine(why) }),
    durationMs: Math.round(durationMs), modelCalls: 0, modelInputTokens: 0, reduction: null, historyReduction: null, identifierRecall: null,
    probesKept: null, probes: {}, lost: [], pairsIntact: null, tokens: null, tooSmallToCompact: false,
  };
}

const oneLine = (s: string): string => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
};
