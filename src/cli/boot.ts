// The `context-compactor` executable (dist/cli.js): runs the CLI bundle (dist/cli-main.js) from V8's code cache.
//
// Why: a warm `usage` or `--help` is nearly all start-up, and compiling the 180 KB bundle (plus the functions a run
// first calls) was a third of it. Node 20 has no module.enableCompileCache (22.1+), so this does what it does: the
// first run compiles and, at exit, saves the compiled code (functions that ran included); later runs deserialize it.
// The cache lives with the usage cache (private: folder 0700, file 0600), keyed by the bundle's size, times and inode
// and by the Node version, written atomically; V8 rejects data from another build or version and this then rewrites
// it. Any failure here (read-only home, no cache) only means compiling as plain `require` would. Compiled code is
// run, so the cache is read and written only when ours (node/usage/trustedCache.ts); otherwise one warning line.
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { answerKey, answerMemoPath, replayableAnswer } from '../node/usage/answerMemo';
import { cacheFolder } from '../node/usage/cacheFolder';
import { firstCacheWarning, readTrusted, untrustedText, writeTrusted } from '../node/usage/trustedCache';
import { writeOut } from './stdio';

const bundle = join(__dirname, 'cli-main.js');
const COMMANDS = new Set(['usage', 'inspect', 'compact', 'simulate', 'export', 'eval', 'hook', 'search']);
// node:os only when HOME is unset, node:vm only when the bundle runs: each built-in a start-up loads costs its compile.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous and lazy on purpose
const home = (): string => (require('node:os') as typeof import('node:os')).homedir();

/** The cache file for this bundle and this Node, or undefined when the cache is turned off. */
function cacheFile(): string | undefined {
  const env = process.env;
  if (env.CONTEXT_COMPACTOR_CODE_CACHE === 'off') return undefined;
  const st = statSync(bundle);
  const key = `${process.version}|${process.arch}|${st.size}|${st.mtimeMs}|${st.ctimeMs}|${st.ino}`;
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  // One file per command: each holds the functions its command ran, compiled (a `--help` cache has none of `usage`'s).
  const command = COMMANDS.has(process.argv[2] ?? '') ? process.argv[2] : 'other';
  return join(cacheFolder(env, home), `cli-code-${(h >>> 0).toString(16)}-${command}.bin`);
}

/** Says, once per run, why a cache is not used (a folder or file that is not ours and private). */
function warnUntrusted(problem: string): void {
  if (firstCacheWarning()) writeOut(2, `warning: ${untrustedText(problem)}\n`);
}

/** The code cache's bytes, when the file and its folder are ours (trustedCache.ts). */
function readCache(file: string | undefined): Buffer | undefined {
  if (!file) return undefined;
  const { data, problem } = readTrusted(file);
  if (problem) warnUntrusted(problem);
  return data;
}

/** Replaces a cache file (and drops those of earlier builds); exclusive temp file + rename, never a partial file. */
function writeCache(file: string, data: Buffer): void {
  const dir = join(file, '..');
  const build = /^cli-code-[0-9a-f]+-/.exec(basename(file))?.[0];
  try {
    const problem = writeTrusted(file, data);
    if (problem) return warnUntrusted(problem);
    for (const old of readdirSync(dir)) if (/^cli-code-[0-9a-f]+-[a-z]+\.bin$/.test(old) && !old.startsWith(build ?? '-')) unlinkSync(join(dir, old));
  } catch {
    // no cache this time (read-only, full disk): the next run compiles again
  }
}

/**
 * Node's module class, as `module.constructor`: importing `node:module` would load (and compile) the ES module
 * loader and source-map support besides, a millisecond of every start.
 */
const Module = module.constructor as unknown as {
  new (id: string, parent: NodeModule): NodeModule;
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
};

/**
 * `usage` where nothing it depends on changed since a run kept its answer (src/node/usage/answerMemo.ts): that
 * output again, after a stat call per path the scan looked at, without loading the scanner. `--no-cache` never.
 */
function replayUsage(): boolean {
  const args = process.argv.slice(3);
  if (process.argv[2] !== 'usage' || args.some((a) => a === '--no-cache' || a === '--help' || a === '-h')) return false;
  let answer;
  try {
    answer = replayableAnswer(answerMemoPath(process.env, home), answerKey(bundle, args, process.cwd()), process.env, warnUntrusted);
  } catch {
    return false;
  }
  if (answer === undefined) return false;
  writeOut(1, answer);
  return true;
}

/** Runs the bundle from the code cache (and saves the cache at exit when it had none that V8 took). */
function runBundle(): void {
  const source = readFileSync(bundle, 'utf8');
  let file: string | undefined;
  try { file = cacheFile(); } catch { file = undefined; }
  const cached = readCache(file);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- not loaded when an answer is replayed
  const { Script } = require('node:vm') as typeof import('node:vm');
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData: cached });
  if (file && (!cached || script.cachedDataRejected === true)) {
    const to = file;
    process.once('exit', () => writeCache(to, script.createCachedData()));
  }

  // The bundle runs as the main module would: its own `module`, `require` (relative to dist/) and __dirname.
  const main = new Module(bundle, module);
  require.cache[bundle] = main;
  main.filename = bundle;
  main.paths = Module._nodeModulePaths(__dirname);
  const load = ((id: string) => main.require(id)) as NodeJS.Require;
  Object.assign(load, { main, cache: require.cache, resolve: (id: string) => require.resolve(id, { paths: [__dirname] }) });
  (script.runInThisContext() as (...args: unknown[]) => void).call(main.exports, main.exports, load, main, bundle, __dirname);
}

if (!replayUsage()) runBundle();
