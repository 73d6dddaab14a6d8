// The extension host's document thread (src/node/documentThread.ts): a 20 MB Cline task (the real Cline CLI fixture's
// conversation repeated) read on this thread and on the worker, in the same rounds: how long the read takes, and the
// longest stretch this thread could not turn its event loop (what a user of the extension host waits for).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSync } from 'esbuild';
import { useDocumentThread } from '../src/node/documentThread';
import { readTranscriptFile } from '../src/node/readTranscriptFile';
import { CLINE_4TURNS } from '../test/support/clineFixtures';
import { mb, ms, textTable, x, type Bench } from './lib/harness';

const COPIES = 40;
const RUNS = 5;

/** A task folder of COPIES × the fixture's conversation; its size. */
function bigTask(dir: string): { task: string; bytes: number } {
  const task = path.join(dir, path.basename(CLINE_4TURNS));
  fs.cpSync(CLINE_4TURNS, task, { recursive: true });
  let bytes = 0;
  for (const name of ['api_conversation_history.json', 'ui_messages.json']) {
    const items = JSON.parse(fs.readFileSync(path.join(task, name), 'utf8')) as unknown[];
    const text = JSON.stringify(Array.from({ length: COPIES }, () => items).flat());
    fs.writeFileSync(path.join(task, name), text);
    bytes += Buffer.byteLength(text);
  }
  return { task, bytes };
}

/**
 * Runs `work` while measuring the longest gap between two ticks of a 1 ms interval on this thread (a timer, not a
 * setImmediate loop: a busy loop would take a core from the worker being measured).
 */
async function longestBlock(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(tick, 1);
  try { await work(); } finally { clearInterval(timer); }
  tick();
  return longest;
}

export const bench: Bench = {
  name: 'documentThread',
  description: 'a 20 MB Cline task read on the extension host\'s thread vs its document thread: read time, longest block of this thread',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-docthread-'));
    try {
      const { task, bytes } = bigTask(dir);
      const script = path.join(dir, 'documentWorker.js');
      buildSync({ entryPoints: [path.join(__dirname, '../src/node/documentWorker.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: script, logLevel: 'error' });
      const small = path.join(dir, 'small');
      fs.cpSync(CLINE_4TURNS, small, { recursive: true });
      const ways = {
        here: { label: 'on this thread (baseline)', ms: [] as number[], block: [] as number[] },
        cold: { label: 'document thread, started for it', ms: [] as number[], block: [] as number[] },
        warm: { label: 'document thread, already running', ms: [] as number[], block: [] as number[] },
      };
      const timed = async (way: keyof typeof ways): Promise<void> => {
        const t0 = performance.now();
        ways[way].block.push(await longestBlock(() => readTranscriptFile(task)));
        ways[way].ms.push(performance.now() - t0);
      };
      // Interleaved rounds (the same machine load for each way), the first one unrecorded.
      for (let round = 0; round <= RUNS; round++) {
        await timed('here');
        const cold = useDocumentThread(script);
        try { await timed('cold'); } finally { await cold.dispose(); }
        // The extension host keeps its worker: a read after the first finds it started.
        const warm = useDocumentThread(script);
        try { await readTranscriptFile(small); await timed('warm'); } finally { await warm.dispose(); }
        if (round === 0) for (const w of Object.values(ways)) { w.ms.length = 0; w.block.length = 0; }
      }
      const median = (a: number[]): number => [...a].sort((p, q) => p - q)[Math.floor(a.length / 2)]!;
      const figures = Object.fromEntries(Object.entries(ways).map(([k, w]) => [k, { medianMs: median(w.ms), longestBlockMs: Math.max(...w.block), runsMs: w.ms }]));
      const base = figures.here!;
      const rows = Object.entries(ways).map(([k, w]) => [w.label, ms(figures[k]!.medianMs), x(figures[k]!.medianMs / base.medianMs), ms(figures[k]!.longestBlockMs), x(figures[k]!.longestBlockMs / base.longestBlockMs)]);
      const text = textTable(`${mb(bytes)} Cline task, ${RUNS} interleaved rounds (median read; longest block of this thread over the rounds)`, ['read', 'time', 'vs baseline', 'longest block', 'vs baseline'], rows);
      return { text, data: { bytes, ...figures } };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
