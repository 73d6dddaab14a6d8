// The built CLI (dist/cli.js, from `npm run build`) with its caches planted or loosened by "another user": the code
// cache and the kept usage answer are read and written only when ours, with one warning line; a link planted at a
// temp name is never followed; a kept answer holding terminal controls is not replayed. (Owners: a test running as
// root owns everything, so another uid is injected in test/unit/usage/trustedCache.test.ts.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { answerKey, saveAnswer } from '../../../src/node/usage/answerMemo';
import { FsLog } from '../../../src/node/usage/fsLog';
import { tempDir } from '../usage/helpers';

const DIST = resolve(__dirname, '../../../dist');
/** Two real Claude Code sessions: what `usage` scans here. */
const SESSIONS = resolve(__dirname, '../../fixtures/usage/claude/projects');
const TABLE = /Total\s+2 sessions/;
const CLI = join(DIST, 'cli.js');

function run(dir: string, args: string[], preload?: string): { status: number | null; stdout: string; stderr: string } {
  assert.ok(existsSync(CLI), 'dist/cli.js: run `npm run build` first');
  const r = spawnSync(process.execPath, [...(preload ? ['-r', preload] : []), CLI, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const warnings = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('warning:'));

/** A private parent (mkdtemp is 0700) holding the cache folder, as ~/.cache would. */
function setUp(t: Parameters<typeof tempDir>[0]): { dir: string; cache: string } {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'cache'), { mode: 0o700 });
  return { dir, cache: join(dir, 'cache', 'context-compactor') };
}

/** Keeps `output` as the answer for `usage SESSIONS`, as a run of the built CLI would. */
const keepAnswer = (cache: string, output: string): void =>
  saveAnswer(join(cache, 'usage-answers.dat'), answerKey(join(DIST, 'cli-main.js'), [SESSIONS], process.cwd()), new FsLog(), output);

test('a cache folder of ours left writable by others (0777): nothing read or written, one warning line per run', (t) => {
  const { dir, cache } = setUp(t);
  // A kept answer planted there: it would be printed as it is.
  keepAnswer(cache, 'PLANTED\n');
  chmodSync(cache, 0o777);
  const planted = readdirSync(cache);

  const help = run(dir, ['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /usage: context-compactor/);
  assert.equal(warnings(help.stderr).length, 1, help.stderr);
  assert.match(help.stderr, /^warning: cache not used: the cache folder .*context-compactor is writable by group or others \(mode 0777\)/);
  const usage = run(dir, ['usage', SESSIONS]);
  assert.equal(usage.status, 0, usage.stderr);
  assert.doesNotMatch(usage.stdout, /PLANTED/, 'the planted answer is not replayed');
  assert.match(usage.stdout, TABLE);
  assert.equal(warnings(usage.stderr).length, 1, usage.stderr);
  assert.deepEqual(readdirSync(cache), planted, 'no code cache, usage cache or answer written there');
});

test('a symlinked cache folder is not used: nothing is written through it', (t) => {
  const { dir, cache } = setUp(t);
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere, { mode: 0o700 });
  symlinkSync(elsewhere, cache);
  const runs = [run(dir, ['--help']), run(dir, ['usage', SESSIONS])];
  assert.deepEqual(readdirSync(elsewhere), []);
  for (const r of runs) {
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(warnings(r.stderr), [`warning: cache not used: ${cache} is a symbolic link (a cache must be yours, private and no symbolic link: remove it to start afresh)`]);
  }
});

/** Runs `--help` once and returns its code cache file. */
function helpCache(dir: string, cache: string): string {
  assert.equal(run(dir, ['--help']).status, 0);
  const [name] = readdirSync(cache).filter((f) => /^cli-code-[0-9a-f]+-other\.bin$/.test(f));
  assert.ok(name, 'a code cache was written');
  return join(cache, name);
}

test('a symlinked code cache file is neither read nor replaced', (t) => {
  const { dir, cache } = setUp(t);
  const file = helpCache(dir, cache);

  // The file a link to a file of the victim's (here: the cache itself, moved out, so V8 would even accept it).
  const victim = join(dir, 'victim.bin');
  renameSync(file, victim);
  const bytes = readFileSync(victim);
  symlinkSync(victim, file);
  const linked = run(dir, ['--help']);
  assert.equal(linked.status, 0, linked.stderr);
  assert.deepEqual(readFileSync(victim), bytes);
  assert.ok(lstatSync(file).isSymbolicLink(), 'left as it is');
  assert.deepEqual(warnings(linked.stderr), [`warning: cache not used: ${file} is a symbolic link (a cache must be yours, private and no symbolic link: remove it to start afresh)`]);
});

test('a link planted at the code cache\'s old temp name (<file>.<pid>.tmp) is not followed', (t) => {
  const { dir, cache } = setUp(t);
  const file = helpCache(dir, cache);
  // No cache file: the next run writes one, and a link waits at the name earlier releases wrote to.
  rmSync(file);
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'precious');
  const plant = join(dir, 'plant.cjs');
  writeFileSync(plant, `require('fs').symlinkSync(${JSON.stringify(victim)}, ${JSON.stringify(file)} + '.' + process.pid + '.tmp');\n`);
  const planted = run(dir, ['--help'], plant);
  assert.equal(planted.status, 0, planted.stderr);
  assert.equal(planted.stderr, '');
  assert.ok(readFileSync(victim, 'utf8') === 'precious', 'the planted link was not followed (the victim file is unchanged)');
  assert.ok(readFileSync(file).length > 1000, 'the cache was written beside it');
});

test('a kept usage answer holding terminal controls is not replayed: the scan runs and prints its own', (t) => {
  const { dir, cache } = setUp(t);
  keepAnswer(cache, '\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[31mPLANTED\n');
  const r = run(dir, ['usage', SESSIONS]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.includes('\x1b'), false, JSON.stringify(r.stdout));
  assert.match(r.stdout, TABLE);
  // Replaced by the run's own answer, which is replayed next time.
  assert.equal(readFileSync(join(cache, 'usage-answers.dat'), 'latin1').includes('\x1b'), false);
  assert.equal(run(dir, ['usage', SESSIONS]).stdout, r.stdout);
});
