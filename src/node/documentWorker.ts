// Worker-thread entry (dist/documentWorker.js): runs the document jobs the extension host posts, one at a time.
import { parentPort } from 'node:worker_threads';
import { type DocumentJob, runDocumentJob } from './documentJobs';

const port = parentPort;
port?.on('message', ({ id, job }: { id: number; job: DocumentJob }) => {
  try {
    port.postMessage({ id, ok: runDocumentJob(job) });
  } catch (e) {
    port.postMessage({ id, error: ((e as Error)?.message ?? String(e)).split('\n')[0] });
  }
});
