// The hook against hostile input: an open or huge stdin, a transcript_path that is a FIFO or a device, escapes in tool output.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { guardContext } from '../../../src/node/hooks/compactedStretch';
import { readHookStdin } from '../../../src/node/hooks/hookStdin';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

async function hook(stdin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const code = await main(['hook', 'claude-code'], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {}, readStdin: async () => stdin });
  return { code, stdout, stderr };
}
const input = (transcript: string): string => JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: '/tmp', hook_event_name: 'SessionStart', source: 'compact' });

test('stdin the agent keeps open: the JSON object is taken as soon as it is whole, and the stream is let go', async () => {
  const s = new PassThrough();
  const text = input('/x.jsonl');
  s.write(text.slice(0, 10));
  setImmediate(() => s.write(text.slice(10)));
  assert.equal(await readHookStdin(s, { waitMs: 60_000 }), text);
  assert.ok(s.destroyed, 'an open pipe must not keep the hook process alive');
});

test('stdin that never sends anything: a one-line error, not a hang', async () => {
  const s = new PassThrough();
  await assert.rejects(readHookStdin(s, { waitMs: 20 }), /^Error: no input on stdin within/);
  assert.ok(s.destroyed);
});

test('stdin past the cap: stops reading at the cap with a one-line error, never buffers it all', async () => {
  const s = new PassThrough();
  const pending = readHookStdin(s, { maxBytes: 1000, waitMs: 60_000 });
  for (let k = 0; k < 5; k++) s.write(Buffer.alloc(400, 0x20));
  await assert.rejects(pending, /stdin is over 1000 bytes/);
  assert.ok(s.destroyed);
});

test('stdin that ends: the whole text, even when it is not JSON (the caller reports that)', async () => {
  const s = new PassThrough();
  s.end('{not json');
  assert.equal(await readHookStdin(s, { waitMs: 60_000 }), '{not json');
});

test('transcript_path a FIFO or a character device: one stderr line, no read that never ends', { timeout: 60_000 }, async (t) => {
  const fifo = path.join(tmpDir(t), 'pipe.jsonl');
  execFileSync('mkfifo', [fifo]);
  const paths = [fifo, ...(fs.existsSync('/dev/zero') ? ['/dev/zero'] : [])];
  for (const p of paths) {
    const r = await hook(input(p));
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `context-compactor hook: ${JSON.stringify(p)} is not a regular file; nothing added\n`);
  }
});

test('transcript_path an empty file, or a symlink to a real transcript (followed)', async (t) => {
  const dir = tmpDir(t);
  const empty = path.join(dir, 'empty.jsonl');
  fs.writeFileSync(empty, '');
  assert.match((await hook(input(empty))).stderr, /is empty; nothing added\n$/);
  const link = path.join(dir, 'link.jsonl');
  fs.symlinkSync(path.join(FIXTURES, 'real', 'claude-code', 'tpos-2.0.57-4compactions.jsonl'), link);
  const r = await hook(input(link));
  assert.equal(r.code, 0, r.stderr);
  assert.ok(JSON.parse(r.stdout).hookSpecificOutput.additionalContext.length > 0);
});

test('colored tool output (ANSI escapes) reaches the model as its words, without escapes or control characters', async () => {
  // A real Codex rollout whose build logs are colored: its later compactions' facts quote them.
  const file = path.join(FIXTURES, 'real', 'codex', 'brainbuddy-0.64.0-4compactions-apply-patch.jsonl');
  assert.ok(fs.readFileSync(file, 'utf8').includes('\\u001b['), 'the fixture holds escapes');
  for (const k of [1, 2, 3]) {
    const { context } = await guardContext(file, undefined, k);
    assert.ok(context.length > 0);
    const bad = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.exec(context);
    assert.equal(bad, null, `compaction ${k + 1}: ${JSON.stringify(context.slice(Math.max(0, (bad?.index ?? 0) - 40), (bad?.index ?? 0) + 40))}`);
  }
});

test('an odd hook_event_name is named on one line (quoted as JSON), whatever it holds', async () => {
  const r = await hook(JSON.stringify({ hook_event_name: 'a\nb\r\nc', source: 'compact', transcript_path: '/x.jsonl' }));
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'context-compactor hook: event "a\\nb\\r\\nc" is not SessionStart; nothing added\n');
});

test('a transcript_path with a line break is reported whole, on one line', async (t) => {
  const odd = path.join(tmpDir(t), 'a\nb.jsonl');
  fs.mkdirSync(odd);
  const r = await hook(input(odd));
  assert.equal(r.code, 0);
  assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  assert.ok(r.stderr.endsWith(`${JSON.stringify(odd)} is not a regular file; nothing added\n`), r.stderr);
});
