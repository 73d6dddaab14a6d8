// The `vendor` strategy: a transcript is cut before each of its agent's own compactions; on each segment ours run
// beside what the agent kept, measured the same way (history cut against the segment, probes read from the segment).
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Probe } from '../../core/probes/types';
import { emptyRow, okRow } from '../../core/eval/row';
import type { EvalRow } from '../../core/eval/types';
import { vendorNotes } from '../../core/eval/vendorOutput';
import type { FormatId, Session } from '../../core/model/transcript';
import { readTranscriptFile } from '../readTranscriptFile';
import { measureOutput } from './measureOutput';
import { agentCompactions, type SegmentFiles } from './segments';

/** What the agent held right after the compaction (our reader applies it, as the agent does on resume), measured against the segment. */
export async function vendorRow(seg: SegmentFiles, segment: Session, probes: readonly Probe[], t0: number): Promise<EvalRow> {
  const { session: held } = await readTranscriptFile(seg.vendor);
  // A Claude Code summary record whose text cannot be read is a broken file, not an agent that kept nothing: as a
  // row it would read as a 100 % cut that kept 0 % of the probes.
  const c = seg.compaction;
  if (c.agent === 'claude-code' && !c.noSummary && !held.messages.some((m) => m.blocks.some((b) => b.type === 'summary' && b.text.trim()))) {
    return emptyRow(seg.segment, segment.format, 'vendor', 'failed', "the agent's summary record holds no readable text", performance.now() - t0);
  }
  return okRow({
    file: seg.segment, format: segment.format, strategy: 'vendor', durationMs: performance.now() - t0,
    ...measureOutput(segment, held, probes), notes: vendorNotes(seg.compaction),
  });
}

export interface WholeFile { readonly file: string; readonly format: FormatId | 'unknown'; readonly title?: string }

/** The agents whose transcript keeps what came before their compaction, in lines our cut can end at (segments.ts). */
const AGENTS_READ = new Set<string>(['claude-code', 'codex', 'qwen-code', 'droid', 'copilot-cli', 'unknown']);

/**
 * One row per strategy and compaction, named after the whole file (`segment` says which compaction); a session the
 * agent never compacted gets one skipped vendor row. Segment files live in a folder of `dir` removed before returning.
 */
export async function vendorRows(whole: WholeFile, dir: string | undefined, signal: AbortSignal, run: (s: SegmentFiles) => Promise<EvalRow[]>): Promise<EvalRow[]> {
  const t0 = performance.now();
  const one = (status: 'skipped' | 'failed', why: string): EvalRow[] => [{ ...emptyRow(whole.file, whole.format, 'vendor', status, why, performance.now() - t0), ...(whole.title ? { title: whole.title } : {}) }];
  if (!AGENTS_READ.has(whole.format)) return one('skipped', "the agent's own compaction is read from Claude Code, Codex, Qwen Code, Copilot CLI and Factory Droid transcripts only");
  let found;
  try { found = await agentCompactions(whole.file); } catch (e) {
    return one('failed', `cannot cut at the agent's compactions: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const n = found.compactions.length;
  if (n === 0) return one('skipped', 'the agent never compacted this session');
  const tmp = await mkdtemp(path.join(dir ?? os.tmpdir(), 'cc-segments-'));
  const rows: EvalRow[] = [];
  try {
    for (let k = 0; k < n && !signal.aborted; k++) {
      const files = await found.write(k, tmp);
      const c = files.compaction;
      const segment = { index: k + 1, of: n, ...(c.encrypted ? { encrypted: true } : {}) };
      for (const r of await run(files)) {
        rows.push({ ...r, file: whole.file, ...(whole.format !== 'unknown' ? { format: whole.format } : {}), ...(whole.title ?? r.title ? { title: whole.title ?? r.title } : {}), segment });
      }
      // Each segment is a prefix of the file: gone before the next is written, so a long session costs one at a time.
      await Promise.all([path.dirname(files.segment), path.dirname(files.vendor)].map((d) => rm(d, { recursive: true, force: true })));
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return rows;
}
