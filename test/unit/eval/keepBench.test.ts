// `npm run bench -- keep`'s figures on real compacted sessions: they agree with eval's own aggregation, keep segments
// and whole files apart, judge each target against the right figure, and the hook's figures are one per compaction.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { hookFigures, type HookFigures } from '../../../bench/lib/hookFigures';
import { check, pooled, roundCells, segmentRow, segmentsAtLeastVendor, verdict, wholeRow } from '../../../bench/lib/keepFigures';
import { keepText } from '../../../bench/lib/keepText';
import type { EvalReport } from '../../../src/core/eval/types';
import { runEval } from '../../../src/node/eval/runEval';
import { agentCompactions } from '../../../src/node/eval/segments';
import { FIXTURES } from '../../support/fixtures';

const CLAUDE = path.join(FIXTURES, 'real', 'claude-code', 'tpos-2.0.57-4compactions.jsonl');
const CODEX = path.join(FIXTURES, 'real', 'codex', 'brainbuddy-0.64.0-4compactions-apply-patch.jsonl');
const SMALL = path.join(FIXTURES, 'real', 'copilot-chat', 'gitai-0.31.5-claude-sonnet-4-agent.json');

let report: EvalReport;
let hook: HookFigures;
before(async () => {
  report = await runEval({ files: [CLAUDE, CODEX, SMALL], config: { strategies: ['cleanup', 'vendor'], cleanup: { keepRecentTurns: 6 }, threshold: 150_000, rounds: 3 }, jobs: 1, signal: new AbortController().signal });
  hook = await hookFigures([{ file: CLAUDE, agent: 'claude-code' }, { file: CODEX, agent: 'codex' }]);
});

test("the table's rows are eval's own figures over the segments only", () => {
  const s = report.segments!;
  assert.equal(s.compactions, 8);
  for (const strategy of ['vendor', 'cleanup'] as const) {
    const row = segmentRow(strategy, report, strategy);
    const f = s.byStrategy[strategy]!;
    assert.equal(row.ran, 8, strategy);
    assert.ok(Math.abs(row.cut! - f.medianHistoryReduction!) < 1e-4, `${strategy} cut ${row.cut} vs ${f.medianHistoryReduction}`);
    assert.ok(Math.abs(row.probesMedian! - f.medianProbesKept!) < 1e-4, `${strategy} probes ${row.probesMedian} vs ${f.medianProbesKept}`);
    assert.deepEqual(row.probesAll, pooled(f.probes));
    assert.equal(row.outputTokens, f.medianOutputTokens);
  }
  // Whole-file rows are not in it: their probes are the whole session's, more than any one segment's.
  const whole = wholeRow('cleanup', report, 'cleanup', path.basename);
  assert.equal(whole.files, 3);
  assert.notDeepEqual(whole.probesAll, segmentRow('cleanup', report, 'cleanup').probesAll);
});

test('ours against the agent segment by segment: only segments both ran, compared on the same segment', () => {
  const vendorCut = new Map(report.rows.filter((r) => r.segment && r.strategy === 'vendor').map((r) => [`${r.file}#${r.segment!.index}`, r.historyReduction!]));
  const ours = report.rows.filter((r) => r.segment && r.strategy === 'cleanup');
  const expected = ours.filter((r) => r.historyReduction! >= vendorCut.get(`${r.file}#${r.segment!.index}`)!).length;
  assert.deepEqual(segmentsAtLeastVendor(report, 'cleanup'), { atLeast: expected, of: 8 });
  assert.ok(expected < 8, 'cleanup alone cuts less than the agent on some segment of these sessions');
  assert.deepEqual(segmentsAtLeastVendor(report, 'vendor'), { atLeast: 8, of: 8 });
});

test('whole files: the cut leaves out a file too small to compact, recall and pairs count every file', () => {
  const w = wholeRow('cleanup', report, 'cleanup', path.basename);
  const small = report.rows.find((r) => r.file === SMALL && r.strategy === 'cleanup' && !r.segment)!;
  assert.equal(small.tooSmallToCompact, true);
  assert.equal(w.tooSmall, 1);
  const sized = report.rows.filter((r) => !r.segment && r.strategy === 'cleanup' && !r.tooSmallToCompact).map((r) => r.historyReduction!);
  assert.equal(w.cutWorst, Math.min(...sized));
  assert.equal(w.pairsJudged, 3);
  assert.equal(w.recallBelow.length, report.rows.filter((r) => !r.segment && r.strategy === 'cleanup' && r.identifierRecall! < 0.9).length);
});

test('rounds: one line per round, constraints and files pooled over the files of that round', () => {
  const cells = roundCells(wholeRow('cleanup', report, 'cleanup', path.basename).rounds!);
  assert.deepEqual(cells.map((c) => c.round), [1, 2, 3]);
  const files = report.rows.filter((r) => !r.segment && r.strategy === 'cleanup' && r.rounds);
  const total = files.reduce((a, r) => a + (r.rounds![2]!.byKind.files?.total ?? 0), 0);
  assert.ok(total > 0);
  assert.equal(cells[2]!.files.total, total);
});

test('targets: met, MISSED or n/a by the figure, and the text lists every missed one', () => {
  assert.equal(verdict(check('x', 0.8999, '≥ 90 %', (v) => v >= 0.9)), 'MISSED');
  assert.equal(verdict(check('x', 0.9, '≥ 90 %', (v) => v >= 0.9)), 'met');
  assert.equal(verdict(check('x', null, '≥ 90 %', (v) => v >= 0.9)), 'n/a');
  const clean = segmentRow('ours, cleanup only', report, 'cleanup');
  const textWith = (probesMedian: number): string => keepText({
    files: 3, evalMs: 1, modelCalls: 0, segments: report.segments!, hook, resume: {},
    table: [segmentRow('vendor', report, 'vendor'), { ...clean, probesMedian }, clean, clean], atLeastVendor: { snapshot: { atLeast: 0, of: 0 }, junk: { atLeast: 0, of: 0 } },
    whole: [wholeRow('cleanup only', report, 'cleanup', path.basename), wholeRow('b', report, 'cleanup', path.basename), wholeRow('c', report, 'cleanup', path.basename)],
  });
  for (const [value, expected] of [[0.85, 'met'], [0.8499, 'MISSED']] as const) {
    const text = textWith(value);
    const targets = text.slice(text.indexOf('6. The issue'));
    const line = targets.split('\n').find((l) => l.startsWith('segments, cleanup: probes kept (median)'))!;
    assert.ok(line.trim().endsWith(expected), `${value}: ${line}`);
    const missed = targets.split('\n').filter((l) => l.trim().endsWith('MISSED')).map((l) => l.split(/\s{2,}/)[0]!);
    assert.deepEqual(text.split('\n').at(-1)!.replace(/^MISSED: /, '').split('; '), missed, 'the last line names every missed target');
  }
});

test('the hook: one figure per compaction found, the pair never below the summary alone, encrypted ones flagged', async () => {
  const found = (await agentCompactions(CLAUDE)).compactions.length + (await agentCompactions(CODEX)).compactions.length;
  assert.equal(hook.compactions.length + hook.notMeasured.length, found);
  assert.ok(hook.compactions.every((c) => c.pair >= c.alone), 'our context only adds');
  assert.deepEqual(hook.compactions.filter((c) => c.encrypted).map((c) => c.file), Array(4).fill(path.basename(CODEX)));
  const kinds = pooled(hook.byKindPair);
  assert.equal(kinds.total, hook.compactions.reduce((a, c) => a + c.probes, 0));
});
