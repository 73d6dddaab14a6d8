// Compacts a transcript file: read (streaming), cleanup, write a NEW transcript atomically, report.
import * as path from 'node:path';
import { compactSession, type CompactOutcome } from '../core/compact/compactSession';
import { buildCompactReport, type CompactReport } from '../core/compact/report';
import type { CleanupOptions } from '../core/cleanup/types';
import type { Session } from '../core/model/transcript';
import { serializeLines } from '../core/write/serialize';
import { resumeCommand, sessionFileName } from './agentStores';
import { writeFileAtomic } from './atomicWrite';
import { uuidV4, uuidV7 } from './ids';
import { readTranscriptFile } from './readTranscriptFile';

export interface CompactFileOptions {
  readonly cleanup: CleanupOptions;
  /** Output path; default: a new session file next to the input. */
  readonly out?: string;
}

export interface PreparedCompaction {
  readonly original: Session;
  readonly outcome: CompactOutcome;
  readonly startedAt: number;
  readonly input: string;
  /** Default output path (next to the input). */
  readonly defaultOut: string;
}

export async function prepareCompaction(input: string, cleanup: CleanupOptions): Promise<PreparedCompaction> {
  const startedAt = performance.now();
  const { session } = await readTranscriptFile(input, { keepRaw: true });
  const at = new Date();
  const newId = session.format === 'claude-code' ? uuidV4 : () => uuidV7(at.getTime());
  let first: string | undefined;
  const outcome = compactSession(session, cleanup, { newId: () => (first === undefined ? (first = newId()) : uuidV4()), now: () => at });
  return { original: session, outcome, startedAt, input, defaultOut: path.join(path.dirname(input), sessionFileName(session.format, outcome.sessionId, at)) };
}

export async function writeCompaction(p: PreparedCompaction, out: string): Promise<void> {
  if (path.resolve(out) === path.resolve(p.input)) throw new Error('refusing to overwrite the original transcript; choose another --out');
  await writeFileAtomic(out, serializeLines(p.outcome.lines));
}

export function reportOf(p: PreparedCompaction, output: string | undefined, extra: Partial<Pick<CompactReport, 'summary' | 'modelCalls' | 'fallback'>> = {}): CompactReport {
  return buildCompactReport({
    format: p.original.format, input: p.input, output, sessionId: p.outcome.sessionId,
    resumeCommand: resumeCommand(p.original.format, p.outcome.sessionId), figures: p.outcome.figures,
    modelCalls: extra.modelCalls ?? 0, fallback: extra.fallback ?? null, summary: extra.summary,
    durationMs: performance.now() - p.startedAt, warnings: p.original.warnings,
  });
}

export async function compactFile(input: string, options: CompactFileOptions): Promise<CompactReport> {
  const prepared = await prepareCompaction(input, options.cleanup);
  const out = options.out ?? prepared.defaultOut;
  await writeCompaction(prepared, out);
  return reportOf(prepared, out);
}
