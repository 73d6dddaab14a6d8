// Robustness: unreadable folders, symlink loops, non-transcript files and invalid lines warn, never throw.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { buildSync } from 'esbuild';
import { runUsageCommand } from '../../../src/node/usage/usageCommand';
import { CLAUDE_FILE, CODEX_FILE, scanDirs, tempDir, totalsOf } from './helpers';

const REPO = resolve(__dirname, '../../..');

function withSession(dir: string, sub = 'proj'): void {
  mkdirSync(join(dir, sub), { recursive: true });
  copyFileSync(CLAUDE_FILE, join(dir, sub, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl'));
}

test('unreadable folder (EACCES): a warning, the readable sessions still count', async (t) => {
  const dir = tempDir(t);
  chmodSync(dir, 0o755);
  withSession(dir);
  mkdirSync(join(dir, 'locked'));
  withSession(join(dir, 'locked'));
  chmodSync(join(dir, 'locked'), 0o000);
  // root ignores permission bits, so as root the scan runs in a child process as `nobody`: from a bundle in a
  // world-readable temp folder, since the repository itself may sit in a folder only its owner can enter.
  const asRoot = process.getuid?.() === 0;
  let r;
  if (asRoot) {
    const bin = tempDir(t);
    chmodSync(bin, 0o755);
    buildSync({ entryPoints: [join(REPO, 'scripts/usage.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: join(bin, 'usage.js'), logLevel: 'error' });
    r = spawnSync(process.execPath, [join(bin, 'usage.js'), dir, '--json', '--no-cache'], {
      cwd: bin, uid: 65534, gid: 65534, env: { HOME: dir, PATH: process.env.PATH }, encoding: 'utf8',
    });
  }
  const out = r ? (JSON.parse(r.stdout) as { sessions: unknown[]; warnings: string[] }) : (await scanDirs([dir])).report;
  chmodSync(join(dir, 'locked'), 0o755); // so the temp dir can be removed when not root
  if (r) assert.equal(r.status, 0, r.stderr);
  assert.equal(out.sessions.length, 1);
  assert.ok(out.warnings.some((w) => w.includes('locked') && w.includes('EACCES')), JSON.stringify(out.warnings));
});

test('symlink loop and a second link to the same file: walked once, with a warning', async (t) => {
  const dir = tempDir(t);
  withSession(dir);
  symlinkSync(dir, join(dir, 'proj', 'loop'));
  symlinkSync(join(dir, 'proj', 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl'), join(dir, 'again.jsonl'));
  symlinkSync(join(dir, 'missing-target'), join(dir, 'broken'));
  const { report } = await scanDirs([dir]);
  assert.equal(report.sessions.length, 1);
  assert.deepEqual(totalsOf({ report } as never), [12, 340, 0, 66210]);
  assert.ok(report.warnings.some((w) => w.includes('symlink loop')));
  assert.ok(report.warnings.some((w) => w.includes('broken symlink')));
});

test('non-transcript files are skipped with a warning; invalid lines are counted, not fatal', async (t) => {
  const dir = tempDir(t);
  withSession(dir);
  writeFileSync(join(dir, 'proj', 'notes.txt'), 'not jsonl');
  writeFileSync(join(dir, 'proj', 'requests.log.jsonl'), '{"url":"/v1/messages","bytes":12}\n{"url":"/v1/messages","bytes":14}\n');
  const broken = join(dir, 'proj', 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  writeFileSync(broken, `${readFileSync(broken, 'utf8')}{"type":"assistant","message":{"usage":{"input_tokens":5\n\u0000\u0001 garbage "usage"\n`);
  const { report } = await scanDirs([dir]);
  assert.equal(report.sessions.length, 1);
  assert.deepEqual(totalsOf({ report } as never), [12, 340, 0, 66210]);
  assert.ok(report.warnings.some((w) => w.includes('requests.log.jsonl: not an agent transcript')));
  assert.ok(report.warnings.some((w) => w.includes('2 invalid line(s)')));
});

test('usage command: --json shape, table, bad arguments, missing directory', async (t) => {
  const dir = tempDir(t);
  withSession(dir);
  mkdirSync(join(dir, 'codex'));
  copyFileSync(CODEX_FILE, join(dir, 'codex', CODEX_FILE.replace(/^.*\//, '')));
  let out = '';
  let err = '';
  const io = { stdout: (s: string) => (out += s), stderr: (s: string) => (err += s), env: { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') } };
  assert.equal(await runUsageCommand([dir, '--json', '--threshold', '30000'], io), 0);
  const json = JSON.parse(out) as { sessions: { agent: string; compactSoon: boolean }[]; totals: Record<string, number>; warnings: string[] };
  assert.deepEqual(Object.keys(json.totals).sort(), ['cacheCreationTokens', 'cacheReadTokens', 'cost', 'inputTokens', 'outputTokens', 'pricedCost']);
  assert.deepEqual(json.sessions.map((s) => s.agent).sort(), ['claude-code', 'codex']);
  assert.ok(json.sessions.some((s) => s.compactSoon));
  assert.ok(existsSync(join(dir, 'cache', 'context-compactor', 'usage-v1.json')), 'cache under $XDG_CACHE_HOME');
  out = '';
  // A DIR named that is not there: exit 2, said on stderr, no table (a half answer read as the whole one).
  assert.equal(await runUsageCommand([dir, join(dir, 'nope')], io), 2);
  assert.equal(out, '');
  assert.match(err, /nope: no such file or folder\n$/);
  err = '';
  assert.equal(await runUsageCommand([dir], io), 0);
  assert.match(out, /^Last activity/);
  assert.match(out, /Total +2 sessions/);
  err = '';
  assert.equal(await runUsageCommand(['--threshold', 'x'], io), 2);
  assert.match(err, /--threshold needs a positive number/);
  assert.equal(await runUsageCommand(['--frobnicate'], io), 2);
  assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
});
