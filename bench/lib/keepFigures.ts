// The keep bench's figures from eval reports: the issue's table on the agents' own compaction segments, probes by
// kind, identifier recall per file, whole-file figures and rounds — each beside the target, met or MISSED.
import { PROBE_KINDS, type EvalReport, type EvalRow, type ProbeKind, type RoundFigure, type StrategyId, type Tally } from '../../src/core/eval/types';

export const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};
const nums = (rows: readonly EvalRow[], f: (r: EvalRow) => number | null | undefined): number[] => rows.map(f).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));

/** Kept over looked for, summed over the kinds (or one kind). */
export function pooled(t: Partial<Record<ProbeKind, Tally>>, kinds: readonly ProbeKind[] = PROBE_KINDS): Tally {
  return kinds.reduce((a, k) => ({ kept: a.kept + (t[k]?.kept ?? 0), total: a.total + (t[k]?.total ?? 0) }), { kept: 0, total: 0 });
}
export const share = (t: Tally): number | null => (t.total ? t.kept / t.total : null);

/** Adds `from`'s tallies into `into`, kind by kind. */
export function addKinds(into: Partial<Record<ProbeKind, Tally>>, from: Partial<Record<ProbeKind, Tally>>): void {
  for (const k of PROBE_KINDS) {
    const t = from[k];
    if (!t) continue;
    const x = (into[k] ??= { kept: 0, total: 0 });
    x.kept += t.kept;
    x.total += t.total;
  }
}

export function sumKinds(rows: readonly EvalRow[]): Partial<Record<ProbeKind, Tally>> {
  const out: Partial<Record<ProbeKind, Tally>> = {};
  for (const r of rows) addKinds(out, r.probes);
  return out;
}

/** A figure beside its target: `met` is undefined when there is nothing to judge (no rows). A share unless `ratio`. */
export interface Check { readonly label: string; readonly value: number | null; readonly target: string; readonly met: boolean | undefined; readonly ratio?: boolean }
export const check = (label: string, value: number | null, target: string, ok: (v: number) => boolean, ratio = false): Check => ({ label, value, target, met: value === null ? undefined : ok(value), ...(ratio ? { ratio } : {}) });
export const verdict = (c: Check): string => (c.met === undefined ? 'n/a' : c.met ? 'met' : 'MISSED');

/** One row of the table: figures over the segments one strategy ran on. */
export interface SegmentRow {
  readonly label: string;
  readonly ran: number;
  readonly ok: number;
  readonly cut: number | null;
  readonly probesMedian: number | null;
  readonly probesAll: Tally;
  readonly outputTokens: number | null;
  readonly byKind: Partial<Record<ProbeKind, Tally>>;
  readonly recallMin: number | null;
  readonly recallBelow: { file: string; recall: number }[];
}

const okRows = (rows: readonly EvalRow[]): EvalRow[] => rows.filter((r) => r.status === 'ok');

export function segmentRow(label: string, report: EvalReport, strategy: StrategyId, name: (file: string) => string = (f) => f): SegmentRow {
  const rows = report.rows.filter((r) => r.segment && r.strategy === strategy && r.status !== 'skipped');
  const done = okRows(rows);
  const recall = nums(done, (r) => r.identifierRecall);
  const below = done.filter((r) => r.identifierRecall !== null && r.identifierRecall < 0.9);
  return {
    label, ran: rows.length, ok: done.length,
    cut: median(nums(done, (r) => r.historyReduction)),
    probesMedian: median(nums(done, (r) => r.probesKept)),
    probesAll: pooled(sumKinds(done)),
    outputTokens: median(nums(done, (r) => r.tokens?.historyAfter)),
    byKind: sumKinds(done),
    recallMin: recall.length ? Math.min(...recall) : null,
    recallBelow: below.map((r) => ({ file: `${name(r.file)} #${r.segment!.index}`, recall: r.identifierRecall! })),
  };
}

/** Segments where `ours` cut at least as much history as the agent did on the same segment, of those both ran. */
export function segmentsAtLeastVendor(report: EvalReport, ours: StrategyId): { atLeast: number; of: number } {
  const key = (r: EvalRow): string => `${r.file}#${r.segment!.index}`;
  const vendor = new Map(okRows(report.rows.filter((r) => r.segment && r.strategy === 'vendor')).map((r) => [key(r), r.historyReduction]));
  let atLeast = 0, of = 0;
  for (const r of okRows(report.rows.filter((x) => x.segment && x.strategy === ours))) {
    const v = vendor.get(key(r));
    if (v === undefined || v === null || r.historyReduction === null) continue;
    of++;
    if (r.historyReduction >= v) atLeast++;
  }
  return { atLeast, of };
}

/** Whole-file figures for one strategy: cut over the files large enough to compact, the rest over every file. */
export interface WholeRow {
  readonly label: string;
  readonly files: number;
  readonly ok: number;
  readonly tooSmall: number;
  readonly cutMedian: number | null;
  readonly cutWorst: number | null;
  readonly worstFile?: string;
  readonly probesMedian: number | null;
  readonly probesAll: Tally;
  readonly pairsIntact: number;
  readonly pairsJudged: number;
  readonly recallMin: number | null;
  readonly recallBelow: { file: string; recall: number }[];
  readonly rounds?: readonly RoundFigure[];
}

export function wholeRow(label: string, report: EvalReport, strategy: StrategyId, name: (file: string) => string): WholeRow {
  const rows = report.rows.filter((r) => !r.segment && r.strategy === strategy && r.status !== 'skipped');
  const done = okRows(rows);
  const sized = done.filter((r) => !r.tooSmallToCompact && r.historyReduction !== null);
  const worst = sized.reduce<EvalRow | undefined>((w, r) => (w === undefined || r.historyReduction! < w.historyReduction! ? r : w), undefined);
  const recall = done.filter((r) => r.identifierRecall !== null);
  const pairs = done.filter((r) => r.pairsIntact !== null);
  return {
    label, files: rows.length, ok: done.length, tooSmall: done.length - sized.length,
    cutMedian: median(sized.map((r) => r.historyReduction!)), cutWorst: worst?.historyReduction ?? null, ...(worst ? { worstFile: name(worst.file) } : {}),
    probesMedian: median(nums(done, (r) => r.probesKept)), probesAll: pooled(sumKinds(done)),
    pairsIntact: pairs.filter((r) => r.pairsIntact).length, pairsJudged: pairs.length,
    recallMin: recall.length ? Math.min(...recall.map((r) => r.identifierRecall!)) : null,
    recallBelow: recall.filter((r) => r.identifierRecall! < 0.9).map((r) => ({ file: name(r.file), recall: r.identifierRecall! })),
    ...(report.summary[strategy]?.rounds ? { rounds: report.summary[strategy]!.rounds } : {}),
  };
}

/** Per round: median probes kept over files, and constraints and files pooled over files. */
export function roundCells(rounds: readonly RoundFigure[]): { round: number; probes: number | null; all: Tally; constraints: Tally; files: Tally; cut: number | null }[] {
  return rounds.map((r) => ({ round: r.round, probes: r.probesKept, all: pooled(r.byKind), constraints: pooled(r.byKind, ['constraints']), files: pooled(r.byKind, ['files']), cut: r.historyCut }));
}
