// Runs the eval over many files: in worker threads (--jobs N) or in process, with progress and a clean stop.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { summarizeByStrategy } from '../../core/eval/aggregate';
import { emptyRow } from '../../core/eval/row';
import { STRATEGIES, type EvalReport, type EvalRow } from '../../core/eval/types';
import { summarizeSegments } from '../../core/eval/vendorSummary';
import { evalFile, failureText, type EvalConfig } from './strategies';
import type { FromWorker, ToWorker } from './worker';

export interface EvalProgress { readonly done: number; readonly total: number; readonly elapsedMs: number; readonly etaMs?: number; readonly file?: string }

export interface RunEvalOptions {
  readonly files: readonly string[];
  readonly config: EvalConfig;
  /** Files evaluated at once; above 1 each runs in a worker thread. */
  readonly jobs: number;
  /** Stop: no new file starts, files in flight are dropped, the report holds what finished. */
  readonly signal: AbortSignal;
  readonly onProgress?: (p: EvalProgress) => void;
  readonly warnings?: readonly string[];
}

/**
 * Workers beyond the core count only compete for the same cores and each holds its own heap (300 workers: 3.6 GB
 * and 7× slower than 2): a higher --jobs is lowered, with a one-line note for the user.
 */
export function cappedJobs(requested: number, cores = os.availableParallelism()): { jobs: number; note?: string } {
  const jobs = Math.max(1, Math.min(requested, cores));
  return requested > cores ? { jobs, note: `eval: --jobs ${requested} is more than this machine's ${cores} cores; running ${jobs}` } : { jobs };
}

/** Where the worker's code is: the bundle's dist/evalWorker.js, or (tests, tsx) the TypeScript source. */
function startWorker(config: EvalConfig): Worker {
  if (__filename.endsWith('.ts')) {
    const src = path.join(__dirname, 'worker.ts');
    return new Worker(`require('tsx/cjs'); require(${JSON.stringify(src)});`, { eval: true, workerData: { config } });
  }
  // dist/extension.js has it beside; the CLI's dist/cli/eval.js one folder up.
  const beside = path.join(__dirname, 'evalWorker.js');
  return new Worker(existsSync(beside) ? beside : path.join(__dirname, '..', 'evalWorker.js'), { workerData: { config } });
}

/**
 * With --resume-check, every file's throwaway agent home (and with vendor, the segments cut from each file) goes into one folder of this run, removed when it ends — also
 * on a second Ctrl-C (process.exit) or when a worker is terminated mid-check, which cannot clean up after itself.
 */
export async function runEval(options: RunEvalOptions): Promise<EvalReport> {
  const vendor = options.config.strategies.includes('vendor');
  if (!options.config.resumeCheck && !vendor) return runEvalIn(options);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cc-eval-'));
  // Workers may still be writing into it (a process.exit stops them only after the exit handlers): they are told to
  // stop first, and the removal is retried until the folder stays gone (a second, up to a second).
  const remove = (): void => {
    for (const w of liveWorkers) void w.terminate();
    for (let i = 0; i < 100 && existsSync(dir); i++) {
      try { rmSync(dir, { recursive: true, force: true }); } catch { /* a worker wrote into it meanwhile: again */ }
      if (existsSync(dir)) Atomics.wait(pause, 0, 0, 10);
    }
  };
  process.once('exit', remove);
  try {
    return await runEvalIn({ ...options, config: { ...options.config, ...(options.config.resumeCheck ? { resumeCheckDir: dir } : {}), ...(vendor ? { segmentDir: dir } : {}) } });
  } finally {
    process.removeListener('exit', remove);
    remove();
  }
}

async function runEvalIn(o: RunEvalOptions): Promise<EvalReport> {
  const started = performance.now();
  const byFile = new Map<string, EvalRow[]>();
  const total = o.files.length;
  const progress = (file?: string): void => {
    const done = byFile.size;
    const elapsedMs = performance.now() - started;
    o.onProgress?.({ done, total, elapsedMs, ...(done > 0 ? { etaMs: (elapsedMs / done) * (total - done) } : {}), ...(file ? { file } : {}) });
  };
  const finish = (file: string, rows: EvalRow[]): void => {
    byFile.set(file, rows);
    progress(file);
  };
  progress();
  if (o.jobs <= 1 || total <= 1) {
    for (const file of o.files) {
      if (o.signal.aborted) break;
      const rows = await evalFile(file, o.config, o.signal);
      if (!o.signal.aborted) finish(file, rows);
    }
  } else {
    await inWorkers(o, finish);
  }
  const order = new Map(o.files.map((f, i) => [f, i]));
  // A file's whole-file rows first, then its segments (vendor) in order.
  const rows = [...byFile.values()].flat().sort((a, b) => order.get(a.file)! - order.get(b.file)! || (a.segment?.index ?? 0) - (b.segment?.index ?? 0) || STRATEGIES.indexOf(a.strategy) - STRATEGIES.indexOf(b.strategy));
  const whole = rows.filter((r) => !r.segment);
  const provider = o.config.summary && o.config.summary.provider !== 'none' ? { id: o.config.summary.provider, model: o.config.summary.model } : undefined;
  return {
    strategies: o.config.strategies, ...(provider ? { provider } : {}), threshold: o.config.threshold, ...(o.config.resumeCheck ? { resumeCheck: true } : {}), files: byFile.size, interrupted: o.signal.aborted && byFile.size < total,
    durationMs: Math.round(performance.now() - started), rows, summary: summarizeByStrategy(whole, o.config.strategies.filter((s) => s !== 'vendor')),
    ...(o.config.strategies.includes('vendor') ? { segments: summarizeSegments(rows, o.config.strategies) } : {}), warnings: [...(o.warnings ?? [])],
  };
}

/** Every eval worker alive in this process: stopped before the run's temp folder is removed on a hard exit. */
const liveWorkers = new Set<Worker>();
const pause = new Int32Array(new SharedArrayBuffer(4));

/** A pool of workers fed one file at a time; a worker that dies fails its file's rows and is replaced. */
function inWorkers(o: RunEvalOptions, finish: (file: string, rows: EvalRow[]) => void): Promise<void> {
  // Largest first: the biggest transcript starting last would leave the other workers idle at the end.
  const size = new Map(o.files.map((f) => [f, sizeOf(f)]));
  const queue = [...o.files].sort((a, b) => size.get(b)! - size.get(a)!);
  const busy = new Map<Worker, string>();
  const all = new Set<Worker>();
  return new Promise<void>((resolve) => {
    let closed = false;
    const done = (): void => {
      if (closed) return;
      closed = true;
      o.signal.removeEventListener('abort', stop);
      const workers = [...all];
      all.clear();
      void Promise.all(workers.map((w) => w.terminate())).then(() => resolve());
    };
    const feed = (w: Worker): void => {
      const file = o.signal.aborted ? undefined : queue.shift();
      if (file === undefined) {
        busy.delete(w);
        if (busy.size === 0) done();
        return;
      }
      busy.set(w, file);
      w.postMessage({ type: 'file', file } satisfies ToWorker);
    };
    const spawn = (): void => {
      const w = startWorker(o.config);
      all.add(w);
      liveWorkers.add(w);
      w.once('exit', () => liveWorkers.delete(w));
      w.on('message', (m: FromWorker) => {
        if (m.type === 'rows' && !o.signal.aborted) finish(m.file, m.rows);
        feed(w);
      });
      let failure: unknown;
      w.on('error', (e) => { failure = e; });
      // A worker that crashed (out of memory, a native fault): its file fails, a new worker takes the queue.
      w.on('exit', (code) => {
        if (closed || !all.delete(w)) return;
        const file = busy.get(w);
        busy.delete(w);
        if (file !== undefined && !o.signal.aborted) finish(file, o.config.strategies.map((s) => emptyRow(file, 'unknown', s, 'failed', `worker stopped: ${failure ? failureText(failure) : `exit code ${code}`}`)));
        if (queue.length > 0 && !o.signal.aborted) spawn();
        else if (busy.size === 0) done();
      });
      feed(w);
    };
    // Ctrl-C / cancel: workers abort their calls; what finished stays, the rest is dropped.
    const stop = (): void => {
      for (const w of all) w.postMessage({ type: 'abort' } satisfies ToWorker);
      setTimeout(done, 200).unref();
    };
    o.signal.addEventListener('abort', stop, { once: true });
    const n = Math.min(cappedJobs(o.jobs).jobs, queue.length);
    for (let i = 0; i < n; i++) spawn();
  });
}

function sizeOf(file: string): number {
  try { return statSync(file).size; } catch { return 0; }
}
