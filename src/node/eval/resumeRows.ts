// --resume-check on eval rows: each written output resumed by the real agent CLI, its request bytes over the original's.
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { round4 } from '../../core/probes/check';
import type { EvalRow, StrategyId } from '../../core/eval/types';
import type { FormatId } from '../../core/model/transcript';
import { sessionFileName } from '../agentStores';
import { writeCompaction, type PreparedCompaction } from '../compactFile';
import { ResumeCheck, type AgentBins } from '../resume/resumeCheck';

const note = (row: EvalRow, text: string): EvalRow => ({ ...row, notes: [...(row.notes ?? []), text] });

/**
 * Rows of strategies that write a transcript (cleanup, summary, cleanup+summary) get `resumeBytesRatio`. A copy the
 * agent cannot resume while it resumes the original fails its row; when the original does not resume either (a file
 * of an agent version the installed CLI no longer reads), the ratio is null and the rows say why.
 */
export async function withResumeCheck(
  file: string, format: FormatId | 'unknown', rows: readonly EvalRow[], written: ReadonlyMap<StrategyId, PreparedCompaction>, bins: AgentBins, signal: AbortSignal,
  tmpDir?: string,
): Promise<EvalRow[]> {
  if (!rows.some((r) => r.status === 'ok' && written.has(r.strategy))) return [...rows];
  const check = await ResumeCheck.open(file, format, bins, tmpDir);
  if (typeof check === 'string') return rows.map((r) => (written.has(r.strategy) ? note(r, check) : r));
  // One time for every copy's name: cleanup and cleanup+summary share a session id, and Codex remembers the path it
  // first found an id at, so each copy of one id must be written under the same name.
  const at = new Date();
  try {
    const out: EvalRow[] = [];
    for (const row of rows) {
      const p = written.get(row.strategy);
      if (!p || row.status !== 'ok' || signal.aborted) { out.push(row); continue; }
      const original = await check.original(signal);
      const target = path.join(check.storeDir, sessionFileName(p.original.format, p.outcome.sessionId, at));
      await writeCompaction(p, target);
      const copy = await check.resume(p.outcome.sessionId, signal);
      // cleanup and cleanup+summary share a session id: each copy is resumed, then removed.
      rmSync(target, { force: true });
      if (signal.aborted) { out.push(row); continue; }
      if (copy.ok && original.ok) out.push({ ...row, resumeBytesRatio: round4(copy.bytes / original.bytes) });
      else if (original.ok && !copy.ok) out.push({ ...row, status: 'failed', accepted: false, failure: `resume check: the copy did not resume: ${copy.why}`.slice(0, 300), resumeBytesRatio: null });
      else out.push(note({ ...row, resumeBytesRatio: null }, `resume check: the original did not resume with the installed CLI${copy.ok ? '' : ', nor did the copy'}: ${original.ok ? '' : original.why}`));
    }
    return out;
  } finally {
    await check.close();
  }
}
