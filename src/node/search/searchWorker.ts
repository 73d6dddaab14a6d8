// Worker-thread entry (dist/searchWorker.js): runs one search (searchJob.ts) and posts its progress and result.
import { parentPort, workerData } from 'node:worker_threads';
import { runSearchJob, type WorkerJob, type WorkerReply } from './searchJob';

const job = workerData as WorkerJob;
const port = parentPort;
if (port) {
  const flag = new Int32Array(job.cancel);
  const post = (m: WorkerReply): void => port.postMessage(m);
  let last = 0;
  runSearchJob(job, () => Atomics.load(flag, 0) === 1, (done, total, indexed) => {
    // A message per session would flood the host on a cold index of thousands: ~10 a second, and the last one.
    const now = Date.now();
    if (now - last < 100 && done !== total) return;
    last = now;
    post({ progress: [done, total, indexed] });
  }).then((result) => post({ result }), (e: unknown) => post({ failed: e instanceof Error ? e.message.split('\n')[0] : String(e) }));
}
