// A search run off the caller's thread (dist/searchWorker.js): the VS Code host stays responsive during a cold index
// of a whole store. Progress comes back as messages; a newer query cancels the older one between sessions.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeQuery } from '../../core/search/match';
import { searchSessions, type SearchResult } from './searchSessions';

/** What a search needs, as plain data (it crosses to the worker by structured clone). */
export interface SearchJobInput {
  readonly env: Record<string, string | undefined>;
  readonly text: string;
  readonly regex: boolean;
  readonly agent?: string;
  readonly project?: string;
  readonly since?: number;
  readonly extraDirs: readonly string[];
  readonly useCache: boolean;
  /** Matches listed per session. */
  readonly limit: number;
}

export interface WorkerJob extends SearchJobInput {
  /** Int32 [0]: 1 once the caller cancels. */
  readonly cancel: SharedArrayBuffer;
}

export type WorkerReply =
  | { readonly progress: readonly [done: number, total: number, indexed: number] }
  | { readonly result: SearchResult }
  | { readonly failed: string };

export interface SearchJob {
  readonly result: Promise<SearchResult>;
  /** Stops the search before its next session; its promise then resolves with what it found so far. */
  cancel(): void;
  /** Whether the search ran on a worker thread (false: in this thread, from sources or when no worker starts). */
  readonly threaded: () => boolean;
}

export type Progress = (done: number, total: number, indexed: number) => void;

/** The search itself, on whichever thread runs it. */
export async function runSearchJob(job: SearchJobInput, cancelled: () => boolean, progress: Progress): Promise<SearchResult> {
  const query = makeQuery(job.text, job.regex);
  if (typeof query === 'string') throw new Error(query);
  return searchSessions({
    env: job.env, query, agent: job.agent, project: job.project, since: job.since, limit: job.limit,
    extraDirs: [...job.extraDirs], includeDefaults: true, useCache: job.useCache, progress, cancelled,
  });
}

function defaultScript(): string | undefined {
  const script = join(__dirname, 'searchWorker.js');
  return existsSync(script) ? script : undefined;
}

export function startSearch(input: SearchJobInput, progress: Progress, script = defaultScript()): SearchJob {
  const cancel = new SharedArrayBuffer(4);
  const flag = new Int32Array(cancel);
  const cancelled = (): boolean => Atomics.load(flag, 0) === 1;
  let threaded = false;
  const inThread = (): Promise<SearchResult> => runSearchJob(input, cancelled, progress);
  const result = !script ? inThread() : import('node:worker_threads').then(({ Worker }) => new Promise<SearchResult>((resolve, reject) => {
    let worker: InstanceType<typeof Worker>;
    try {
      // No execArgv: the host's own flags (an extension host's inspector) are not all valid in a worker.
      worker = new Worker(script, { workerData: { ...input, cancel } satisfies WorkerJob, execArgv: [] });
    } catch {
      inThread().then(resolve, reject);
      return;
    }
    threaded = true;
    let settled = false;
    worker.on('message', (m: WorkerReply) => {
      if ('progress' in m) progress(...m.progress);
      else if ('result' in m) { settled = true; resolve(m.result); }
      else { settled = true; reject(new Error(m.failed)); }
    });
    worker.on('error', (e) => { if (!settled) { settled = true; reject(e); } });
    worker.on('exit', (code) => { if (!settled) { settled = true; reject(new Error(`the search worker stopped (exit code ${code})`)); } });
  }));
  return { result, cancel: () => Atomics.store(flag, 0, 1), threaded: () => threaded };
}
