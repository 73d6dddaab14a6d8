// Per-strategy figures over the rows: counts, medians and the 95th percentile of what finished.
import { round4 } from '../probes/check';
import type { EvalRow, ProbeKind, RoundFigure, StrategyId, StrategySummary, Tally } from './types';

/** Nearest-rank quantile of the numbers (null for none). */
export function quantile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

const nums = (rows: readonly EvalRow[], f: (r: EvalRow) => number | null | undefined): number[] =>
  rows.map(f).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
const r4 = (x: number | null): number | null => (x === null ? null : round4(x));

/** Tallies by kind summed over several outcomes. */
function sumKinds(all: readonly Partial<Record<ProbeKind, Tally>>[]): Partial<Record<ProbeKind, Tally>> {
  const probes: Partial<Record<ProbeKind, Tally>> = {};
  for (const byKind of all) {for (const [k, t] of Object.entries(byKind) as [ProbeKind, Tally][]) {
    const into = (probes[k] ??= { kept: 0, total: 0 });
    into.kept += t.kept;
    into.total += t.total;
  }}
  return probes;
}

/** --rounds: round k over the rows that ran it — median share kept and cut, tallies summed. */
function roundsOf(done: readonly EvalRow[]): RoundFigure[] | undefined {
  const n = Math.max(0, ...done.map((r) => r.rounds?.length ?? 0));
  if (n === 0) return undefined;
  return Array.from({ length: n }, (_, i) => {
    const figs = done.flatMap((r) => (r.rounds?.[i] ? [r.rounds[i]] : []));
    const med = (f: (x: RoundFigure) => number | null): number | null => r4(quantile(figs.map(f).filter((x): x is number => x !== null), 0.5));
    return { round: i + 1, probesKept: med((x) => x.probesKept), byKind: sumKinds(figs.map((x) => x.byKind)), historyCut: med((x) => x.historyCut) };
  });
}

export function summarize(rows: readonly EvalRow[]): StrategySummary {
  const done = rows.filter((r) => r.status === 'ok');
  const probes = sumKinds(done.map((r) => r.probes));
  const rounds = roundsOf(done);
  const costs = nums(done, (r) => r.costUsd);
  const reductions = nums(done, (r) => r.reduction);
  const durations = nums(done, (r) => r.durationMs);
  const median = (xs: number[]): number | null => quantile(xs, 0.5);
  return {
    files: rows.length,
    accepted: rows.filter((r) => r.accepted).length,
    failed: rows.filter((r) => r.status === 'failed').length,
    skipped: rows.filter((r) => r.status === 'skipped').length,
    medianDurationMs: median(durations),
    p95DurationMs: quantile(durations, 0.95),
    medianModelInputTokens: median(nums(done, (r) => r.modelInputTokens)),
    modelCalls: rows.reduce((a, r) => a + r.modelCalls, 0),
    costUsd: costs.length ? Math.round(costs.reduce((a, b) => a + b, 0) * 1e6) / 1e6 : null,
    medianReduction: r4(median(reductions)),
    worstReduction: r4(reductions.length ? Math.min(...reductions) : null),
    medianHistoryReduction: r4(median(nums(done, (r) => r.historyReduction))),
    medianRecall: r4(median(nums(done, (r) => r.identifierRecall))),
    medianProbesKept: r4(median(nums(done, (r) => r.probesKept))),
    probes,
    ...(rows.some((r) => r.resumeBytesRatio !== undefined) ? { medianResumeBytesRatio: r4(median(nums(done, (r) => r.resumeBytesRatio))) } : {}),
    ...(rounds ? { rounds } : {}),
    ...(rows.some((r) => r.compactions !== undefined) ? { compacted: { files: done.filter((r) => r.compactions! > 0).length, compactions: done.reduce((a, r) => a + (r.compactions ?? 0), 0) } } : {}),
  };
}

export function summarizeByStrategy(rows: readonly EvalRow[], strategies: readonly StrategyId[]): Partial<Record<StrategyId, StrategySummary>> {
  const out: Partial<Record<StrategyId, StrategySummary>> = {};
  for (const s of strategies) out[s] = summarize(rows.filter((r) => r.strategy === s));
  return out;
}

/** The rows that did worst, with why: failures first, then fewest probes kept, then least history cut. */
export function worstRows(rows: readonly EvalRow[], n = 5): EvalRow[] {
  const score = (r: EvalRow): number[] => [r.status === 'failed' ? 0 : 1, r.accepted ? 1 : 0, r.probesKept ?? 1, r.historyReduction ?? 1];
  const cmp = (a: EvalRow, b: EvalRow): number => {
    const x = score(a), y = score(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return a.file.localeCompare(b.file);
  };
  return rows.filter((r) => r.status !== 'skipped').sort(cmp).slice(0, n);
}

/** One line on why a row is among the worst. */
export function whyBad(r: EvalRow): string {
  if (r.status === 'failed') return `failed: ${r.failure ?? 'unknown error'}`;
  const parts: string[] = [];
  if (!r.accepted) parts.push(r.pairsIntact === false ? 'tool pairs broken' : r.fallback ? 'summary fell back to cleanup' : 'output not smaller');
  if (r.probesKept !== null) {
    const total = Object.values(r.probes).reduce((a, t) => a + t!.total, 0);
    const kept = Object.values(r.probes).reduce((a, t) => a + t!.kept, 0);
    parts.push(`kept ${kept}/${total} probes${r.lost.length ? ` — lost ${r.lost.slice(0, 3).join('; ')}` : ''}`);
  }
  if (r.historyReduction !== null) parts.push(`history ${pctText(r.historyReduction)} smaller${r.tooSmallToCompact ? ' (too small to compact)' : ''}`);
  return parts.join(' · ');
}

export const pctText = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(1)} %`);
