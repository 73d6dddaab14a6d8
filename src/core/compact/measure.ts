// The figures every compaction reports, measured one way for the CLI, the extension and the Cleanup tab:
// tokens on resume before/after, the harness share nothing can cut, the history cut, and fidelity.
import type { Block, Session } from '../model/transcript';
import { calibrate, type Calibration } from '../tokens/calibrate';
import { composeTotal } from '../tokens/composition';
import { identifierRecall, pairsIntact } from './fidelity';

/** Below this much history a compaction is not worth a new session (reported, not refused). */
export const TOO_SMALL_HISTORY = 20_000;

export interface SizeFigures {
  /** Tokens the agent sends on resume: harness + history. */
  readonly tokens: number;
  /** What compaction can act on: the messages (tokens minus the harness). */
  readonly historyTokens: number;
  readonly messages: number;
}

export interface Measurement {
  readonly before: SizeFigures;
  readonly after: SizeFigures;
  /** System prompt and tool definitions the agent sends with every request (from its recorded usage; 0 when unknown). */
  readonly harnessTokens: number;
  /**
   * The harness the written copy carries: less than `harnessTokens` when the compaction left out initial context the
   * original recorded again (Codex re-injects its instructions after its compaction and on resume; the copy keeps one).
   */
  readonly harnessAfterTokens: number;
  /** recorded: from the agent's usage log (before its last compaction when none since); partial: only the system prompt the transcript holds; unknown: none. */
  readonly harnessSource: 'recorded' | 'partial' | 'unknown';
  /** 1 − after/before over the whole request. */
  readonly reduction: number;
  /** 1 − after/before over the history alone. */
  readonly historyReduction: number;
  readonly tooSmallToCompact: boolean;
  readonly pairsIntact: boolean;
  readonly identifierRecall: number;
  readonly identifiers: { readonly total: number; readonly missing: string[] };
}

/**
 * Meta blocks that are the agent's own initial context, which its harness sends again whatever compaction did (Codex
 * re-injects its base and developer instructions, AGENTS.md and environment context beside its own compaction's
 * summary; Copilot CLI its system prompt): harness, not history, on every side of a comparison.
 */
const HARNESS_CONTEXT = new Set(['instructions', 'developer', 'system', 'harness', 'system-prompt']);

/**
 * Meta blocks a person's own action produced, never harness even in a leading system message: Claude Code records the
 * output of a local command the user ran (`/model`, `/add-dir` before the first prompt) as a `system` record.
 */
const USER_ACTION = new Set(['local_command']);

/**
 * The harness a session holds as messages: the leading system messages made of meta blocks, and every initial-context
 * block (above) wherever it stands. Counted on each side from what that side holds, so the rule is the same for the
 * original, our output and the agent's own compaction (which holds it elsewhere, or not at all and re-sends it).
 */
export function harnessMessageTokens(session: Pick<Session, 'messages'>, scale: number): number {
  let tokens = 0, leading = true;
  for (const m of session.messages) {
    if (leading && (m.role !== 'system' || !m.blocks.every((b) => b.type === 'meta' && !USER_ACTION.has(b.subtype)))) leading = false;
    for (const b of m.blocks) if (b.type === 'meta' && (leading || HARNESS_CONTEXT.has(b.subtype))) tokens += b.tokens * scale;
  }
  return tokens;
}

/** `changed`: the original blocks the compaction replaced or dropped (identifier recall is measured over them). */
export function measureCompaction(original: Session, result: Session, changed: readonly Block[], extraText = '', calibration?: Calibration): Measurement {
  const cal = calibration ?? calibrate(original);
  const harness = Math.round(cal.overhead + harnessMessageTokens(original, cal.scale));
  const harnessAfter = Math.round(cal.overhead + harnessMessageTokens(result, cal.scale));
  const before = composeTotal(original, cal);
  const after = composeTotal(result, cal);
  const hb = Math.max(0, before - harness), ha = Math.max(0, after - harnessAfter);
  const recall = identifierRecall(changed, result.messages, extraText, original.cwd);
  return {
    before: { tokens: before, historyTokens: hb, messages: original.messages.length },
    after: { tokens: after, historyTokens: ha, messages: result.messages.length },
    harnessTokens: harness, harnessAfterTokens: harnessAfter, harnessSource: cal.source === 'recorded' || (cal.overhead > 0 && cal.overhead === original.harnessBeforeCompaction) ? 'recorded' : harness > 0 ? 'partial' : 'unknown',
    reduction: before > 0 ? 1 - after / before : 0,
    historyReduction: hb > 0 ? 1 - ha / hb : 0,
    tooSmallToCompact: hb < TOO_SMALL_HISTORY,
    pairsIntact: pairsIntact(result.messages, original.messages),
    identifierRecall: recall.recall,
    identifiers: { total: recall.total, missing: recall.missing },
  };
}

/** One line on the harness where it is a large share of every request, so a modest total cut is read right. */
export function harnessNote(m: Pick<Measurement, 'harnessTokens' | 'harnessAfterTokens' | 'before' | 'historyReduction'>): string | undefined {
  const share = m.before.tokens > 0 ? m.harnessTokens / m.before.tokens : 0;
  if (share < 0.2) return undefined;
  const n = (x: number): string => x.toLocaleString('en-US');
  const whole = `The agent's harness (system prompt, tool definitions and the initial context it re-sends, ${n(m.harnessTokens)} tokens) is ${Math.round(share * 100)} % of every request`;
  const history = `${(m.historyReduction * 100).toFixed(1)} %`;
  const shrunk = m.harnessTokens - m.harnessAfterTokens;
  // The words follow the figures: "sent as is" only when the copy carries the whole harness the original holds (the
  // old-context rule may shrink injected instructions the session holds as messages, e.g. Codex's re-injected ones).
  if (shrunk > 0) return `${whole}; the copy carries ${n(m.harnessAfterTokens)} of it: ${n(shrunk)} tokens of old injected context in it were shrunk, the rest is sent as is; the history shrank ${history}.`;
  return `${whole} and is sent as is; compaction acts on the history, which shrank ${history}.`;
}
