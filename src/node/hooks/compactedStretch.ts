// Reads the history an agent just compacted out of its transcript, streaming: two passes, each line parsed at most once
// (the first pass parses only lines that may be a compaction's, and those after the last one until a turn shows).
import { stat } from 'node:fs/promises';
import { isTurn, keptOf, summaryOf } from '../../core/hook/boundary';
import { hookContext, hookBudget } from '../../core/hook/context';
import { hookFacts } from '../../core/hook/facts';
import { COMPACTION_MARKERS, findCompactions } from '../../core/eval/vendorCompactions';
import { FORMAT_READERS } from '../../core/formats/registry';
import type { Session } from '../../core/model/transcript';
import { createTranscriptReader } from '../../core/read/transcriptReader';
import { parseLine } from '../../core/read/safeJson';
import { forEachLine } from '../jsonlLines';

export interface CompactedStretch {
  /** The history before the compaction: since the compaction before it, that one's summary included. */
  readonly session: Session;
  /**
   * The agent's summary of this compaction, when on disk. Claude Code 2.1.328 runs the SessionStart hook before it
   * writes the boundary and the summary, so at hook time it is undefined and the stretch is the file's live tail.
   */
  readonly summary?: string;
  /** What else the agent keeps past the compaction (Codex: its replacement history), when on disk. */
  readonly kept?: string;
  /** Line index of the compaction's first record, where the stretch ends (undefined: the end of the file). */
  readonly boundaryLine?: number;
}

type Obj = Record<string, unknown>;
const asRecord = (line: string | undefined): Obj | undefined => {
  if (line === undefined) return undefined;
  try {
    const v = parseLine(line.trim());
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
};
/** Lines kept after each marked line: Claude Code writes its summary and re-attached files right after the boundary. */
const AFTER = 64;

/**
 * The stretch the agent compacted last. When the newest compaction has no turn after it, it is on disk already: the
 * stretch ends where it begins and its summary is known. Otherwise (not written yet, or the session went on since)
 * the stretch is what the agent holds now, from the last compaction on. `compaction` picks an earlier one instead
 * (0-based), for measuring every compaction of a file.
 */
export async function readCompactedStretch(path: string, compaction?: number): Promise<CompactedStretch> {
  const info = await stat(path);
  // A FIFO or a device (/dev/zero) would be read forever: only a regular file (or a link to one) is a transcript.
  if (!info.isFile()) throw new Error(`${JSON.stringify(path)} is not a regular file`);
  // forEachLine reads an `end` of 0 as "to the end": an empty file is read as empty, not to whatever it grows to.
  const size = info.size;
  if (size === 0) throw new Error(`${JSON.stringify(path)} is empty`);
  const lines = new Map<number, string>();
  const candidates: number[] = [];
  let keepUntil = -1;
  let turnAfterLast = false;
  let i = 0;
  await forEachLine(path, (line) => {
    const at = i++;
    if (COMPACTION_MARKERS.some((m) => line.includes(m))) {
      candidates.push(at);
      lines.set(at, line);
      keepUntil = at + AFTER;
      turnAfterLast = false;
      return;
    }
    if (at <= keepUntil) lines.set(at, line);
    if (candidates.length && !turnAfterLast) {
      const rec = asRecord(line);
      if (rec && isTurn(rec)) turnAfterLast = true;
    }
  }, { end: size });
  const found = findCompactions(candidates, (line) => asRecord(lines.get(line)));
  const newest = found[found.length - 1];
  const chosen = compaction !== undefined ? found[compaction] : newest && !turnAfterLast ? newest : undefined;
  if (compaction !== undefined && !chosen) throw new Error(`no compaction #${compaction + 1} in ${path}`);
  let summary: string | undefined, kept: string | undefined;
  for (let l = chosen?.start ?? 0; chosen && l < chosen.end; l++) {
    const rec = asRecord(lines.get(l));
    if (!rec) continue;
    summary ??= summaryOf(rec);
    kept ??= keptOf(rec);
  }
  const cut = chosen?.start ?? Number.POSITIVE_INFINITY;
  const reader = createTranscriptReader(FORMAT_READERS, { keepRaw: false, path });
  let j = 0;
  const { endsWithNewline } = await forEachLine(path, (line) => { if (j++ < cut) reader.push(line); }, { end: size });
  const out = reader.end(cut === Number.POSITIVE_INFINITY ? endsWithNewline : true);
  if (!out.ok) throw new Error(out.error);
  return { session: out.session, summary, kept, boundaryLine: chosen?.start };
}

export interface GuardResult {
  readonly context: string;
  readonly budget: number;
  readonly stretch: CompactedStretch;
}

/** The additionalContext for the compaction `readCompactedStretch` finds. */
export async function guardContext(path: string, cwd?: string, compaction?: number): Promise<GuardResult> {
  const stretch = await readCompactedStretch(path, compaction);
  const facts = hookFacts(stretch.session.messages);
  const context = hookContext(facts, { summary: stretch.summary, kept: stretch.kept, cwd: stretch.session.cwd ?? cwd });
  return { context, budget: hookBudget(stretch.summary), stretch };
}
