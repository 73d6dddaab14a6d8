// The report's figures and pictures: quantiles, worst rows with why, hostile file names in the SVG and the
// Markdown, and `eval` without paths reading the agents' own stores.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { quantile, summarize, whyBad, worstRows } from '../../../src/core/eval/aggregate';
import { scatterSvg } from '../../../src/core/eval/chart';
import { renderEvalMarkdown } from '../../../src/core/eval/render';
import { emptyRow } from '../../../src/core/eval/row';
import type { EvalReport, EvalRow } from '../../../src/core/eval/types';
import { AGENT_IDS } from '../../../src/core/formats/registry';
import { cliInProcess } from '../../support/cliProcess';
import { HAND_MADE_ONLY, realTranscripts } from '../../support/corpus';
import { tmpDir } from '../../support/tmp';

const row = (file: string, history: number, probes: number, extra: Partial<EvalRow> = {}): EvalRow => ({
  ...emptyRow(file, 'claude-code', 'cleanup', 'failed', 'x'), status: 'ok', accepted: true, failure: undefined, durationMs: 10,
  reduction: history / 2, historyReduction: history, identifierRecall: 1, probesKept: probes, probes: { files: { kept: Math.round(probes * 4), total: 4 } },
  lost: probes < 1 ? ['file src/a.ts'] : [], pairsIntact: true, tooSmallToCompact: false, ...extra,
});

test('nearest-rank quantiles; medians and the worst over finished rows only', () => {
  assert.equal(quantile([], 0.5), null);
  assert.equal(quantile([5, 1, 3], 0.5), 3);
  assert.equal(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 0.95), 19);
  const rows = [row('a', 0.8, 1), row('b', 0.5, 0.5), emptyRow('c', 'codex', 'cleanup', 'failed', 'broken'), emptyRow('d', 'codex', 'cleanup', 'skipped', 'no provider')];
  const s = summarize(rows);
  assert.deepEqual([s.files, s.accepted, s.failed, s.skipped], [4, 2, 1, 1]);
  assert.equal(s.medianHistoryReduction, 0.5);
  assert.equal(s.worstReduction, 0.25);
  assert.deepEqual(s.probes.files, { kept: 6, total: 8 });
  assert.deepEqual(worstRows(rows).map((r) => r.file), ['c', 'b', 'a']);
  assert.equal(whyBad(rows[2]!), 'failed: broken');
  assert.equal(whyBad(rows[1]!), 'kept 2/4 probes — lost file src/a.ts · history 50.0 % smaller');
});

test('file names from disk cannot break the SVG or the Markdown table', () => {
  const evil = '/tmp/<img src=x onerror=alert(1)>&"x|y\'.jsonl';
  const rows = [row(evil, 0.7, 0.9)];
  const svg = scatterSvg(rows, ['cleanup']);
  assert.ok(!svg.includes('<img'));
  assert.match(svg, /&#60;img src=x onerror=alert\(1\)&#62;&#38;&#34;x\|y&#39;\.jsonl/);
  assert.equal((svg.match(/<circle [^>]*><title>/g) ?? []).length, 1);
  // x = 70 % of the plot width from its left edge, y = 90 % up.
  assert.match(svg, /<circle cx="394\.8" cy="70\.0"/);
  const report: EvalReport = { strategies: ['cleanup'], threshold: 150_000, files: 1, interrupted: false, durationMs: 5, rows, summary: { cleanup: summarize(rows) }, warnings: [] };
  const md = renderEvalMarkdown(report, 'eval.svg');
  const line = md.split('\n').find((l) => l.includes('alert'))!;
  assert.equal(line.split(/(?<!\\)\|/).length - 2, 5, `five cells: ${line}`);
  assert.doesNotMatch(line, /(?<!\\)<img/, 'an unescaped tag would render');
});

test('eval without paths reads every session in the agents\' stores (CLAUDE_CONFIG_DIR, CODEX_HOME)', async (t) => {
  const home = tmpDir(t);
  const usage = path.join(__dirname, '..', '..', 'fixtures', 'usage');
  fs.cpSync(usage, home, { recursive: true });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: path.join(home, 'claude'), CODEX_HOME: path.join(home, 'codex') };
  const r = await cliInProcess(env, 'eval', '--json', '--jobs', '1', '--strategies', 'cleanup');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as EvalReport;
  const want = fs.readdirSync(home, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).length;
  assert.equal(report.files, want);
  assert.ok(report.rows.some((x) => x.format === 'codex') && report.rows.some((x) => x.format === 'claude-code'));
  const empty = await cliInProcess({ HOME: tmpDir(t) }, 'eval');
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /no agent sessions found on this machine/);
});

test('eval over folders finds every registered agent\'s sessions, JSON, Markdown and database documents among them', async () => {
  const real = realTranscripts();
  // The corpus and test/fixtures/real (<root>/<agent>/<file>); OpenCode's and Goose's stores (the folder of the file);
  // the hand-made fixtures of agents no real file exists for.
  const dirs = [...new Set(real.map((f) => (f.label.startsWith('cli/') ? path.dirname(f.file) : path.dirname(path.dirname(f.file))))), ...HAND_MADE_ONLY.map((h) => h.dir)];
  const r = await cliInProcess({}, 'eval', ...dirs, '--json', '--jobs', '1', '--strategies', 'cleanup');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as EvalReport;
  const found = new Set(report.rows.map((x) => x.file));
  // A database is found as its sessions (`sessions.db#<id>`).
  for (const f of real) assert.ok(found.has(f.file) || [...found].some((x) => x.startsWith(`${f.file}#`)), `${f.label} not found`);
  assert.deepEqual([...new Set(report.rows.map((x) => x.format))].sort(), [...AGENT_IDS].sort());
  for (const row of report.rows) assert.equal(row.accepted, true, `${row.file}: ${row.failure}`);
});
