// Ctrl-C during `eval`: the run stops, what finished is written (JSON and Markdown), the exit code says interrupted.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { EvalReport } from '../../../src/core/eval/types';
import { spawnCli } from '../../support/cliProcess';
import { realTranscripts } from '../../support/corpus';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { tmpDir } from '../../support/tmp';
import { waitUntil } from '../../support/waits';

const KEY = 'sk-ant-interrupt';
// Each needs one summary call; eval reads them in sorted order.
const FILES = ['golfiq-0.40.0', 'specify-poker-0.77.0', 'cival-1.0.17', 'ocodex-0.2x'].map((k) => realTranscripts().find((f) => f.file.includes(k))!.file).sort();

test('SIGINT while the third file waits on the provider: two files reported, interrupted, exit 130', async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  fake.script({ kind: 'ok' }, { kind: 'ok' });
  fake.fallback = { kind: 'hang' };
  const md = path.join(tmpDir(t), 'eval.md');
  const child = spawnCli(['eval', ...FILES, '--json', '--jobs', '1', '--strategies', 'cleanup,summary', '--provider', 'anthropic', '--base-url', fake.url, '--markdown', md], { env: { ...process.env, ANTHROPIC_API_KEY: KEY } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = once(child, 'exit');
  await waitUntil(() => fake.requests.length >= 3 || child.exitCode !== null, 'the third summary call');
  assert.equal(fake.requests.length, 3, `the third summary call never came: ${stderr}`);
  child.kill('SIGINT');
  const [code] = (await exited) as [number | null];
  assert.equal(code, 130, stderr);
  assert.match(stderr, /eval: stopping — writing what finished/);
  const report = JSON.parse(stdout) as EvalReport;
  assert.equal(report.interrupted, true);
  assert.equal(report.files, 2);
  assert.deepEqual([...new Set(report.rows.map((r) => r.file))], FILES.slice(0, 2));
  assert.ok(report.rows.every((r) => r.status === 'ok'));
  assert.match(fs.readFileSync(md, 'utf8'), /INTERRUPTED\\: rows hold what finished/);
});

test('Ctrl-C twice during --resume-check --jobs 2: exit 130 and no throwaway agent home left in the temp folder', async (t) => {
  const tmp = tmpDir(t);
  // An agent CLI that never answers: both workers are inside a resume check when the run is stopped.
  const claude = path.join(tmp, 'claude');
  fs.writeFileSync(claude, '#!/bin/sh\nexec sleep 20\n', { mode: 0o755 });
  const temp = path.join(tmp, 'temp');
  fs.mkdirSync(temp);
  const files = realTranscripts().filter((f) => f.agent === 'claude-code').map((f) => f.file).sort().slice(0, 2);
  const child = spawnCli(['eval', ...files, '--json', '--jobs', '2', '--strategies', 'cleanup', '--resume-check'], { env: { PATH: process.env.PATH, HOME: tmp, TMPDIR: temp, CLAUDE_BIN: claude } });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = once(child, 'exit');
  // The agent homes, wherever the run puts them in the temp folder (its own folder, or the temp folder itself).
  const homes = (): string[] => fs.readdirSync(temp).flatMap((d) => (d.startsWith('cc-eval-') ? fs.readdirSync(path.join(temp, d)) : [d])).filter((d) => d.startsWith('cc-resume-check-'));
  await waitUntil(() => homes().length >= 2 || child.exitCode !== null, 'both workers in a resume check');
  assert.equal(homes().length, 2, `both workers were to be in a resume check: ${stderr}`);
  child.kill('SIGINT');
  child.kill('SIGINT');
  const [code] = (await exited) as [number | null];
  assert.equal(code, 130, stderr);
  assert.deepEqual(fs.readdirSync(temp).filter((d) => d.startsWith('cc-')), []);
});
