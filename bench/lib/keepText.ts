// The keep bench's text: the issue's table, probes by kind, recall per file, whole files, rounds and the hook, and
// every target of the issue beside the figure it judges (met / MISSED).
import { PROBE_KINDS, type SegmentsSummary, type Tally } from '../../src/core/eval/types';
import type { HookFigures } from './hookFigures';
import { textTable } from './harness';
import { check, median, pooled, roundCells, share, verdict, type Check, type SegmentRow, type WholeRow } from './keepFigures';

export interface KeepInput {
  readonly files: number;
  readonly evalMs: number;
  readonly modelCalls: number;
  readonly segments: SegmentsSummary | null;
  /** vendor, cleanup, cleanup+summary (snapshot), cleanup+summary (junk). */
  readonly table: readonly SegmentRow[];
  readonly atLeastVendor: Record<'snapshot' | 'junk', { atLeast: number; of: number }>;
  /** cleanup, cleanup+summary (snapshot), cleanup+summary (junk). */
  readonly whole: readonly WholeRow[];
  readonly hook: HookFigures;
  /** Median history bytes the real CLIs sent resuming our outputs over the originals (the last test:resume). */
  readonly resume: { claude?: number; codex?: number };
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(1)} %`);
const tally = (t: Tally | undefined): string => (t && t.total ? `${pct(t.kept / t.total)} (${t.kept}/${t.total})` : '–');
const tokens = (n: number | null): string => (n === null ? '–' : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(Math.round(n)));
/** A figure with its target beside it. */
const judged = (shown: string, c: Check): string => `${shown}  [${c.target}: ${verdict(c)}]`;
const atLeast = (t: number) => (v: number): boolean => v >= t;

function segmentTable(i: KeepInput, checks: Check[]): string {
  const [vendor, clean, snap, junk] = i.table;
  const vendorCut = vendor!.cut;
  const cutTarget = Math.max(vendorCut ?? 0, 0.95);
  const targets: [Check | undefined, Check | undefined][] = [
    [undefined, undefined],
    [check('segments, cleanup: history cut (median)', clean!.cut, '≥ 90 %', atLeast(0.9)), check('segments, cleanup: probes kept (median)', clean!.probesMedian, '≥ 85 %', atLeast(0.85))],
    ...[snap!, junk!].map((r, k) => [
      check(`segments, cleanup + summary (${k ? 'junk' : 'snapshot'}): history cut (median)`, r.cut, `≥ vendor's ${pct(vendorCut)} and ≥ 95 %`, atLeast(cutTarget)),
      check(`segments, cleanup + summary (${k ? 'junk' : 'snapshot'}): probes kept (median)`, r.probesMedian, '≥ 90 %', atLeast(0.9)),
    ] as [Check, Check]),
  ];
  const rows = i.table.map((r, k) => {
    const [cut, probes] = targets[k]!;
    if (cut) checks.push(cut);
    if (probes) checks.push(probes);
    return [r.label, `${r.ok}/${r.ran}`, cut ? judged(pct(r.cut), cut) : pct(r.cut), probes ? judged(pct(r.probesMedian), probes) : pct(r.probesMedian), tally(r.probesAll), `${tokens(r.outputTokens)} tokens`];
  });
  const s = i.segments;
  const agents = s ? Object.entries(s.byAgent).map(([a, n]) => `${a} ${n}`).join(', ') : '';
  const head = s ? `${s.compactions} of the agents' own compactions in ${s.sessions} sessions (${agents}; ${s.encrypted} with an encrypted summary: vendor's probes there are looked for in the messages it kept)` : 'no compactions found';
  const av = (k: 'snapshot' | 'junk'): string => `${i.atLeastVendor[k].atLeast}/${i.atLeastVendor[k].of}`;
  return [
    textTable(`1. On the same segments — ${head}`, ['on the same segments', 'ran', 'history cut (median)', 'probes kept (median)', 'probes kept (all)', 'output size (median)'], rows),
    `Segments where cleanup + summary cut at least what the agent cut on that segment: ${av('snapshot')} (snapshot), ${av('junk')} (junk).`,
  ].join('\n');
}

function kindTable(i: KeepInput): string {
  const cols = [...i.table.map((r) => r.byKind), i.hook.byKindAlone, i.hook.byKindPair];
  const kinds = PROBE_KINDS.filter((k) => cols.some((c) => (c[k]?.total ?? 0) > 0));
  const rows = kinds.map((k) => [k, ...cols.map((c) => tally(c[k]))]);
  return textTable('2. Probes kept by kind, pooled over the segments (the hook: over the compactions it was measured on)',
    ['kind', 'vendor', 'cleanup', 'cl.+summary (snapshot)', 'cl.+summary (junk)', 'hook: summary alone', 'hook: summary + ours'], rows);
}

function recallLines(i: KeepInput, checks: Check[]): string {
  const lines = ['Identifier recall per file, cleanup + summary (whole files, and the segments before the agents\' compactions):'];
  for (const [k, w] of i.whole.slice(1).entries()) {
    const seg = i.table[2 + k]!;
    const mins = [w.recallMin, seg.recallMin].filter((x): x is number => x !== null);
    const c = check(`identifier recall, ${w.label}: minimum over files and segments`, mins.length ? Math.min(...mins) : null, '≥ 0.9 on every file', atLeast(0.9), true);
    checks.push(c);
    const below = (xs: readonly { file: string; recall: number }[]): string => (xs.length ? ` (${xs.map((b) => `${b.file} ${b.recall.toFixed(3)}`).join(', ')})` : '');
    lines.push(`  ${w.label}: whole files: minimum ${w.recallMin?.toFixed(3) ?? '–'}, ${w.recallBelow.length} of ${w.ok} < 0.9${below(w.recallBelow)}; segments: minimum ${seg.recallMin?.toFixed(3) ?? '–'}, ${seg.recallBelow.length} of ${seg.ok} < 0.9${below(seg.recallBelow)}  [${c.target}: ${verdict(c)}]`);
  }
  return lines.join('\n');
}

function wholeTable(i: KeepInput, checks: Check[]): string {
  const rows = i.whole.map((w, k) => {
    const summary = k > 0;
    const cut = check(`whole files, ${w.label}: history cut (median)`, w.cutMedian, summary ? '≥ 95 %' : '≥ 90 %', atLeast(summary ? 0.95 : 0.9));
    const worst = summary ? undefined : check(`whole files, ${w.label}: history cut (worst)`, w.cutWorst, '≥ 70 %', atLeast(0.7));
    const probes = check(`whole files, ${w.label}: probes kept (median)`, w.probesMedian, summary ? '≥ 90 %' : '≥ 85 %', atLeast(summary ? 0.9 : 0.85));
    const pairs = check(`whole files, ${w.label}: pairs intact`, w.pairsJudged ? w.pairsIntact / w.pairsJudged : null, '100 %', (v) => v === 1);
    checks.push(...[cut, worst, probes, pairs].filter((c): c is Check => !!c));
    return [w.label, `${w.ok}/${w.files}${w.tooSmall ? ` (${w.tooSmall} too small)` : ''}`, judged(pct(w.cutMedian), cut),
      worst ? judged(pct(w.cutWorst), worst) : pct(w.cutWorst),
      judged(pct(w.probesMedian), probes), tally(w.probesAll), judged(`${w.pairsIntact}/${w.pairsJudged}`, pairs)];
  });
  return [
    textTable('3. Whole files (cut over the files large enough to compact)', ['strategy', 'files ok', 'history cut (median)', 'history cut (worst)', 'probes kept (median)', 'probes kept (all)', 'pairs intact'], rows),
    `worst cut: ${i.whole.map((w) => `${w.label} ${w.worstFile ?? '–'}`).join('; ')}`,
    ...resumeLines(i, checks),
  ].join('\n');
}

/** The real CLIs' resume figures are measured by `npm run test:resume`, not here: read from its last run, when there is one. */
function resumeLines(i: KeepInput, checks: Check[]): string[] {
  return (['claude', 'codex'] as const).map((agent) => {
    const c = check(`real ${agent} CLI resumes our outputs: history bytes vs the original (median)`, i.resume[agent] ?? null, '≤ 20 %', (v) => v <= 0.2);
    checks.push(c);
    return `real ${agent} CLI resume, history bytes sent vs the original (median, last npm run test:resume in this checkout): ${c.value === null ? 'not run' : judged(pct(c.value), c)}`;
  });
}

function roundsTable(i: KeepInput, checks: Check[]): string {
  const rows: string[][] = [];
  for (const w of i.whole) {
    const cells = roundCells(w.rounds ?? []);
    for (const c of cells) {
      const last = c.round === cells.length;
      const con = check(`after ${c.round} rounds, ${w.label}: constraints kept`, share(c.constraints), '≥ 90 %', atLeast(0.9));
      const fil = check(`after ${c.round} rounds, ${w.label}: files kept`, share(c.files), '≥ 90 %', atLeast(0.9));
      if (last) checks.push(con, fil);
      rows.push([c.round === 1 ? w.label : '', String(c.round), pct(c.cut), pct(c.probes), tally(c.all), last ? judged(tally(c.constraints), con) : tally(c.constraints), last ? judged(tally(c.files), fil) : tally(c.files)]);
    }
  }
  return textTable('4. Rounds (whole files compacted again as they grow: medians over files, kinds pooled)', ['strategy', 'round', 'history cut', 'probes kept (median)', 'probes kept (all)', 'constraints', 'files'], rows);
}

function hookText(h: HookFigures, checks: Check[]): string {
  const c = check('hook: summary + our context, probes kept (mean over compactions)', h.meanPair, '≥ 85 %', atLeast(0.85));
  checks.push(c);
  const plain = h.compactions.filter((x) => !x.encrypted);
  const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
  const sizes = h.compactions.map((x) => x.contextTokens);
  const summaries = plain.map((x) => x.summaryTokens);
  const rows = h.compactions.map((x) => [`${x.file} #${x.index}${x.encrypted ? ' (encrypted)' : ''}`, String(x.probes), pct(x.alone), pct(x.pair), x.encrypted ? '–' : tokens(x.summaryTokens), tokens(x.contextTokens)]);
  const byAgent = (a: string): number => h.compactions.filter((x) => x.agent === a).length;
  return [
    textTable(`5. The hook on ${h.compactions.length} compactions (Claude Code ${byAgent('claude-code')}, Codex ${byAgent('codex')}; ${h.notMeasured.length} not measured): probes of the segment before each`,
      ['compaction', 'probes', 'summary alone', 'summary + hook', 'summary', 'hook context'], rows),
    `mean: summary alone ${pct(h.meanAlone)}, ${judged(`summary + hook ${pct(h.meanPair)}`, c)}; with a readable summary only (${plain.length}): ${pct(mean(plain.map((x) => x.alone)))} → ${pct(mean(plain.map((x) => x.pair)))}`,
    `pooled: summary alone ${tally(pooled(h.byKindAlone))}, summary + hook ${tally(pooled(h.byKindPair))}`,
    `hook context: median ${tokens(median(sizes))} / max ${tokens(sizes.length ? Math.max(...sizes) : null)} tokens, within its budget (≤ 2,000 and ≤ the summary) ${h.withinBudget}/${h.compactions.length}; the summaries: median ${tokens(median(summaries))} / max ${tokens(summaries.length ? Math.max(...summaries) : null)} tokens`,
    ...h.notMeasured.map((n) => `  not measured: ${n.file} #${n.index}: ${n.why}`),
  ].join('\n');
}

/** Everything, with a closing list of the targets. */
export function keepText(i: KeepInput): string {
  const checks: Check[] = [];
  const parts = [segmentTable(i, checks), kindTable(i), recallLines(i, checks), wholeTable(i, checks), roundsTable(i, checks), hookText(i.hook, checks)];
  const missed = checks.filter((c) => c.met === false);
  const targets = textTable(`6. The issue's targets: ${checks.filter((c) => c.met).length}/${checks.length} met`, ['figure', 'value', 'target', ''],
    checks.map((c) => [c.label, c.ratio ? (c.value?.toFixed(3) ?? '–') : pct(c.value), c.target, verdict(c)]));
  return [
    `${i.files} real transcripts (the shared corpus and test/fixtures/real), eval with a loopback Anthropic model: ${(i.evalMs / 1000).toFixed(0)} s, ${i.modelCalls} model calls.`,
    ...parts, targets, missed.length ? `MISSED: ${missed.map((c) => c.label).join('; ')}` : 'every target met',
  ].join('\n\n');
}
