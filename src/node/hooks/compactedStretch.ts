// Reads the history an agent just compacted out of its transcript, streaming: two passes, each line parsed at most once.
import { stat } from 'node:fs/promises';
import { BOUNDARY_RULES, type HookAgent } from '../../core/hook/boundary';
import { hookContext, hookBudget } from '../../core/hook/context';
import { hookFacts } from '../../core/hook/facts';
import { FORMAT_READERS } from '../../core/formats/registry';
import type { Session } from '../../core/model/transcript';
import { createTranscriptReader } from '../../core/read/transcriptReader';
import { parseLine } from '../../core/read/safeJson';
import { forEachLine } from '../jsonlLines';

export interface CompactedStretch {
  /** The history before the compaction: since the boundary before it, that boundary's summary included. */
  readonly session: Session;
  /**
   * The agent's summary of this compaction, when on disk. Claude Code 2.1.328 runs the SessionStart hook before it
   * writes the boundary and the summary, so at hook time it is undefined and the stretch is the file's live tail.
   */
  readonly summary?: string;
  /** What else the agent keeps past the compaction (Codex: its replacement history), when on disk. */
  readonly kept?: string;
  /** Line index of the boundary the stretch ends at (undefined: the end of the file). */
  readonly boundaryLine?: number;
}

const asRecord = (line: string): Record<string, unknown> | undefined => {
  try {
    const v = parseLine(line.trim());
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The stretch the agent compacted last. When the newest boundary has no turn after it, the compaction is on disk
 * already: the stretch ends at that boundary and the summary after it is known. Otherwise (the boundary is not
 * written yet, or the session went on since) the stretch is what the agent holds now, from the last boundary on.
 * `boundaryIndex` picks an earlier boundary instead (0-based), for measuring every compaction of a file.
 */
export async function readCompactedStretch(agent: HookAgent, path: string, boundaryIndex?: number): Promise<CompactedStretch> {
  const rules = BOUNDARY_RULES[agent];
  const size = (await stat(path)).size;
  const boundaries: { line: number; summary?: string; kept?: string; turnAfter: boolean }[] = [];
  let i = 0;
  await forEachLine(path, (line) => {
    const at = i++;
    const last = boundaries[boundaries.length - 1];
    if (rules.markers.some((m) => line.includes(m))) {
      const rec = asRecord(line);
      if (rec && rules.isBoundary(rec)) { boundaries.push({ line: at, summary: rules.summaryOf(rec), kept: rules.keptOf?.(rec), turnAfter: false }); return; }
    }
    // Only the few lines after a boundary are parsed here: until its summary and the first turn are seen.
    if (!last || last.turnAfter) return;
    const rec = asRecord(line);
    if (!rec) return;
    if (last.summary === undefined && rules.summaryOf(rec) !== undefined) last.summary = rules.summaryOf(rec);
    else if (rules.isTurn(rec)) last.turnAfter = true;
  }, { end: size });
  const newest = boundaries[boundaries.length - 1];
  const chosen = boundaryIndex !== undefined ? boundaries[boundaryIndex] : newest && !newest.turnAfter ? newest : undefined;
  if (boundaryIndex !== undefined && !chosen) throw new Error(`no compaction #${boundaryIndex + 1} in ${path}`);
  const cut = chosen?.line ?? Number.POSITIVE_INFINITY;
  const reader = createTranscriptReader(FORMAT_READERS, { keepRaw: false, path });
  let j = 0;
  const { endsWithNewline } = await forEachLine(path, (line) => { if (j++ < cut) reader.push(line); }, { end: size });
  const out = reader.end(cut === Number.POSITIVE_INFINITY ? endsWithNewline : true);
  if (!out.ok) throw new Error(out.error);
  return { session: out.session, summary: chosen?.summary, kept: chosen?.kept, boundaryLine: chosen?.line };
}

export interface GuardResult {
  readonly context: string;
  readonly budget: number;
  readonly stretch: CompactedStretch;
}

/** The additionalContext for the compaction `readCompactedStretch` finds. */
export async function guardContext(agent: HookAgent, path: string, cwd?: string, boundaryIndex?: number): Promise<GuardResult> {
  const stretch = await readCompactedStretch(agent, path, boundaryIndex);
  const facts = hookFacts(stretch.session.messages);
  const context = hookContext(facts, { summary: stretch.summary, kept: stretch.kept, cwd: stretch.session.cwd ?? cwd });
  return { context, budget: hookBudget(stretch.summary), stretch };
}
