// The bundled CLI loads only what a command needs: no SDK, no other command, no worker or stream modules for
// `--help` and a warm `usage`; the provider's SDK bundle only once a summary is asked for. (Times: npm run bench.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { CLAUDE_SAMPLE, GEMINI_SAMPLE } from '../../support/fixtures';
import { tempDir } from '../usage/helpers';

const REPO = resolve(__dirname, '../../..');
type T = Parameters<typeof tempDir>[0];

/** Bundles the CLI (and the bundles it loads on demand) as esbuild.mjs does, into a temp folder. */
async function bundleCli(t: T): Promise<string> {
  const out = tempDir(t);
  const { builds } = (await import(pathToFileURL(join(REPO, 'esbuild.mjs')).href)) as { builds: BuildOptions[] };
  const wanted = builds.filter((b) => /^dist\/(cli|vendor|usageWorker|evalWorker)/.test(b.outfile ?? ''));
  assert.ok(wanted.length >= 5, 'cli, its commands, the SDK bundles');
  await Promise.all(wanted.map((b) => build({ ...b, absWorkingDir: REPO, sourcemap: false, outfile: join(out, (b.outfile ?? '').slice('dist/'.length)) })));
  // Records, at exit, the files and Node modules the process loaded.
  writeFileSync(join(out, 'loaded.cjs'), `process.on('exit', () => require('fs').writeFileSync(process.env.LOADED_OUT,
    JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')) })));\n`);
  return out;
}

function runCli(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string; files: string[]; builtins: string[] } {
  const loaded = join(dir, `loaded-${args[0]}.json`);
  const r = spawnSync(process.execPath, ['-r', join(dir, 'loaded.cjs'), join(dir, 'cli.js'), ...args], {
    encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, LOADED_OUT: loaded, ...env },
  });
  const { files, builtins } = JSON.parse(spawnSync(process.execPath, ['-p', `require('fs').readFileSync(${JSON.stringify(loaded)}, 'utf8')`], { encoding: 'utf8' }).stdout) as { files: string[]; builtins: string[] };
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, files: files.map((f) => f.slice(dir.length + 1)), builtins };
}

test('--help and a warm usage load the dispatcher alone: no SDK, no other command, no worker or stream modules', async (t) => {
  const dir = await bundleCli(t);
  const help = runCli(dir, ['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /usage: context-compactor/);
  // Claude Code and Codex sessions (read by lines) and a Gemini CLI chat (a document agent's).
  const chats = join(dir, 'gemini/.gemini/tmp/project/chats');
  mkdirSync(chats, { recursive: true });
  copyFileSync(GEMINI_SAMPLE, join(chats, basename(GEMINI_SAMPLE)));
  const home = { CLAUDE_CONFIG_DIR: join(REPO, 'test/fixtures/usage/claude'), CODEX_HOME: join(REPO, 'test/fixtures/usage/codex'), GEMINI_CLI_HOME: join(dir, 'gemini'), XDG_CACHE_HOME: join(dir, 'cache') };
  runCli(dir, ['usage', '--json'], home); // primes the cache
  // A warm scan (the usage cache, no kept answer): the dispatcher and the scanner, nothing else.
  rmSync(join(dir, 'cache/context-compactor/usage-answers.dat'));
  const warm = runCli(dir, ['usage', '--json'], home);
  assert.equal(warm.status, 0, warm.stderr);
  const agents = (JSON.parse(warm.stdout) as { sessions: { agent: string }[] }).sessions.map((s) => s.agent).sort();
  assert.deepEqual(agents, ['claude-code', 'claude-code', 'codex', 'gemini-cli']);
  // Nothing changed since: the kept answer, replayed by the loader alone.
  const replayed = runCli(dir, ['usage', '--json'], home);
  assert.equal(replayed.stdout, warm.stdout);
  assert.deepEqual(replayed.files, ['loaded.cjs', 'cli.js']);
  assert.deepEqual(replayed.builtins.filter((m) => /NativeModule (vm|os)$/.test(m)), []);
  for (const r of [help, warm, replayed]) {
    if (r !== replayed) assert.deepEqual(r.files, ['loaded.cjs', 'cli.js', 'cli-main.js']);
    const heavy = r.builtins.filter((m) => /worker_threads|fs\/promises|NativeModule stream$|http/.test(m));
    assert.deepEqual(heavy, []);
  }
});

test('a kept usage answer is replayed only while everything it read is unchanged', async (t) => {
  const dir = await bundleCli(t);
  const claude = join(dir, 'claude');
  cpSync(join(REPO, 'test/fixtures/usage/claude'), claude, { recursive: true });
  const project = join(claude, 'projects/-tmp-repo');
  const session = join(project, readdirSync(project).find((f) => f.endsWith('.jsonl'))!);
  const env = { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: join(dir, 'no-codex'), XDG_CACHE_HOME: join(dir, 'cache') };
  const memo = join(dir, 'cache/context-compactor/usage-answers.dat');
  const usage = (extra: NodeJS.ProcessEnv = {}, args = ['usage', '--json']) => runCli(dir, args, { ...env, ...extra });
  const sessions = (r: { stdout: string }): number => (JSON.parse(r.stdout) as { sessions: unknown[] }).sessions.length;
  const replays = (r: { files: string[] }): boolean => !r.files.includes('cli-main.js');
  const fresh = (extra: NodeJS.ProcessEnv = {}): string => usage(extra, ['usage', '--json', '--no-cache']).stdout;

  const first = usage();
  assert.equal(first.status, 0, first.stderr);
  assert.equal(replays(first), false);
  assert.equal(statSync(memo).mode & 0o777, 0o600, 'private: it holds titles and paths');
  assert.ok(replays(usage()));

  // A session appended to: scanned again, the new total shown, and that answer kept in turn.
  appendFileSync(session, readFileSync(session, 'utf8').trimEnd().split('\n').filter((l) => l.includes('"usage"')).at(-1)!.replace(/"id":"msg_[^"]*"/, '"id":"msg_appended"') + '\n');
  const appended = usage();
  assert.equal(replays(appended), false);
  assert.notEqual(appended.stdout, first.stdout);
  assert.equal(appended.stdout, fresh());
  assert.ok(replays(usage()));

  // A new session in a project folder, and one removed.
  copyFileSync(session, join(project, '11111111-1111-4111-8111-111111111111.jsonl'));
  const added = usage();
  assert.equal(replays(added), false);
  assert.equal(sessions(added), sessions(appended) + 1);
  rmSync(join(project, '11111111-1111-4111-8111-111111111111.jsonl'));
  const removed = usage();
  assert.equal(replays(removed), false);
  assert.equal(removed.stdout, appended.stdout);

  // Another agent home in the environment: not this answer.
  const codex = { CODEX_HOME: join(REPO, 'test/fixtures/usage/codex') };
  const withCodex = usage(codex);
  assert.equal(replays(withCodex), false);
  assert.equal(withCodex.stdout, fresh(codex));

  // Other arguments: an answer of their own (the table is not the JSON).
  const table = usage({}, ['usage']);
  assert.equal(replays(table), false);
  assert.match(table.stdout, /Last activity/);
  assert.ok(replays(usage({}, ['usage'])));
  assert.ok(replays(usage()), 'the JSON answer is still kept beside it');

  // A damaged memo is no answer: the scan runs and keeps a good one.
  writeFileSync(memo, '{"version":1,"answers":[{"key":');
  const damaged = usage();
  assert.equal(damaged.status, 0, damaged.stderr);
  assert.equal(damaged.stderr, '');
  assert.equal(replays(damaged), false);
  assert.equal(damaged.stdout, removed.stdout);
  assert.ok(replays(usage()));

  // A run with a warning keeps no answer (its cause may be gone next time); --no-cache neither reads nor keeps one.
  // A DIR that is not there is an error now (exit 2, nothing on stdout), never kept either.
  const missing = usage({}, ['usage', '--json', join(dir, 'missing')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /missing: no such file or folder/);
  assert.equal(replays(usage({}, ['usage', '--json', join(dir, 'missing')])), false);
  rmSync(memo);
  assert.equal(replays(usage({}, ['usage', '--json', '--no-cache'])), false);
  assert.equal(existsSync(memo), false);
});

test('export loads its own bundle and nothing of the other commands or the SDKs', async (t) => {
  const dir = await bundleCli(t);
  const out = join(dir, 'out.md');
  const r = runCli(dir, ['export', CLAUDE_SAMPLE, '--markdown', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(readFileSync(out, 'utf8'), /^# Claude Code session /);
  assert.deepEqual(r.files.filter((f) => f !== 'loaded.cjs'), ['cli.js', 'cli-main.js', 'cli/export.js']);
  assert.deepEqual(r.builtins.filter((m) => /worker_threads|http/.test(m)), []);
});

test('compact loads its own bundle, and the provider SDK only when a summary is asked for', async (t) => {
  const dir = await bundleCli(t);
  const out = join(dir, 'out.jsonl');
  const plain = runCli(dir, ['compact', CLAUDE_SAMPLE, '--out', out, '--json']);
  assert.equal(plain.status, 0, plain.stderr);
  assert.ok(plain.files.includes('cli/compact.js'));
  assert.deepEqual(plain.files.filter((f) => f.startsWith('vendor/')), []);
  // A provider that cannot be reached: the SDK loads, its connection error is classified, cleanup-only stands.
  const summary = runCli(dir, ['compact', CLAUDE_SAMPLE, '--out', join(dir, 'out2.jsonl'), '--json', '--provider', 'anthropic', '--model', 'm', '--base-url', 'http://127.0.0.1:9', '--timeout', '5'], { ANTHROPIC_API_KEY: 'sk-test' });
  // The summary asked for failed: the cleaned copy is written and the exit says so (1, the reason on stderr).
  assert.equal(summary.status, 1, summary.stderr);
  assert.match(summary.stderr, /the summary failed \(anthropic: could not connect/);
  assert.deepEqual(summary.files.filter((f) => f.startsWith('vendor/')), ['vendor/anthropic-sdk.js']);
  assert.match(summary.stdout, /could not connect/);
});

test('eval loads its own bundle; with --jobs 2 its workers run dist/evalWorker.js from one folder up; no SDK without a provider', async (t) => {
  const dir = await bundleCli(t);
  const r = runCli(dir, ['eval', CLAUDE_SAMPLE, GEMINI_SAMPLE, '--strategies', 'cleanup', '--jobs', '2', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const rows = (JSON.parse(r.stdout) as { rows: { strategy: string; accepted: boolean }[] }).rows;
  assert.deepEqual(rows.map((row) => [row.strategy, row.accepted]), [['cleanup', true], ['cleanup', true]]);
  assert.deepEqual(r.files.filter((f) => f !== 'loaded.cjs'), ['cli.js', 'cli-main.js', 'cli/eval.js']);
  assert.ok(r.builtins.includes('NativeModule worker_threads'), 'the files ran in workers');
});

test('the CLI runs from a private V8 code cache per command; a bad or foreign cache is replaced, never fatal', async (t) => {
  const dir = await bundleCli(t);
  const cache = join(dir, 'cache', 'context-compactor');
  const env = { XDG_CACHE_HOME: join(dir, 'cache') };
  const codeFiles = (): string[] => (existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('cli-code-')).sort() : []);
  const first = runCli(dir, ['--help'], env);
  assert.equal(first.status, 0, first.stderr);
  const [help] = codeFiles();
  assert.match(help ?? '', /^cli-code-[0-9a-f]+-other\.bin$/);
  assert.equal(statSync(join(cache, help!)).mode & 0o777, 0o600);
  assert.equal(statSync(cache).mode & 0o777, 0o700);
  assert.equal(runCli(dir, ['usage', '--json'], env).status, 1, 'no session on this machine: exit 1');
  assert.deepEqual(codeFiles(), [help!.replace('-other', '-usage'), help].sort());
  // Accepted: a second run leaves the file as it is.
  const before = readFileSync(join(cache, help!));
  assert.match(runCli(dir, ['--help'], env).stdout, /usage: context-compactor/);
  assert.deepEqual(readFileSync(join(cache, help!)), before);
  // Garbage (or another Node's cache): V8 rejects it, the command still works and the file is written anew.
  writeFileSync(join(cache, help!), 'not a code cache');
  const again = runCli(dir, ['--help'], env);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.stderr, '');
  const rewritten = readFileSync(join(cache, help!));
  assert.ok(rewritten.length > 1000 && rewritten.length > before.length / 2, 'a code cache again');
  runCli(dir, ['--help'], env);
  assert.deepEqual(readFileSync(join(cache, help!)), rewritten, 'and V8 accepts it');
  // A new build of the bundle: its own files, the old ones dropped.
  appendFileSync(join(dir, 'cli-main.js'), '\n');
  assert.equal(runCli(dir, ['--help'], env).status, 0);
  const now = codeFiles();
  assert.equal(now.length, 1);
  assert.notEqual(now[0], help);
  // Turned off: nothing is written.
  const off = { XDG_CACHE_HOME: join(dir, 'cache-off'), CONTEXT_COMPACTOR_CODE_CACHE: 'off' };
  assert.equal(runCli(dir, ['--help'], off).status, 0);
  assert.equal(existsSync(join(dir, 'cache-off')), false);
});

test('a cold usage that parses 16 MB or more tunes the heap and sets it back: the code cache stays accepted', async (t) => {
  const dir = await bundleCli(t);
  const project = join(dir, 'claude', 'projects', 'p');
  mkdirSync(project, { recursive: true });
  const text = readFileSync(CLAUDE_SAMPLE, 'utf8');
  writeFileSync(join(project, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl'), text.repeat(Math.ceil((17 << 20) / text.length)));
  const env = { XDG_CACHE_HOME: join(dir, 'cache'), CLAUDE_CONFIG_DIR: join(dir, 'claude') };
  const first = runCli(dir, ['usage', '--json', '--no-cache'], env);
  assert.equal(first.status, 0, first.stderr);
  assert.equal(first.stderr, '');
  assert.ok(first.builtins.includes('NativeModule v8'), 'the heap was tuned');
  const cache = join(dir, 'cache', 'context-compactor');
  const file = readdirSync(cache).find((f) => /^cli-code-[0-9a-f]+-usage\.bin$/.test(f));
  assert.ok(file, 'a usage code cache');
  const written = statSync(join(cache, file));
  const second = runCli(dir, ['usage', '--json', '--no-cache'], env);
  assert.equal(second.stdout, first.stdout);
  const after = statSync(join(cache, file));
  // Rejected data is written anew (temp file + rename): a new inode. Accepted data is left alone.
  assert.deepEqual([after.ino, after.mtimeMs], [written.ino, written.mtimeMs], 'V8 accepted the code cache the first run wrote');
});
