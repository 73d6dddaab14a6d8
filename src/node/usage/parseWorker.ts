// Worker-thread entry (dist/usageWorker.js): parses the jobs it claims from the shared counter, posts each result.
import { parentPort, workerData } from 'node:worker_threads';
import { runClaimed, type WorkerInput } from './parseJobs';

const input = workerData as WorkerInput;
const port = parentPort;
if (port) {
  runClaimed(input.jobs, new Int32Array(input.next), input.prefilter, (result) => port.postMessage(result)).then(
    () => port.postMessage({ done: true }),
    (e: unknown) => port.postMessage({ failed: e instanceof Error ? e.message : String(e) }),
  );
}
