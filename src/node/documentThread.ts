// Where document sessions are read: on a worker thread once the extension host starts one (a Goose or OpenCode store,
// a Cline task or a big Gemini chat is read and parsed whole, synchronously: seconds for a big one, which would freeze
// every extension), else here (the CLI, tests). One worker, one job at a time, started on first use.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { type AnswerOf, type DocumentJob, runDocumentJob } from './documentJobs';

type Pending = { op: DocumentJob['op']; resolve(v: unknown): void; reject(e: Error): void };

/** The document worker of this process, its script and the jobs it has not answered yet. */
class DocumentThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** Jobs the worker answered, by kind (tests: proof the work left this thread). */
  readonly answered = new Map<DocumentJob['op'], number>();

  constructor(private readonly script: string) {}

  async run<J extends DocumentJob>(job: J): Promise<AnswerOf<J>> {
    const worker = this.worker ?? await this.start();
    const id = this.nextId++;
    return new Promise<AnswerOf<J>>((resolve, reject) => {
      this.pending.set(id, { op: job.op, resolve: resolve as (v: unknown) => void, reject });
      // Kept alive only while it owes an answer: an idle worker never holds a process (a CLI, a test) open.
      worker.ref();
      worker.postMessage({ id, job });
    });
  }

  private async start(): Promise<Worker> {
    // Loaded on first use: the CLI, which never starts one, does not pay for worker_threads.
    const { Worker: WorkerClass } = await import('node:worker_threads');
    if (this.worker) return this.worker; // another job started it meanwhile
    // No execArgv: the host's own flags (an extension host's inspector) are not all valid in a worker.
    const worker = new WorkerClass(this.script, { execArgv: [] });
    worker.unref();
    worker.on('message', (m: { id: number; ok?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      this.answered.set(p.op, (this.answered.get(p.op) ?? 0) + 1);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.ok);
    });
    // A worker that dies (out of memory on a hostile store, say) fails the jobs it held, not the host: the next job
    // starts a new one.
    const fail = (why: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(new Error(`the reading thread stopped (${why})`));
      this.pending.clear();
    };
    worker.on('error', (e) => fail(e.message.split('\n')[0] ?? 'error'));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('the reading thread was stopped'));
    this.pending.clear();
    await worker?.terminate();
  }
}

let thread: DocumentThread | undefined;

/** dist/documentWorker.js beside the bundle running this code, when it is there (not when run from sources). */
export function bundledDocumentWorker(): string | undefined {
  const script = join(__dirname, 'documentWorker.js');
  return existsSync(script) ? script : undefined;
}

/**
 * From now on document sessions are read on a worker running `script` (the extension host, at activation); dispose
 * to stop it and read here again.
 */
export function useDocumentThread(script: string): { dispose(): Promise<void>; answered(op?: DocumentJob['op']): number } {
  const mine = new DocumentThread(script);
  void thread?.stop();
  thread = mine;
  return {
    answered: (op) => (op ? mine.answered.get(op) ?? 0 : [...mine.answered.values()].reduce((a, b) => a + b, 0)),
    dispose: async () => {
      if (thread === mine) thread = undefined;
      await mine.stop();
    },
  };
}

/** Runs a document job on the worker when there is one, else here (synchronously, as the CLI always has). */
export async function documentJob<J extends DocumentJob>(job: J): Promise<AnswerOf<J>> {
  return thread ? thread.run(job) : runDocumentJob(job);
}

/** Whether document jobs leave this thread. */
export const documentThreadActive = (): boolean => thread !== undefined;
