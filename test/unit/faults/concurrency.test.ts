// Two compactions of one file at once, a writer holding the output, and a transcript appended while it is compacted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { bigClaudeFixture } from '../../support/bigFixture';
import { assertOneLineFailure, cliInProcess, listDir, sha256, spawnCli } from '../../support/cliProcess';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const exited = (child: ReturnType<typeof spawnCli>): Promise<{ code: number | null; stderr: string }> => new Promise((resolve) => {
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  child.on('close', (code) => resolve({ code, stderr }));
});

/** Every line parses: a complete JSONL file, never an interleaving of two writers. */
function assertWholeJsonl(file: string): number {
  const text = fs.readFileSync(file, 'utf8');
  assert.ok(text.endsWith('\n'));
  const lines = text.slice(0, -1).split('\n');
  for (const l of lines) JSON.parse(l);
  return lines.length;
}

test('two compactions of one file at once: both new sessions complete, the original untouched', async (t) => {
  const dir = tmpDir(t);
  const input = path.join(dir, 's.jsonl');
  fs.copyFileSync(bigClaudeFixture(), input);
  const sum = sha256(input);
  const runs = await Promise.all([0, 1].map(() => exited(spawnCli(['compact', input, '--json']))));
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  const outs = listDir(dir).filter((n) => n !== 's.jsonl');
  assert.equal(outs.length, 2, String(outs));
  assert.equal(assertWholeJsonl(path.join(dir, outs[0]!)), assertWholeJsonl(path.join(dir, outs[1]!)));
  assert.equal(sha256(input), sum);
});

test('two compactions into one --out at once: one complete file; a loser says so in one line; no temp left', async (t) => {
  const dir = tmpDir(t);
  const input = path.join(dir, 's.jsonl');
  fs.copyFileSync(bigClaudeFixture(), input);
  const sum = sha256(input);
  const out = path.join(dir, 'out.jsonl');
  const runs = await Promise.all([0, 1, 2].map(() => exited(spawnCli(['compact', input, '--out', out, '--keep-recent', '100000']))));
  for (const r of runs) {
    if (r.code !== 0) assertOneLineFailure({ ...r, stdout: '' }, /out\.jsonl is being written by another context-compactor process/);
  }
  assert.ok(runs.some((r) => r.code === 0));
  assert.deepEqual(listDir(dir), ['out.jsonl', 's.jsonl']);
  assertWholeJsonl(out);
  assert.equal(sha256(input), sum);
});

test('an output held by a running writer is refused; a lock left by a dead one is taken over', async (t) => {
  const dir = tmpDir(t);
  const out = path.join(dir, 'out.jsonl');
  const lock = path.join(dir, '.out.jsonl.context-compactor.lock');
  const holder = spawn('sleep', ['30']);
  t.after(() => holder.kill());
  fs.writeFileSync(lock, String(holder.pid));
  assertOneLineFailure(await cliInProcess({}, 'compact', CLAUDE_SAMPLE, '--out', out), new RegExp(`being written by another context-compactor process \\(pid ${holder.pid}\\)`));
  assert.deepEqual(listDir(dir), ['.out.jsonl.context-compactor.lock']);
  holder.kill();
  await new Promise((resolve) => holder.on('exit', resolve));
  const r = await cliInProcess({}, 'compact', CLAUDE_SAMPLE, '--out', out);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(listDir(dir), ['out.jsonl']);
});

test('a transcript appended while it is read and compacted: a snapshot of the whole lines present when reading began', async (t) => {
  const dir = tmpDir(t);
  const input = path.join(dir, 's.jsonl');
  const lines = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').split('\n').filter(Boolean);
  fs.writeFileSync(input, `${lines.slice(0, 40).join('\n')}\n`);
  const more = path.join(dir, 'more.txt');
  fs.writeFileSync(more, lines.slice(40).join('\n'));
  // An agent appending records, each in two writes as large lines are: a reader may meet half of one.
  const appender = spawn(process.execPath, ['-e', `
    const fs = require('fs'); const lines = fs.readFileSync(process.argv[1], 'utf8').split('\\n'); let i = 0;
    const fd = fs.openSync(process.argv[2], 'a');
    const step = () => { const l = lines[i++ % lines.length] + '\\n'; const h = l.length >> 1;
      fs.writeSync(fd, l.slice(0, h)); setTimeout(() => { fs.writeSync(fd, l.slice(h)); setTimeout(step, 1); }, 1); };
    step();`, more, input]);
  t.after(() => appender.kill());
  // The appender is a process of its own: on a busy machine it may start writing only after many reads. Wait for its
  // first record (generous bound), then read until at least one read met the file growing (each read is short).
  const initial = fs.statSync(input).size;
  for (const until = Date.now() + 60_000; fs.statSync(input).size === initial;) {
    assert.ok(Date.now() < until, 'the appender wrote nothing in 60 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  let grew = 0;
  for (let i = 0; i < 10 || (grew === 0 && i < 200); i++) {
    const { session, bytes } = await readTranscriptFile(input, { keepRaw: true });
    assert.ok(!session.warnings.some((w) => /not valid JSON/.test(w)), session.warnings.join('; '));
    // The snapshot holds exactly the lines within the size the file had when reading began (the last one maybe
    // half written: then it is the reader's ignored incomplete last line).
    const prefix = fs.readFileSync(input).subarray(0, bytes).toString('utf8');
    assert.equal(session.records.length, prefix.endsWith('\n') ? prefix.split('\n').length - 1 : prefix.split('\n').length);
    if (!prefix.endsWith('\n')) assert.ok(session.warnings.some((w) => /last line .* is incomplete/.test(w)), session.warnings.join('; '));
    if (fs.statSync(input).size > bytes) grew++;
    const out = path.join(dir, `out-${i}.jsonl`);
    const r = await cliInProcess({}, 'compact', input, '--out', out, '--json');
    assert.equal(r.code, 0, r.stderr);
    assertWholeJsonl(out);
  }
  appender.kill();
  assert.ok(grew > 0, 'the transcript grew while it was read');
  assert.equal(fs.readFileSync(input, 'utf8').split('\n').slice(0, 40).join('\n'), lines.slice(0, 40).join('\n'));
});
