// `eval --jobs N` never starts more workers than the machine has cores: a higher N is lowered, with a one-line note.
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { cappedJobs } from '../../../src/node/eval/runEval';
import { cliInProcess } from '../../support/cliProcess';
import { realTranscripts } from '../../support/corpus';

test('cappedJobs: at most the core count, a note only when lowered', () => {
  assert.deepEqual(cappedJobs(300, 2), { jobs: 2, note: "eval: --jobs 300 is more than this machine's 2 cores; running 2" });
  assert.deepEqual(cappedJobs(2, 2), { jobs: 2 });
  assert.deepEqual(cappedJobs(1, 8), { jobs: 1 });
  assert.deepEqual(cappedJobs(0, 8), { jobs: 1 });
});

test('eval --jobs 300: the note on stderr, capped at the core count, the rows as with fewer jobs', async () => {
  const cores = availableParallelism();
  const file = realTranscripts().map((f) => f.file).find((f) => f.includes('pai-2.0.71-small'))!;
  const r = await cliInProcess({}, 'eval', file, '--json', '--jobs', '300', '--strategies', 'cleanup');
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stderr.includes(`eval: --jobs 300 is more than this machine's ${cores} cores; running ${cores}\n`), r.stderr);
  assert.equal(r.stderr.split('\n').filter((l) => l.includes('--jobs')).length, 1, 'one line');
  assert.equal((JSON.parse(r.stdout) as { rows: unknown[] }).rows.length, 1);
});
