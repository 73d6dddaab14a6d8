// Child of readerWarmth.test.ts: reads the bench's 8 MB Claude Code session `RUNS` times with a full GC before each
// read, as the extension host does across re-inspections; its V8 flags (--trace-opt) print each optimization.
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { inspectReport } from '../../../src/node/inspectFile';

const RUNS = Number(process.env.RUNS ?? 6);
const gc = (globalThis as { gc?: () => void }).gc;

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const dir = mkdtempSync(join(tmpdir(), 'reader-warmth-'));
  try {
    const path = join(dir, 'claude-8mb.jsonl');
    writeFileSync(path, gunzipSync(readFileSync(join(__dirname, '../../../bench/data/claude-8mb.jsonl.gz'))));
    for (let i = 0; i < RUNS; i++) {
      gc();
      process.stdout.write(`=== read ${i}\n`);
      await inspectReport(path);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
