// Where a compaction's time goes: each stage of core/compact/stages.ts timed on its own (best of N), so a ratio
// against the parse floor can be read stage by stage instead of guessed from a profile.
import { performance } from 'node:perf_hooks';
import { extractIdentifiers, identifierText, withIdentifierMemo } from '../../src/core/cleanup/identifiers';
import { compactSession } from '../../src/core/compact/compactSession';
import { cleanStage } from '../../src/core/compact/stages';
import type { CleanupOptions } from '../../src/core/cleanup/types';
import { serializeLines } from '../../src/core/write/serialize';
import { writeFileAtomic } from '../../src/node/atomicWrite';
import { readTranscriptFile } from '../../src/node/readTranscriptFile';

export interface StageTimes {
  readonly read: number;
  readonly clean: number;
  /** The identifier scan of the changed blocks, done inside `clean` (shown apart: it is most of it). */
  readonly identifiers: number;
  readonly measure: number;
  readonly render: number;
  /** Temp file, every byte, fsync, rename, folder fsync. */
  readonly write: number;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Best time of each stage over `runs` compactions of `path` (cleanup only, as the bench's compact row). */
export async function stageTimes(path: string, out: string, cleanup: CleanupOptions, runs: number): Promise<StageTimes> {
  const best: Record<keyof StageTimes, number> = { read: Infinity, clean: Infinity, identifiers: Infinity, measure: Infinity, render: Infinity, write: Infinity };
  const time = async <T>(stage: keyof StageTimes, fn: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const r = await fn();
    best[stage] = Math.min(best[stage], performance.now() - t0);
    return r;
  };
  for (let i = 0; i < runs; i++) {
    gc();
    const { session } = await time('read', () => readTranscriptFile(path, { keepRaw: true }));
    const cleaned = await time('clean', () => cleanStage(session, cleanup));
    // The same scan again, as clean runs it (clean's results are cached per block, so time the function itself).
    await time('identifiers', () => withIdentifierMemo(() => {
      for (const b of cleaned.changedOriginals) extractIdentifiers(identifierText(b), new Set(), { errorLines: b.type === 'tool_result' && b.isError });
    }));
    let n = 0;
    const outcome = compactSession(session, cleanup, { newId: () => `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`, now: () => new Date(0) }, undefined, cleaned);
    await time('measure', () => outcome.figures);
    const written = await time('render', () => outcome.written);
    if (written.kind !== 'lines') throw new Error(`${path}: expected a JSONL session`);
    await time('write', () => writeFileAtomic(out, serializeLines(written.lines), { protect: [path], createDir: false }));
  }
  return best;
}
