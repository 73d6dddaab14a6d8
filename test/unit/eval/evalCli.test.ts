// `context-compactor eval` over the real corpus: the JSON rows and per-strategy figures, summary strategies against a
// loopback provider, a failing provider, a corrupt file among good ones, worker threads, Markdown with its chart.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { EvalReport, EvalRow } from '../../../src/core/eval/types';
import { cliInProcess, type CliRun } from '../../support/cliProcess';
import { realTranscripts } from '../../support/corpus';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { fakeTokenCount } from '../../support/fakeHttp';
import { tmpDir } from '../../support/tmp';

const REAL = realTranscripts().map((f) => f.file);
const SMALL = ['pai-2.0.71-small', 'cival-1.0.17', 'specify-poker-0.77.0', 'ocodex-0.2x'].map((k) => REAL.find((f) => f.includes(k))!);
const KEY = 'sk-ant-eval-test';

const json = (r: CliRun): EvalReport => {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as EvalReport;
};
/** Whole-file rows (vendor adds rows on the segments before the agents' own compactions: vendor.test.ts). */
const rowsOf = (r: EvalReport, strategy: string): EvalRow[] => r.rows.filter((x) => x.strategy === strategy && !x.segment);
/** Rows without their timings: what must repeat run after run. */
const stable = (rows: readonly EvalRow[]): unknown[] => rows.map(({ durationMs: _d, ...rest }) => rest);

test('every real transcript, cleanup and rolling, no provider: the seed table with what was lost, model strategies skipped', async () => {
  const r = json(await cliInProcess({}, 'eval', ...REAL, '--json', '--jobs', '1', '--threshold', '40000'));
  assert.equal(r.files, REAL.length);
  assert.equal(r.interrupted, false);
  assert.equal(r.rows.filter((x) => !x.segment).length, REAL.length * 6 - r.segments!.sessions);
  // vendor: every compaction the agents made in these sessions, ours and theirs on the segment before it.
  assert.ok(r.segments!.compactions >= 19, `${r.segments!.compactions} agent compactions`);
  assert.equal(rowsOf(r, 'vendor').length, REAL.length - r.segments!.sessions);
  assert.ok(rowsOf(r, 'vendor').every((x) => x.status === 'skipped'));
  for (const row of rowsOf(r, 'cleanup')) {
    assert.equal(row.status, 'ok', `${row.file}: ${row.failure}`);
    assert.equal(row.accepted, true, row.file);
    assert.equal(row.pairsIntact, true, row.file);
    // A history below the size worth compacting (a real aider file of slash commands) may stay as it is.
    if (row.tooSmallToCompact) assert.ok(row.historyReduction! >= 0 && row.historyReduction! < 1, `${row.file}: ${row.historyReduction}`);
    else assert.ok(row.historyReduction! > 0 && row.historyReduction! < 1, `${row.file}: ${row.historyReduction}`);
    // null: the original states no fact to look for (probes.test.ts: only where the model never answered).
    if (row.probesKept === null) assert.deepEqual(row.probes, {}, row.file);
    else assert.ok(row.probesKept > 0 && row.probesKept <= 1, row.file);
    assert.ok(row.identifierRecall! >= 0.9, `${row.file}: recall ${row.identifierRecall}`);
    assert.equal(row.modelCalls, 0);
  }
  for (const s of ['summary', 'cleanup+summary', 'server']) {
    assert.deepEqual(rowsOf(r, s).map((x) => x.status), REAL.map(() => 'skipped'));
    assert.equal(r.summary[s as 'summary']!.skipped, REAL.length);
    assert.equal(r.summary[s as 'summary']!.failed, 0);
  }
  const c = r.summary.cleanup!;
  assert.equal(c.accepted, REAL.length);
  assert.ok(c.medianHistoryReduction! >= 0.6, `median history cut ${c.medianHistoryReduction}`);
  assert.ok(c.worstReduction! <= c.medianReduction!);
  assert.ok(c.p95DurationMs! >= c.medianDurationMs!);
  const rolling = rowsOf(r, 'rolling');
  assert.ok(rolling.filter((x) => x.compactions! > 0).length >= 10);
  assert.ok(rolling.every((x) => (x.compactions === 0) === (x.historyReduction === 0)), 'a replay that never compacted changed nothing');
  // The same input gives the same figures, in process or in two worker threads.
  const again = json(await cliInProcess({}, 'eval', ...REAL, '--json', '--jobs', '2', '--threshold', '40000'));
  assert.deepEqual(stable(again.rows), stable(r.rows));
});

test('summary strategies against a loopback provider: one call each, its input tokens, the server compaction beside ours', async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  const r = json(await cliInProcess({ ANTHROPIC_API_KEY: KEY }, 'eval', ...SMALL, '--json', '--jobs', '1', '--provider', 'anthropic', '--base-url', fake.url));
  for (const s of ['summary', 'cleanup+summary', 'server'] as const) {
    for (const row of rowsOf(r, s)) assert.equal(row.status, 'ok', `${s} ${row.file}: ${row.failure}`);
  }
  const summaries = fake.requests.filter((q) => !(q.body as { compaction?: unknown }).compaction);
  const compactions = fake.requests.filter((q) => (q.body as { compaction?: unknown }).compaction);
  assert.equal(summaries.length, r.summary.summary!.modelCalls + r.summary['cleanup+summary']!.modelCalls);
  assert.equal(compactions.length, SMALL.length);
  for (const q of compactions) {
    assert.match(String(q.headers['anthropic-beta']), /compact-2026-09-04/);
    assert.deepEqual((q.body as { compaction: unknown }).compaction, { type: 'summarize' });
  }
  // The uncleaned history costs the summary call more input than the cleaned one.
  const big = SMALL[2]!;
  const input = (s: string): number => rowsOf(r, s as 'summary').find((x) => x.file === big)!.modelInputTokens;
  assert.ok(input('summary') > input('cleanup+summary'), `${input('summary')} vs ${input('cleanup+summary')}`);
  const server = rowsOf(r, 'server').find((x) => x.file === big)!;
  const sent = compactions.map((q) => fakeTokenCount(JSON.stringify(q.body))).sort((a, b) => b - a)[0]!;
  assert.ok(server.modelInputTokens > 0 && server.modelInputTokens <= sent);
  assert.equal(server.modelCalls, 1);
  assert.ok(server.probesKept! < rowsOf(r, 'cleanup').find((x) => x.file === big)!.probesKept!, 'a fixed one-line summary keeps fewer probes than cleanup');
  assert.ok(r.summary.summary!.costUsd! > 0);
});

test('a failing provider: its rows say failure, cleanup rows still finish, the run goes on', async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  fake.fallback = { kind: 'status', status: 503 };
  const r = json(await cliInProcess({ ANTHROPIC_API_KEY: KEY }, 'eval', ...SMALL, '--json', '--jobs', '1', '--provider', 'anthropic', '--base-url', fake.url, '--timeout', '20', '--strategies', 'cleanup,cleanup+summary,server'));
  for (const row of rowsOf(r, 'cleanup')) assert.equal(row.status, 'ok');
  const failed = [...rowsOf(r, 'cleanup+summary'), ...rowsOf(r, 'server')].filter((x) => x.status === 'failed');
  assert.ok(failed.length >= SMALL.length, `${failed.length} failed rows`);
  for (const row of failed) {
    assert.match(row.failure!, /(summary|server compaction) failed.*503/);
    assert.equal(row.accepted, false);
    assert.ok(row.modelCalls >= 1);
  }
  assert.equal(r.summary['cleanup+summary']!.failed + r.summary.server!.failed, failed.length);
});

test('a corrupt file among good ones fails its own rows in one line; the others complete', async (t) => {
  const dir = tmpDir(t);
  const bad = path.join(dir, 'corrupt.jsonl');
  fs.writeFileSync(bad, '{"type":"user","message":\n\u0000\u0001garbage\n');
  const r = json(await cliInProcess({}, 'eval', SMALL[0]!, bad, SMALL[1]!, '--json', '--jobs', '2', '--strategies', 'cleanup,rolling'));
  assert.equal(r.files, 3);
  for (const row of r.rows.filter((x) => x.file === bad)) {
    assert.equal(row.status, 'failed');
    assert.doesNotMatch(row.failure!, /\n|\s+at /);
  }
  assert.ok(r.rows.filter((x) => x.file !== bad).every((x) => x.status === 'ok'));
});

test('--markdown writes the narrow table, each strategy\'s sessions by title with why, and an SVG chart with one dot per drawn row', async (t) => {
  const dir = tmpDir(t);
  const md = path.join(dir, 'eval.md');
  const r = await cliInProcess({}, 'eval', ...SMALL, '--markdown', md, '--jobs', '1', '--strategies', 'cleanup,rolling,summary');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^strategy\s+accepted\s+failed\s+skipped/m);
  const text = fs.readFileSync(md, 'utf8');
  assert.match(text, /^\| strategy \| accepted \| history cut \| probes kept \| model calls · cost \|$/m);
  assert.match(text, /^\| cleanup \| 4\/4 \| [\d.]+\s% \| [\d.]+\s% \| 0 \|$/m);
  assert.match(text, /!\[History cut against probes kept[^\]]*\]\(eval\.svg\)/);
  assert.match(text, /## Sessions\n\n<details open>\n<summary><b>cleanup<\/b> — 4 sessions, worst first<\/summary>\n\n\| session \| history cut \| probes kept \| pairs ok \| why \|/);
  assert.match(text, /<summary><b>summary<\/b> — 0 sessions, worst first \(4 skipped\)<\/summary>\n\nNo session ran: no provider configured/);
  // Sessions by title, linked to their files relative to the report (the files are in the shared corpus).
  for (const f of SMALL) assert.ok(text.includes(`](<${path.relative(dir, f).split(path.sep).map(encodeURIComponent).join('/')}>)`), `a link to ${f}`);
  const svg = fs.readFileSync(path.join(dir, 'eval.svg'), 'utf8');
  assert.equal((svg.match(/<circle [^>]*><title>/g) ?? []).length, 8, 'cleanup and rolling rows of 4 files');
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /4 not drawn/);
});

test('bad options and a provider that cannot work stop before any file is read, in one line plus usage', async () => {
  const bad = await cliInProcess({}, 'eval', SMALL[0]!, '--strategies', 'cleanup,magic');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^context-compactor eval: unknown strategy 'magic'/);
  const nokey = await cliInProcess({}, 'eval', SMALL[0]!, '--provider', 'anthropic');
  assert.equal(nokey.code, 2);
  assert.match(nokey.stderr, /^context-compactor eval: anthropic: no API key \(set ANTHROPIC_API_KEY\)/);
  const none = await cliInProcess({}, 'eval', path.join(REAL[0]!, '..', 'does-not-exist'));
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no transcripts found/);
});
