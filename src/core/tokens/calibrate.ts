// Per-session calibration of the offline estimate against the context sizes the agent recorded.
import type { FigureSource, Session } from '../model/transcript';

export interface Calibration {
  readonly source: FigureSource;
  /** Tokens the agent sent besides the messages (system prompt, tool schemas), from the first request. */
  readonly overhead: number;
  /** Factor applied to every block estimate so the last recorded request matches. */
  readonly scale: number;
  /** Mean |estimate − recorded| / recorded over model turns, before and after scaling. */
  readonly meanErrorRaw?: number;
  readonly meanErrorCalibrated?: number;
  readonly turnsCompared: number;
}

export function calibrate(session: Session): Calibration {
  const points: { recorded: number; estimate: number }[] = [];
  let cumulative = 0;
  for (const t of session.turns) {
    if (t.kind === 'model' && t.recordedContext !== undefined && t.recordedContext > 0) points.push({ recorded: t.recordedContext, estimate: cumulative });
    for (let i = t.start; i < t.end; i++) for (const b of session.messages[i]!.blocks) cumulative += b.tokens;
  }
  // No request since a compaction: the harness measured before it still goes with every request (a real Claude Code
  // 2.1.111 session read "context now 3,431" after requests of 176–193k, and its next request was "Prompt is too long").
  if (points.length === 0) return { source: 'estimated', overhead: session.harnessBeforeCompaction ?? 0, scale: 1, turnsCompared: 0 };
  const first = points[0]!, last = points[points.length - 1]!;
  let overhead = Math.max(0, first.recorded - first.estimate);
  let raw = last.estimate > 0 ? (last.recorded - overhead) / last.estimate : 1;
  // The last request far below what the first one implies: the agent sent less than the log shows (a real Codex
  // 0.117 rollout resumed by a newer client went 166,236 → 81,019 with no compaction recorded). The first request's
  // overhead would put "context now" 105K above the last recorded request; anchor on the last request instead.
  if (last !== first && raw <= 0.25) {
    overhead = Math.max(0, last.recorded - last.estimate);
    raw = last.estimate > 0 ? (last.recorded - overhead) / last.estimate : 1;
  }
  // A wild factor means the log and the transcript disagree (e.g. a resumed copy); don't trust it.
  const scale = Number.isFinite(raw) && raw > 0.25 && raw < 4 ? raw : 1;
  const rest = points.length > 1 ? points.slice(1) : points;
  return { source: 'recorded', overhead, scale, meanErrorRaw: meanError(rest, overhead, 1), meanErrorCalibrated: meanError(rest, overhead, scale), turnsCompared: rest.length };
}

/** Mean |overhead + estimate × k − recorded| / recorded; a loop, not a closure made per call (read/shapeKeeper.ts). */
function meanError(points: readonly { recorded: number; estimate: number }[], overhead: number, k: number): number {
  let sum = 0;
  for (const p of points) sum += Math.abs(overhead + p.estimate * k - p.recorded) / p.recorded;
  return sum / points.length;
}
