// The Sessions view's search and the host it runs in: a cold search of the usage bench corpus (~230 MB) started the
// way "Search sessions…" starts it (src/node/search/searchJob.ts), on its worker thread (dist/searchWorker.js) and, as
// the same-run baseline, in the calling thread; measured: how long the caller's event loop was held at most (what
// freezes VS Code's extension host: every extension, every command), and the search's own time.
// Run: npm run bench -- searchHost   (BENCH_SEARCH_HOST_RUNS=2; needs `npm run build`)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Bench } from './lib/harness';
import { textTable, x } from './lib/harness';
import { buildCorpus } from './usage.bench';
import { startSearch } from '../src/node/search/searchJob';

const WORKER = resolve(__dirname, '../dist/searchWorker.js');
const RUNS = Number(process.env.BENCH_SEARCH_HOST_RUNS ?? 2);

/** Runs one cold search; the longest gap between 5 ms ticks of this thread while it ran, and its wall time. */
async function coldSearch(root: string, script: string | undefined): Promise<{ stallMs: number; ms: number; sessions: number }> {
  const cache = mkdtempSync(join(tmpdir(), 'cc-search-host-bench-'));
  try {
    const env = { PATH: process.env.PATH, HOME: root, CLAUDE_CONFIG_DIR: root, CODEX_HOME: join(root, 'codex'), XDG_CACHE_HOME: cache };
    let last = performance.now();
    let stall = 0;
    const tick = setInterval(() => { const now = performance.now(); stall = Math.max(stall, now - last); last = now; }, 5);
    const t0 = performance.now();
    const job = startSearch({ env, text: 'permission', regex: false, extraDirs: [], useCache: true, limit: 5 }, () => undefined, script);
    const result = await job.result;
    const ms = performance.now() - t0;
    clearInterval(tick);
    stall = Math.max(stall, performance.now() - last);
    if ((script !== undefined) !== job.threaded()) throw new Error(`expected ${script ? 'the worker' : 'this thread'}`);
    return { stallMs: stall, ms, sessions: result.stats.indexed };
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function run(): Promise<{ text: string; data: unknown }> {
  if (!existsSync(WORKER)) throw new Error('no dist/searchWorker.js: run npm run build first');
  const { root, bytes } = await buildCorpus();
  const worker: { stallMs: number; ms: number; sessions: number }[] = [];
  const thread: typeof worker = [];
  // Interleaved, so a busy moment of the machine falls on both.
  for (let i = 0; i < RUNS; i++) {
    worker.push(await coldSearch(root, WORKER));
    thread.push(await coldSearch(root, undefined));
  }
  const w = { stall: median(worker.map((r) => r.stallMs)), ms: median(worker.map((r) => r.ms)) };
  const t = { stall: median(thread.map((r) => r.stallMs)), ms: median(thread.map((r) => r.ms)) };
  const data = { sessions: worker[0]!.sessions, bytes, workerStallMs: Math.round(w.stall), threadStallMs: Math.round(t.stall), workerMs: Math.round(w.ms), threadMs: Math.round(t.ms), stallRatio: Math.round((w.stall / t.stall) * 1000) / 1000 };
  const rows = [
    ['on the worker thread (what VS Code runs)', w.stall.toFixed(0), x(w.stall / t.stall), w.ms.toFixed(0), x(w.ms / t.ms)],
    ['in the calling thread (baseline, same rounds)', t.stall.toFixed(0), '1.00×', t.ms.toFixed(0), '1.00×'],
  ];
  return { text: textTable(`cold search of ${worker[0]!.sessions} sessions (${(bytes / 2 ** 20).toFixed(0)} MB), median of ${RUNS}`, ['run', 'longest stall of the caller, ms', 'vs baseline', 'search ms', 'vs baseline'], rows), data };
}

export const bench: Bench = { name: 'searchHost', description: 'a cold search as VS Code runs it: the caller\'s longest event-loop stall, worker vs in-thread', run };
