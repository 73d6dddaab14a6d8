// Child-process entry for peak-RSS runs: `child MODE FILE` does one job and prints one JSON line.
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { prepareCompaction, writeCompaction } from '../../src/node/compactFile';
import { inspectReport } from '../../src/node/inspectFile';
import { floorRead } from './floor';

export interface ChildResult {
  readonly mode: string;
  readonly ms: number;
  /** process.resourceUsage().maxRSS, converted from KiB to bytes. */
  readonly maxRssBytes: number;
  readonly heapUsedBytes: number;
}

async function main(mode: string, file: string): Promise<void> {
  const t0 = performance.now();
  let keep: unknown;
  if (mode === 'floor') keep = await floorRead(file);
  else if (mode === 'inspect') keep = await inspectReport(file);
  else if (mode === 'compact' || mode === 'compact-strings') {
    // compact-strings: each line kept as a heap string (the core's plain path), as the baseline.
    const out = join(tmpdir(), `cc-bench-child-${process.pid}.jsonl`);
    const p = await prepareCompaction(file, { keepRecentTurns: 6 }, mode === 'compact-strings' ? { lineStore: 'strings' } : {});
    await writeCompaction(p, out);
    rmSync(out, { force: true });
    keep = p;
  }
  else if (mode !== 'idle') throw new Error(`unknown mode ${mode}`);
  const result: ChildResult = {
    mode, ms: performance.now() - t0, maxRssBytes: process.resourceUsage().maxRSS * 1024, heapUsedBytes: process.memoryUsage().heapUsed,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  void keep;
}

main(process.argv[2] ?? 'idle', process.argv[3] ?? '').catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
