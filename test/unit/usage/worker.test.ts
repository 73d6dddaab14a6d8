// The usage scan's worker thread (the bundled dist/usageWorker.js) gives the same report as one thread, and a worker
// that dies with a job claimed costs nothing but time.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { buildSync } from 'esbuild';
import { wantWorker } from '../../../src/node/usage/parseJobs';
import type { ScanResult } from '../../../src/node/usage/scanner';
import { CLAUDE_FILE, FIXTURES, scanDirs, tempDir } from './helpers';

const REPO = resolve(__dirname, '../../..');

function corpus(t: Parameters<typeof tempDir>[0], copies: number): string {
  const root = tempDir(t);
  const sources = [CLAUDE_FILE, join(FIXTURES, 'claude/projects/-tmp-repo2/e13614ae-7225-4a79-b7ff-2ba285ec7aff.jsonl')];
  execFileSync(process.execPath, [join(REPO, 'test/support/multiply.mjs'), join(root, 'projects'), String(copies), ...sources]);
  return root;
}

const summary = (r: ScanResult): unknown => JSON.parse(JSON.stringify({ sessions: r.report.sessions, totals: r.report.totals, warnings: r.report.warnings }));

function buildWorker(t: Parameters<typeof tempDir>[0]): string {
  const workerScript = join(tempDir(t), 'usageWorker.js');
  buildSync({ entryPoints: [join(REPO, 'src/node/usage/parseWorker.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: workerScript, logLevel: 'error' });
  return workerScript;
}

test('the worker alone gives the report this thread gives', async (t) => {
  const root = corpus(t, 8);
  const workerScript = buildWorker(t);
  const one = await scanDirs([root]);
  const worker = await scanDirs([root], { workerScript, worker: 'only' });
  assert.equal(one.stats.workerFiles, 0);
  assert.equal(worker.stats.workerFiles, 8, 'the worker parsed every file');
  assert.deepEqual(summary(worker), summary(one));
  assert.equal(worker.stats.linesParsed, one.stats.linesParsed);
});

test('both threads claiming from one counter: every file once, the same report', async (t) => {
  const root = corpus(t, 100); // ~27 MB: the worker starts while this thread is still busy
  const one = await scanDirs([root]);
  const two = await scanDirs([root], { workerScript: buildWorker(t), worker: 'always' });
  assert.equal(two.report.sessions.length, 100);
  assert.deepEqual(summary(two), summary(one));
  assert.equal(two.stats.linesParsed, one.stats.linesParsed);
  assert.equal(two.stats.parsedFully, 100);
});

test('a worker that dies holding a job: that file is parsed here, the report is whole', async (t) => {
  const root = corpus(t, 6);
  const workerScript = join(tempDir(t), 'dies.js');
  // Claims the next job the way parseWorker does, then exits without answering.
  writeFileSync(workerScript, "const { workerData } = require('node:worker_threads'); Atomics.add(new Int32Array(workerData.next), 0, 1); process.exit(3);\n");
  const one = await scanDirs([root]);
  const crashed = await scanDirs([root], { workerScript, worker: 'always' });
  assert.equal(crashed.stats.workerFiles, 0);
  assert.deepEqual(summary(crashed), summary(one));
});

test("'auto' starts a worker only with 16 MB to parse, more than two cores and one of them idle", () => {
  const mb = 1 << 20;
  assert.equal(wantWorker('auto', 244 * mb, 4, 0.6), true);
  assert.equal(wantWorker('auto', 244 * mb, 2, 0), false, 'two cores: measured slower with a second thread');
  assert.equal(wantWorker('auto', 244 * mb, 4, 3.5), false, 'another process keeps the cores busy');
  assert.equal(wantWorker('auto', 8 * mb, 2, 0), false, 'too little to read');
  assert.equal(wantWorker('auto', 244 * mb, 1, 0), false, 'one core');
  assert.equal(wantWorker('always', 0, 1, 9), true);
  assert.equal(wantWorker('never', 244 * mb, 8, 0), false);
});
