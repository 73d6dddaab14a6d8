// The search box's search on a worker thread (the bundled dist/searchWorker.js): the same result as this thread, a
// cold index reporting how far it is, a cancel that stops it, and the rows the quick pick shows.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { buildSync } from 'esbuild';
import { runSearchJob, startSearch, type SearchJobInput } from '../../../src/node/search/searchJob';
import { resultLine, searchPicks } from '../../../src/node/search/searchPicks';

const REPO = resolve(__dirname, '../../..');
const REAL = join(REPO, 'test/fixtures/real');

function setup(t: { after: (fn: () => void) => void }): { input: (text: string, more?: Partial<SearchJobInput>) => SearchJobInput; script: string; sessions: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cc-search-job-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions);
  copyFileSync(join(REAL, 'claude-code/volcano-2.1.92-subagent-aside-question.jsonl'), join(sessions, 'volcano.jsonl'));
  copyFileSync(join(REAL, 'codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl'), join(sessions, 'brainbuddy.jsonl'));
  const script = join(dir, 'searchWorker.js');
  buildSync({ entryPoints: [join(REPO, 'src/node/search/searchWorker.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: script, logLevel: 'error' });
  const env = { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') };
  return { script, sessions, input: (text, more = {}) => ({ env, text, regex: false, extraDirs: [sessions], useCache: true, limit: 5, ...more }) };
}

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

test('on the worker: the result this thread gives; a cold index reports progress up to every session, a warm one none', async (t) => {
  const s = setup(t);
  const progress: [number, number, number][] = [];
  const cold = startSearch(s.input('the'), (...p) => progress.push(p), s.script);
  const threaded = await cold.result;
  assert.equal(cold.threaded(), true);
  assert.equal(threaded.stats.indexed, 2);
  assert.deepEqual(progress.at(-1), [2, 2, 2], 'the last report: every session checked, both read');
  const warmProgress: unknown[] = [];
  const warm = await startSearch(s.input('the'), (...p) => warmProgress.push(p), s.script).result;
  assert.deepEqual({ indexed: warm.stats.indexed, reused: warm.stats.reused }, { indexed: 0, reused: 2 });
  assert.deepEqual(warmProgress, [], 'nothing to read: nothing to report');
  const here = await runSearchJob(s.input('the'), () => false, () => undefined);
  assert.deepEqual(plain(threaded.sessions), plain(here.sessions));
  assert.equal(threaded.sessions.length, 2);
});

test('a cancel before the first session: nothing searched, nothing indexed; a refused regex is a one-line error', async (t) => {
  const s = setup(t);
  const job = startSearch(s.input('the'), () => undefined, s.script);
  job.cancel();
  const r = await job.result;
  assert.deepEqual({ sessions: r.sessions.length, indexed: r.stats.indexed }, { sessions: 0, indexed: 0 });
  await assert.rejects(startSearch(s.input('(a+)+$', { regex: true }), () => undefined, s.script).result, /^Error: refused regex: nested quantifier/);
});

test('the quick pick rows: kind and message on top, the session below, the snippet as detail; filters reach the worker', async (t) => {
  const s = setup(t);
  const r = await startSearch(s.input('provisioning', { agent: 'claude-code' }), () => undefined, s.script).result;
  const picks = searchPicks(r, Date.parse('2026-12-06T00:00:00Z'));
  assert.ok(picks.length > 0 && picks.every((p) => p.file.endsWith('volcano.jsonl')));
  const p = picks[0]!;
  assert.match(p.label, /^\$\(output\) tool result · message \d+( · \d+ matches)?$/);
  assert.ok(p.label.startsWith(`$(output) tool result · message ${p.target.message + 1}`));
  assert.match(p.description, /^Claude Code · .*Apr 8 · ./, 'agent first, title last');
  assert.match(p.detail.slice(p.target.snippet.start, p.target.snippet.end), /^provisioning$/i);
  assert.match(resultLine(r), /^\d+ match(es)? in 1 of 1 sessions/);
  // Several matches in one block are one row, saying how many.
  const many = await startSearch(s.input('the', { limit: 50 }), () => undefined, s.script).result;
  const rows = searchPicks(many, Date.now());
  const keys = rows.map((r) => `${r.file}:${r.target.message}:${r.target.record}:${r.target.kind}`);
  assert.equal(new Set(keys).size, keys.length, 'one row per block');
  assert.ok(rows.some((r) => / · \d+ matches$/.test(r.label)), 'a block with several matches says so');
  for (const f of new Set(rows.map((r) => r.file))) assert.ok(rows.filter((r) => r.file === f).length <= 5, 'five blocks a session at most');
  const codexOnly = await startSearch(s.input('provisioning', { agent: 'codex' }), () => undefined, s.script).result;
  assert.deepEqual(codexOnly.sessions, []);
});
