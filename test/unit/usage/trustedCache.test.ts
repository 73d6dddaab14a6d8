// Caches are read and written only when ours (src/node/usage/trustedCache.ts): owner (an injected uid: tests run as
// root, who owns everything), modes, symlinked folders and files, FIFOs, and temp names planted in advance.
// The CLI end to end: test/unit/cli/cacheTrust.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mock, test } from 'node:test';
import { loadCache, saveCache, CACHE_VERSION } from '../../../src/node/usage/cache';
import { answerKey, replayableAnswer, saveAnswer } from '../../../src/node/usage/answerMemo';
import { FsLog } from '../../../src/node/usage/fsLog';
import { currentOwner, folderProblem, openTrusted, readTrusted, tempPath, writeTrusted } from '../../../src/node/usage/trustedCache';
import { tempDir } from './helpers';

const me = currentOwner();

/** A cache folder as we create it: <dir>/cache/context-compactor, 0700. */
function cacheDir(dir: string): string {
  const c = join(dir, 'cache', 'context-compactor');
  mkdirSync(c, { recursive: true, mode: 0o700 });
  chmodSync(join(dir, 'cache'), 0o700);
  return c;
}

test('a folder and file of ours, private, are trusted; another uid, loose modes and symlinks are not', (t) => {
  const dir = tempDir(t);
  const c = cacheDir(dir);
  const file = join(c, 'usage-v1.json');
  writeFileSync(file, 'data', { mode: 0o600 });
  assert.equal(folderProblem(c), undefined);
  assert.equal(folderProblem(join(dir, 'cache', 'missing')), undefined, 'nothing there yet: nothing to read');
  assert.deepEqual(readTrusted(file).data?.toString(), 'data');

  const stranger = { uid: (me.uid ?? 0) + 4242, gid: me.gid };
  assert.match(folderProblem(c, stranger) ?? '', /context-compactor belongs to another user \(uid \d+\), not to you/);
  assert.match(readTrusted(file, stranger).problem ?? '', /belongs to another user/);
  assert.equal(readTrusted(file, stranger).data, undefined);

  chmodSync(file, 0o666);
  assert.match(readTrusted(file).problem ?? '', /the cache file .*usage-v1\.json is writable by group or others \(mode 0666\)/);
  chmodSync(file, 0o644);
  assert.equal(readTrusted(file).problem, undefined, 'readable by others is private enough: only writing matters');
  chmodSync(c, 0o777);
  assert.match(folderProblem(c) ?? '', /the cache folder .* is writable by group or others \(mode 0777\)/);
  assert.match(readTrusted(file).problem ?? '', /mode 0777/);
  chmodSync(c, 0o700);

  // The folder holding it: writable by others only when sticky (like /tmp); a link to a folder of ours is fine.
  chmodSync(join(dir, 'cache'), 0o777);
  assert.match(folderProblem(c) ?? '', /cache is writable by others \(mode 0777\)/);
  chmodSync(join(dir, 'cache'), 0o1777);
  assert.equal(folderProblem(c), undefined);
  chmodSync(join(dir, 'cache'), 0o700);
  symlinkSync(join(dir, 'cache'), join(dir, 'linked-cache'));
  assert.equal(folderProblem(join(dir, 'linked-cache', 'context-compactor')), undefined);
  assert.match(folderProblem(join(dir, 'linked-cache', 'context-compactor'), stranger) ?? '', /belongs to another user/);

  // A symlinked cache folder, a symlinked cache file.
  symlinkSync(c, join(dir, 'cache', 'alias'));
  assert.match(folderProblem(join(dir, 'cache', 'alias')) ?? '', /alias is a symbolic link/);
  const outside = join(dir, 'outside.json');
  writeFileSync(outside, 'theirs', { mode: 0o600 });
  symlinkSync(outside, join(c, 'link.json'));
  assert.match(readTrusted(join(c, 'link.json')).problem ?? '', /link\.json is a symbolic link/);
});

test('a FIFO planted as a cache file is refused without blocking', (t) => {
  const c = cacheDir(tempDir(t));
  const fifo = join(c, 'cli-code-0-other.bin');
  execFileSync('mkfifo', [fifo]);
  const opened = openTrusted(fifo);
  assert.deepEqual(opened, { problem: `${fifo} is not a regular file` });
});

test('a write never goes through a symlinked file, a loose folder or a planted temp name', (t) => {
  const dir = tempDir(t);
  const c = cacheDir(dir);
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'precious', { mode: 0o600 });
  const file = join(c, 'cli-code-1-other.bin');

  symlinkSync(victim, file);
  assert.match(writeTrusted(file, Buffer.from('cache')) ?? '', /is a symbolic link/);
  assert.equal(readFileSync(victim, 'utf8'), 'precious');
  assert.ok(lstatSync(file).isSymbolicLink(), 'left as it is: not replaced either');

  // The temp name, even when guessed: created exclusively, so a link there fails the write instead of following.
  const random = mock.method(Math, 'random', () => 0.5);
  try {
    const other = join(c, 'usage-answers.dat');
    symlinkSync(victim, tempPath(other));
    assert.throws(() => writeTrusted(other, Buffer.from('cache')), { code: 'EEXIST' });
  } finally {
    random.mock.restore();
  }
  assert.equal(readFileSync(victim, 'utf8'), 'precious');
  assert.equal(writeTrusted(join(c, 'fine.bin'), Buffer.from('cache')), undefined);
  assert.equal(lstatSync(join(c, 'fine.bin')).mode & 0o777, 0o600);

  chmodSync(c, 0o777);
  assert.match(writeTrusted(join(c, 'new.bin'), Buffer.from('cache')) ?? '', /mode 0777/);
  assert.equal(readdirSync(c).includes('new.bin'), false);
});

test('the usage cache: a symlinked file is neither read nor written through', async (t) => {
  const dir = tempDir(t);
  const c = cacheDir(dir);
  const victim = join(dir, 'victim.json');
  const planted = JSON.stringify({ version: CACHE_VERSION, files: { '/x': { size: 1, mtimeMs: 1, offset: 1, headHash: 'h' } } });
  writeFileSync(victim, planted, { mode: 0o600 });
  const path = join(c, 'usage-v1.json');
  symlinkSync(victim, path);
  const warnings: string[] = [];
  const cache = loadCache(path, warnings);
  assert.deepEqual(cache.files, {}, 'not read through the link');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /^cache not used: .*usage-v1\.json is a symbolic link/);
  await saveCache(path, { version: CACHE_VERSION, files: {} }, warnings);
  assert.equal(readFileSync(victim, 'utf8'), planted, 'not written through');
  assert.equal(warnings.length, 1, 'one warning for the file');
});

test('the usage cache: links planted at the old predictable temp name and at the new one are not followed', async (t) => {
  const dir = tempDir(t);
  const c = cacheDir(dir);
  const victim = join(dir, 'victim.json');
  writeFileSync(victim, 'precious', { mode: 0o600 });
  // The temp name earlier releases used (pid + time) and the one this one picks: links planted at both.
  const real = join(c, 'usage-v1.json');
  const now = mock.method(Date, 'now', () => 1_700_000_000_000);
  const random = mock.method(Math, 'random', () => 0.25);
  try {
    symlinkSync(victim, `${real}.${process.pid}.${Date.now().toString(36)}.tmp`);
    symlinkSync(victim, tempPath(real));
    const w: string[] = [];
    await saveCache(real, { version: CACHE_VERSION, files: {} }, w);
    assert.match(w.join('\n'), /could not write the usage cache \(EEXIST/);
  } finally {
    now.mock.restore();
    random.mock.restore();
  }
  assert.equal(readFileSync(victim, 'utf8'), 'precious');
});

test('the answer memo: a link planted at the old temp name is not followed', (t) => {
  const dir = tempDir(t);
  const c = cacheDir(dir);
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'precious', { mode: 0o600 });
  const memo = join(c, 'usage-answers.dat');
  const key = answerKey(__filename, ['--json'], dir);
  const now = mock.method(Date, 'now', () => 1_700_000_000_000);
  const random = mock.method(Math, 'random', () => 0.75);
  try {
    symlinkSync(victim, `${memo}.${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}.tmp`);
    saveAnswer(memo, key, new FsLog(), 'the answer\n');
  } finally {
    now.mock.restore();
    random.mock.restore();
  }
  assert.equal(readFileSync(victim, 'utf8'), 'precious');
  assert.equal(Buffer.from(replayableAnswer(memo, key, {}) ?? []).toString(), 'the answer\n', 'kept under a random name');
});

test('the answer memo: one holding terminal controls is not replayed, nor one in a folder others can write', (t) => {
  const dir = tempDir(t);
  const c = cacheDir(dir);
  const memo = join(c, 'usage-answers.dat');
  const key = answerKey(__filename, ['--json'], dir);

  for (const planted of ['\x1b]52;c;cHduZWQ=\x07title\n', 'a \x9b31m C1 CSI\n', 'bidi \u202egnp.exe\n', 'carriage\rreturn\n']) {
    saveAnswer(memo, key, new FsLog(), planted);
    assert.equal(replayableAnswer(memo, key, {}), undefined, JSON.stringify(planted));
  }
  saveAnswer(memo, key, new FsLog(), 'tabs\tand\nnew lines \uFFFD, ünïcode ✓\n');
  assert.equal(Buffer.from(replayableAnswer(memo, key, {}) ?? []).toString(), 'tabs\tand\nnew lines \uFFFD, ünïcode ✓\n');

  // A memo in a folder others can write is not replayed, and nothing is kept there.
  chmodSync(c, 0o777);
  const problems: string[] = [];
  assert.equal(replayableAnswer(memo, key, {}, (p) => problems.push(p)), undefined);
  assert.match(problems.join('\n'), /writable by group or others \(mode 0777\)/);
  const before = readFileSync(memo);
  saveAnswer(memo, key, new FsLog(), 'other\n');
  assert.deepEqual(readFileSync(memo), before);
});

test('no cache folder is made inside a folder others can write', (t) => {
  const dir = tempDir(t);
  const loose = join(dir, 'loose');
  mkdirSync(loose);
  chmodSync(loose, 0o777);
  assert.match(writeTrusted(join(loose, 'context-compactor', 'usage-answers.dat'), Buffer.from('x')) ?? '', /loose is writable by others \(mode 0777\)/);
  assert.deepEqual(readdirSync(loose), []);
});
