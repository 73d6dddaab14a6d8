// Runs a scan's parse jobs on this thread and, when there is enough to read, on one worker thread as well.
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { FileState } from '../../core/usage/types';
import { parseFrom, type ParseCounters } from './parseFile';

export interface ParseJob {
  path: string;
  offset: number;
  state: FileState;
  /** Bytes from offset to the end of the file when planned: the biggest go first, and the sum decides on a worker. */
  bytes: number;
}

export interface JobResult {
  i: number;
  offset?: number;
  state?: FileState;
  /** Set when the file could not be read (the code, e.g. ENOENT): the file is skipped with a warning. */
  error?: string;
  counters: ParseCounters;
  warnings: string[];
  /** Parsed on the worker thread. */
  byWorker?: boolean;
}

export interface WorkerInput {
  jobs: ParseJob[];
  /** One Int32: the index of the next unclaimed job, shared by both threads (Atomics.add). */
  next: SharedArrayBuffer;
  prefilter: boolean;
}

/**
 * 'auto': a worker when there are 16 MB or more to parse, more than two cores, and one idle (load average at most
 * the core count minus one: on a machine busy with other work a second thread only competes, measured slower). On two
 * cores a second thread was slower even on an idle machine (244 MB bench corpus, same runs: 407 vs 340, 461 vs 404,
 * 488 vs 413 ms): reading and searching is memory-bound there and the worker's start-up is not won back.
 * 'always': a worker whatever the size or load (tests); 'only': the worker parses every job, this thread none (tests).
 */
export type WorkerMode = 'auto' | 'always' | 'only' | 'never';

export interface RunOptions {
  prefilter: boolean;
  /** The bundled worker (dist/usageWorker.js next to this bundle by default; none when run from sources). */
  workerScript?: string;
  worker?: WorkerMode;
}

const WORKER_MIN_BYTES = 16 << 20;

export function wantWorker(mode: WorkerMode, bytes: number, cores = availableParallelism(), load = loadavg()[0]): boolean {
  if (mode === 'never') return false;
  if (mode !== 'auto') return true;
  return cores > 2 && bytes >= WORKER_MIN_BYTES && load <= cores - 1;
}

const errText = (e: unknown): string => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : String(e));

async function parseJob(jobs: readonly ParseJob[], i: number, prefilter: boolean): Promise<JobResult> {
  const counters: ParseCounters = { bytesRead: 0, linesParsed: 0, linesSkipped: 0 };
  const warnings: string[] = [];
  const { path, offset, state } = jobs[i];
  try {
    return { i, offset: await parseFrom(path, offset, state, counters, prefilter, warnings), state, counters, warnings };
  } catch (e) {
    return { i, error: errText(e), counters, warnings };
  }
}

/** Claims jobs through `next` until none are left and parses each; the same loop runs on both threads. */
export async function runClaimed(jobs: readonly ParseJob[], next: Int32Array, prefilter: boolean, done: (r: JobResult) => void): Promise<void> {
  for (let i = Atomics.add(next, 0, 1); i < jobs.length; i = Atomics.add(next, 0, 1)) done(await parseJob(jobs, i, prefilter));
}

function defaultWorkerScript(): string | undefined {
  const script = join(__dirname, 'usageWorker.js');
  return existsSync(script) ? script : undefined;
}

/**
 * Starts the worker; the promise inside resolves once it has answered every job it claimed, or has failed (its jobs
 * are then redone here).
 */
async function startWorker(script: string, input: WorkerInput, keep: (r: JobResult) => void): Promise<{ finished: Promise<void> }> {
  // Loaded here: worker_threads costs a warm `usage` (which never starts a worker) ~2 ms of start-up.
  const { Worker } = await import('node:worker_threads');
  const finished = new Promise<void>((resolve) => {
    let worker: InstanceType<typeof Worker>;
    try {
      // No execArgv: the host's own flags (an extension host's inspector, say) are not all valid in a worker.
      worker = new Worker(script, { workerData: input, execArgv: [] });
    } catch {
      resolve();
      return;
    }
    worker.on('message', (m: JobResult | { done: true } | { failed: string }) => {
      if ('i' in m) keep({ ...m, byWorker: true });
      else resolve();
    });
    worker.on('error', () => resolve());
    worker.on('exit', () => resolve());
  });
  return { finished };
}

/** Parses every job; the results are in job order. Jobs are best sorted biggest first. */
export async function runParseJobs(jobs: ParseJob[], opts: RunOptions): Promise<JobResult[]> {
  const results: (JobResult | undefined)[] = new Array<JobResult | undefined>(jobs.length);
  const keep = (r: JobResult): void => { results[r.i] = r; };
  const input: WorkerInput = { jobs, next: new SharedArrayBuffer(4), prefilter: opts.prefilter };
  const mode = opts.worker ?? 'auto';
  const script = wantWorker(mode, jobs.reduce((n, j) => n + j.bytes, 0)) ? (opts.workerScript ?? defaultWorkerScript()) : undefined;
  const helper = script ? await startWorker(script, input, keep) : undefined;
  if (!(helper && mode === 'only')) await runClaimed(jobs, new Int32Array(input.next), opts.prefilter, keep);
  if (helper) await helper.finished;
  for (let i = 0; i < jobs.length; i++) results[i] ??= await parseJob(jobs, i, opts.prefilter);
  return results as JobResult[];
}
