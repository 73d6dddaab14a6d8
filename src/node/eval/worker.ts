// Worker thread of `eval --jobs N`: evaluates the files it is sent, one at a time, and posts their rows back.
import { parentPort, workerData } from 'node:worker_threads';
import { emptyRow } from '../../core/eval/row';
import { evalFile, failureText, type EvalConfig } from './strategies';

export type ToWorker = { readonly type: 'file'; readonly file: string } | { readonly type: 'abort' };
export type FromWorker = { readonly type: 'rows'; readonly file: string; readonly rows: ReturnType<typeof emptyRow>[] };

const config = (workerData as { config: EvalConfig }).config;
const abort = new AbortController();

parentPort?.on('message', (m: ToWorker) => {
  if (m.type === 'abort') return abort.abort();
  void evalFile(m.file, config, abort.signal).then(
    (rows) => parentPort!.postMessage({ type: 'rows', file: m.file, rows } satisfies FromWorker),
    (e: unknown) => parentPort!.postMessage({ type: 'rows', file: m.file, rows: config.strategies.map((s) => emptyRow(m.file, 'unknown', s, 'failed', failureText(e))) } satisfies FromWorker),
  );
});
