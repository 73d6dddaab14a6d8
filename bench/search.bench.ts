// Search benchmark: a warm `search` over the usage bench corpus (~230 MB of real Claude Code sessions) against
// `rg -c -i -F` over the same files, both as a user runs them (one process each), in the same rounds; plus the cold
// search that builds the index. Run: npm run bench -- search   (BENCH_SEARCH_RUNS=7; needs `npm run build`, rg)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Bench } from './lib/harness';
import { interleaved, textTable, x } from './lib/harness';
import { buildCorpus } from './usage.bench';
import { makeQuery, type Query } from '../src/core/search/match';
import { searchSessions } from '../src/node/search/searchSessions';

const REPO = resolve(__dirname, '..');
const CLI = join(REPO, 'dist/cli.js');
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 7);
/** A word in most sessions, and one in none (every byte is searched and nothing printed). */
const QUERIES = ['permission', 'zqxj-nowhere'];

function spawn(cmd: string, args: string[], env: NodeJS.ProcessEnv, ok: number[]): () => void {
  return () => {
    const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
    if (r.status === null || !ok.includes(r.status)) throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  };
}

async function run(): Promise<{ text: string; data: unknown }> {
  if (spawnSync('rg', ['--version']).status !== 0) throw new Error('ripgrep (rg) is not installed: scripts/test-prereqs.sh installs it');
  const { root, bytes } = await buildCorpus();
  const files = readdirSync(join(root, 'projects'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const cache = mkdtempSync(join(tmpdir(), 'cc-search-bench-'));
  try {
    const env = { PATH: process.env.PATH, HOME: root, CLAUDE_CONFIG_DIR: root, CODEX_HOME: join(root, 'codex'), XDG_CACHE_HOME: cache };
    const t0 = performance.now();
    spawn(process.execPath, [CLI, 'search', QUERIES[0]], env, [0])();
    const coldMs = performance.now() - t0;
    const rows: string[][] = [];
    const data: Record<string, number> = { sessions: files.length, bytes, coldMs: Math.round(coldMs) };
    rows.push([`cold (builds the index: ${files.length} sessions, ${(bytes / 2 ** 20).toFixed(0)} MB)`, coldMs.toFixed(0), '', '']);
    for (const q of QUERIES) {
      // The CLI as a user runs it, and the same search inside a running process (what the Sessions view will call).
      const query = makeQuery(q, false) as Query;
      const [ours, inProcess, rg] = await interleaved(RUNS, [
        spawn(process.execPath, [CLI, 'search', q], env, [0, 1]),
        () => searchSessions({ env, query }),
        spawn('rg', ['-c', '-i', '-F', q, ...files], env, [0, 1]),
      ]);
      data[`inProcess_${q}_ms`] = Math.round(inProcess.medianMs);
      data[`warm_${q}_ms`] = Math.round(ours.medianMs);
      data[`rg_${q}_ms`] = Math.round(rg.medianMs);
      data[`ratio_${q}`] = Math.round((ours.medianMs / rg.medianMs) * 100) / 100;
      rows.push([`warm '${q}'`, ours.medianMs.toFixed(0), x(ours.medianMs / rg.medianMs), '≤ 2×']);
      rows.push([`  the same, in a running process`, inProcess.medianMs.toFixed(0), x(inProcess.medianMs / rg.medianMs), '']);
      rows.push([`  rg -c -i -F '${q}' (same files, same rounds)`, rg.medianMs.toFixed(0), '1.00×', '']);
    }
    return { text: textTable('search over the usage bench corpus (one process per run)', ['run', 'median ms', 'vs rg -c', 'target'], rows), data };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

export const bench: Bench = { name: 'search', description: 'warm search over the usage bench corpus vs rg -c on the same files', run };
