// Compaction (read with raw lines kept + cleanup + write) against the same JSONL floor, plus its figures.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompactReport } from '../src/core/compact/report';
import { compactFile } from '../src/node/compactFile';
import { benchFile } from './data';
import { floorRead } from './lib/floor';
import { interleaved, mb, ms, round1, round3, textTable, x, type Bench, type BenchOutput } from './lib/harness';

/** Target from the issue: compacting an 8 MB transcript ≤ 3× the parse floor measured in the same run. */
const TARGET = 3;

async function run(): Promise<BenchOutput> {
  const out = mkdtempSync(join(tmpdir(), 'cc-bench-compact-'));
  try {
    const rows = [];
    for (const [label, name] of [['claude 8 MB', 'claude-8mb.jsonl'], ['codex 4 MB', 'codex-4mb.jsonl']] as const) {
      const path = await benchFile(name);
      process.stderr.write(`  timing compact on ${label}…\n`);
      let report: CompactReport | undefined;
      const [floor, compact] = await interleaved(9, [() => floorRead(path), async () => { report = await compactFile(path, { cleanup: { keepRecentTurns: 6 }, out: join(out, name) }); }]);
      rows.push({ label, bytes: statSync(path).size, floor: floor!, compact: compact!, ratio: compact!.bestMs / floor!.bestMs, report: report! });
    }
    const ok = rows[0]!.ratio <= TARGET;
    const text = [
      textTable('Time: compact (read keeping raw lines + cleanup + write) vs floor (stream + split + JSON.parse), best of 9 interleaved',
        ['file', 'size', 'floor', 'compact', 'compact/floor'],
        rows.map((r) => [r.label, mb(r.bytes), ms(r.floor.bestMs), ms(r.compact.bestMs), x(r.ratio)])),
      textTable('What the compaction did (cleanup only, keep 6 model turns)',
        ['file', 'tokens before', 'after', 'reduction', 'identifier recall', 'pairs intact'],
        rows.map((r) => [r.label, r.report.before.tokens.toLocaleString('en-US'), r.report.after.tokens.toLocaleString('en-US'), `${(r.report.reduction * 100).toFixed(1)}%`, r.report.identifierRecall.toFixed(3), String(r.report.pairsIntact)])),
      `Target: compact ≤ ${TARGET}× floor on 8 MB: ${x(rows[0]!.ratio)} ${ok ? 'met' : 'MISSED'}`,
    ].join('\n\n');
    return {
      text,
      data: {
        files: rows.map((r) => ({ label: r.label, bytes: r.bytes, floorMs: round1(r.floor.bestMs), compactMs: round1(r.compact.bestMs), ratio: round3(r.ratio), reduction: r.report.reduction, identifierRecall: r.report.identifierRecall, pairsIntact: r.report.pairsIntact })),
        target: { value: round3(rows[0]!.ratio), target: TARGET, met: ok },
      },
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export const bench: Bench = { name: 'compact', description: 'compaction vs its JSONL floor, with reduction and fidelity', run };
