// Exit codes tell the truth, with the reason on stderr (issue #25): a missing DIR, nothing found, an eval whose every
// row failed, a summary asked for without its key or whose call failed; each run as a process of its own.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cliArgv, listDir, REPO, runSync, sha256 } from '../../support/cliProcess';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

type T = import('node:test').TestContext;
/** A clean environment: no key, no agent store of this machine, caches in the test's own folder. */
const envOf = (home: string, more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: path.join(home, 'cache'), ...more });
const run = (t: T, args: string[], more: NodeJS.ProcessEnv = {}) => runSync(cliArgv(args), envOf(tmpDir(t), more));

test('usage of a DIR that does not exist: exit 2, the DIR named on stderr (was exit 0, a warning and "No agent sessions found.")', (t) => {
  const r = run(t, ['usage', '/no/such/dir']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^context-compactor usage: \/no\/such\/dir: no such file or folder\n$/);
});

test('usage where nothing is found: exit 1, the reason on stderr, nothing on stdout', (t) => {
  const empty = tmpDir(t);
  const r = run(t, ['usage', empty]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, `No agent sessions found in ${empty}.\n`);
});

test('eval whose every row failed: exit 1, and each failed row says why under the table', (t) => {
  const dir = tmpDir(t);
  fs.copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'a.jsonl'));
  fs.writeFileSync(path.join(dir, 'b.jsonl'), Buffer.from([0, 1, 2, 0xff, 10]));
  const r = run(t, ['eval', path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl'), '--strategies', 'cleanup', '--jobs', '1']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /\nfailed:\n {2}a\.jsonl · cleanup: .*a\.jsonl: a JSON file, not a session of any supported agent/);
  assert.match(r.stdout, /\n {2}b\.jsonl · cleanup: .*b\.jsonl: a binary file, not a session of any supported agent/);
  assert.match(r.stderr, /context-compactor eval: every row failed \(2\); the list under the table says why/);
});

test('eval where one row is ok: exit 0', (t) => {
  const dir = tmpDir(t);
  fs.copyFileSync(path.join(REPO, 'package.json'), path.join(dir, 'a.jsonl'));
  const r = run(t, ['eval', CLAUDE_SAMPLE, path.join(dir, 'a.jsonl'), '--strategies', 'cleanup', '--jobs', '1']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\nfailed:\n {2}a\.jsonl · cleanup: /);
});

test('compact --provider anthropic without ANTHROPIC_API_KEY: exit 2, one line, nothing written (was exit 0, silent)', (t) => {
  const dir = tmpDir(t);
  const input = path.join(dir, 's.jsonl');
  fs.copyFileSync(CLAUDE_SAMPLE, input);
  const before = sha256(input);
  const r = run(t, ['compact', input, '--provider', 'anthropic']);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, 'context-compactor compact: --provider anthropic needs ANTHROPIC_API_KEY; nothing was written\n');
  assert.deepEqual(listDir(dir), ['s.jsonl']);
  assert.equal(sha256(input), before);
});

test('compact whose summary call fails: the cleaned copy is written, exit 1 and the reason on stderr', (t) => {
  const dir = tmpDir(t);
  const input = path.join(dir, 's.jsonl');
  fs.copyFileSync(CLAUDE_SAMPLE, input);
  const out = path.join(dir, 'out.jsonl');
  // Port 9 on loopback: nothing listens, every attempt is refused at once.
  const r = run(t, ['compact', input, '--out', out, '--provider', 'openai-compatible', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--timeout', '5'], { OPENAI_COMPATIBLE_API_KEY: 'k' });
  assert.equal(r.code, 1, r.stderr);
  assert.ok(fs.existsSync(out));
  assert.match(r.stderr, /^context-compactor compact: the summary failed \(openai-compatible: .*\); wrote the cleaned transcript without one to .*out\.jsonl\n$/);
});

test('inspect package.json: "a JSON file, not a session of any supported agent" (was "no line is valid JSON")', (t) => {
  const r = run(t, ['inspect', 'package.json']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^context-compactor: package\.json: a JSON file, not a session of any supported agent \(supported: Claude Code, /);
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1);
});

test('compact of a session with no messages (only its snapshots and settings records): exit 2, one line, nothing written (was exit 0 and an empty file)', (t) => {
  const dir = tmpDir(t);
  const input = path.join(dir, 'records-only.jsonl');
  // The real sample's own records without its conversation: what a session holds before its first prompt is answered.
  const lines = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').split('\n').filter((l) => l && !/"type":"(?:user|assistant)"/.test(l));
  assert.ok(lines.length > 10);
  fs.writeFileSync(input, `${lines.join('\n')}\n`);
  const before = sha256(input);
  const r = run(t, ['compact', input, '--out', path.join(dir, 'out.jsonl')]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, 'context-compactor: records-only.jsonl: nothing to compact: the session holds no messages, only the agent\'s own records; nothing was written\n');
  assert.deepEqual(listDir(dir), ['records-only.jsonl']);
  assert.equal(sha256(input), before);
});

test('--max-output-tokens below 256 (a summary with no room; VS Code\'s setting has that minimum): exit 2 before anything is read, for compact and eval', (t) => {
  const dir = tmpDir(t);
  for (const args of [['compact', CLAUDE_SAMPLE, '--out', path.join(dir, 'out.jsonl'), '--max-output-tokens', '0'], ['eval', CLAUDE_SAMPLE, '--max-output-tokens', '100']]) {
    const r = run(t, args);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^context-compactor ${args[0]}: --max-output-tokens takes a whole number ≥ 256`));
  }
  assert.deepEqual(listDir(dir), []);
  assert.equal(run(t, ['compact', CLAUDE_SAMPLE, '--out', path.join(dir, 'out.jsonl'), '--max-output-tokens', '256']).code, 0);
});
