// A kill or Ctrl-C during the write leaves the old state or the complete new file, and no temp file (SIGKILL: the
// next write to that folder sweeps what the killed process left).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { bigClaudeFixture } from '../../support/bigFixture';
import { cliInProcess, listDir, sha256, spawnCli } from '../../support/cliProcess';
import { tmpDir } from '../../support/tmp';

const OURS = /context-compactor/;
// Everything kept verbatim: the output is as large as the 8 MB input, so the write takes a while.
const KEEP_ALL = ['--keep-recent', '100000'];

/** Starts a compaction into dir/out.jsonl and sends `signal` once its temp file exists; undefined if it finished first. */
async function interrupt(input: string, dir: string, signal: NodeJS.Signals): Promise<{ signal: NodeJS.Signals | null; code: number | null } | undefined> {
  const child = spawnCli(['compact', input, '--out', path.join(dir, 'out.jsonl'), ...KEEP_ALL]);
  const done = new Promise<{ signal: NodeJS.Signals | null; code: number | null }>((resolve) => child.on('exit', (code, sig) => resolve({ code, signal: sig })));
  let sent = false;
  const poll = setInterval(() => {
    if (!sent && fs.readdirSync(dir).some((n) => n.endsWith('.tmp') && OURS.test(n))) {
      sent = true;
      child.kill(signal);
    }
  }, 1);
  const end = await done;
  clearInterval(poll);
  return sent ? end : undefined;
}

async function setup(t: Parameters<typeof tmpDir>[0]) {
  const dir = tmpDir(t);
  const input = path.join(dir, 's.jsonl');
  fs.copyFileSync(bigClaudeFixture(), input);
  const ref = await cliInProcess({}, 'compact', input, '--out', path.join(dir, 'ref.jsonl'), ...KEEP_ALL);
  assert.equal(ref.code, 0, ref.stderr);
  const refSize = fs.statSync(path.join(dir, 'ref.jsonl')).size;
  fs.rmSync(path.join(dir, 'ref.jsonl'));
  return { dir, input, sum: sha256(input), refSize };
}

/** Up to 5 tries: a try where the write finished before the temp was seen proves nothing. */
async function interrupted(input: string, dir: string, signal: NodeJS.Signals) {
  for (let i = 0; i < 5; i++) {
    const r = await interrupt(input, dir, signal);
    if (r) return r;
    fs.rmSync(path.join(dir, 'out.jsonl'), { force: true });
  }
  throw new Error(`never caught the write in progress to send ${signal}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} during a large write: the process ends by the signal, no temp or lock left, no partial output`, async (t) => {
    const s = await setup(t);
    const r = await interrupted(s.input, s.dir, signal);
    assert.equal(r.signal, signal);
    const left = listDir(s.dir);
    assert.deepEqual(left.filter((n) => OURS.test(n)), []);
    // Either the old state (no output) or, had the rename won the race, the complete file.
    if (left.includes('out.jsonl')) assert.equal(fs.statSync(path.join(s.dir, 'out.jsonl')).size, s.refSize);
    assert.deepEqual(left.filter((n) => n !== 'out.jsonl'), ['s.jsonl']);
    assert.equal(sha256(s.input), s.sum);
  });
}

test('SIGKILL during a large write: the next write to that folder sweeps the stale temp and lock', async (t) => {
  const s = await setup(t);
  const r = await interrupted(s.input, s.dir, 'SIGKILL');
  assert.equal(r.signal, 'SIGKILL');
  const stale = listDir(s.dir).filter((n) => OURS.test(n));
  assert.ok(stale.some((n) => n.endsWith('.tmp')) && stale.some((n) => n.endsWith('.lock')), `a kill leaves our files: ${stale}`);
  // A temp of another live process (ours, this test runner) is not stale and stays.
  const foreign = `.other.jsonl.context-compactor-${process.pid}-0123456789ab.tmp`;
  fs.writeFileSync(path.join(s.dir, foreign), 'x');
  const again = await cliInProcess({}, 'compact', s.input, '--out', path.join(s.dir, 'out.jsonl'));
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(listDir(s.dir), [foreign, 'out.jsonl', 's.jsonl']);
  assert.equal(sha256(s.input), s.sum);
});
