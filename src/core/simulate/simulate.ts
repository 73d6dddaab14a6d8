// Rolling-compaction simulator: replays a session under "compact when the context passes THRESHOLD,
// keep the last N model turns verbatim", with the summary modeled by its size. No model calls.
import { cleanupSession } from '../cleanup/engine';
import type { CleanupOptions } from '../cleanup/types';
import type { Session } from '../model/transcript';
import { buildTurns } from '../read/turns';
import { calibrate } from '../tokens/calibrate';

export interface SimulationPolicy {
  readonly threshold: number;
  readonly keepRecentTurns: number;
  /** Modeled size of the summary that replaces the aging part; 0 with `summary: false`. */
  readonly summaryTokens: number;
  /** false = cleanup only (the aging part stays, cleaned). */
  readonly summary: boolean;
  readonly rules?: CleanupOptions['rules'];
}

export const DEFAULT_POLICY: SimulationPolicy = { threshold: 150_000, keepRecentTurns: 6, summaryTokens: 2_000, summary: true };

export interface SimulatedTurn {
  readonly index: number;
  readonly contextTokens: number;
  readonly contextTokensWithPolicy: number;
  /** A compaction ran right before this request. */
  readonly compacted: boolean;
  /** Input read by the modeled summary call of that compaction (0 otherwise); part of billedInputWith. */
  readonly summaryInput: number;
}

export interface Simulation {
  readonly threshold: number;
  readonly turns: SimulatedTurn[];
  readonly totals: {
    readonly billedInputWithout: number;
    /** Includes the input of each modeled summary call. */
    readonly billedInputWith: number;
    readonly compactions: number;
    readonly peakWithout: number;
    readonly peakWith: number;
  };
}

export function simulate(session: Session, policy: SimulationPolicy): Simulation {
  const cal = calibrate(session);
  // Prefix sums keep replaying a 10,000-message session linear.
  const prefixSum = [0];
  for (const m of session.messages) prefixSum.push(prefixSum[prefixSum.length - 1]! + m.blocks.reduce((a, b) => a + b.tokens, 0));
  const size = (from: number, to: number): number => (prefixSum[to]! - prefixSum[from]!) * cal.scale;
  const turns: SimulatedTurn[] = [];
  let carried = 0; // tokens standing in for messages before `from` after the last compaction
  let from = 0;
  let compactions = 0, billedWithout = 0, billedWith = 0, peakWithout = 0, peakWith = 0;
  for (const t of session.turns) {
    if (t.kind !== 'model') continue;
    const without = t.recordedContext ?? Math.round(cal.overhead + size(0, t.start));
    let withPolicy = cal.overhead + carried + size(from, t.start);
    let compacted = false;
    let summaryInput = 0;
    if (withPolicy > policy.threshold && t.start > from) {
      const prefix = session.messages.slice(0, t.start);
      const cut: Session = { ...session, messages: prefix, turns: buildTurns(prefix) };
      const cleaned = cleanupSession(cut, { keepRecentTurns: policy.keepRecentTurns, rules: policy.rules });
      const keepFrom = cleaned.protection.fromMessage;
      const aging = policy.summary ? sizeOf(cleaned.session.messages, (r) => r < (prefix[keepFrom]?.records[0] ?? Infinity)) * cal.scale : 0;
      // A compaction that changes nothing (nothing older than the recent part) is none, as in eval's rolling replay.
      compacted = cleaned.changedOriginals.length > 0 || aging > 0;
      if (compacted) {
        if (policy.summary) {
          summaryInput = Math.round(aging); // the summary call reads the cleaned aging part
          billedWith += summaryInput;
          carried = policy.summaryTokens + size(keepFrom, t.start);
        } else {
          carried = sizeOf(cleaned.session.messages, () => true) * cal.scale;
        }
        from = t.start;
        compactions++;
        withPolicy = cal.overhead + carried;
      }
    }
    const w = Math.round(withPolicy);
    billedWithout += without;
    billedWith += w;
    peakWithout = Math.max(peakWithout, without);
    peakWith = Math.max(peakWith, w);
    turns.push({ index: t.index, contextTokens: without, contextTokensWithPolicy: w, compacted, summaryInput });
  }
  return { threshold: policy.threshold, turns, totals: { billedInputWithout: billedWithout, billedInputWith: Math.round(billedWith), compactions, peakWithout, peakWith } };
}

function sizeOf(messages: Session['messages'], keep: (firstRecord: number) => boolean): number {
  let t = 0;
  for (const m of messages) if (keep(m.records[0] ?? Infinity)) for (const b of m.blocks) t += b.tokens;
  return t;
}
