// What reaches the new transcript through code when a summary replaces the old turns, whatever the model
// wrote: the state snapshot of those turns (requests, plan, files, commands, errors, identifiers).
import type { Message } from '../model/transcript';
import { buildSnapshot, snapshotBudget } from '../snapshot';

/** Upper bound of a snapshot that carries an earlier one forward (its oldest facts go first). */
const MAX_WITH_EARLIER = 12_000;
/** Share of cleanup's snapshot budget (snapshotBudget) a summary's snapshot takes, and its least budget. */
const SUMMARY_BUDGET_SHARE = 0.5;
const SUMMARY_MIN_BUDGET = 1500;
/** Share of the identifiers not shown elsewhere that are listed whatever the budget (identifier recall ≥ 0.9 with room). */
const IDENTIFIER_FLOOR = 0.93;
/** The prose tells the older story: the newest commands, and the newest figures of each kind (probes look for those). */
const SUMMARY_LIMITS = { commands: 10, figuresPerKind: 12 } as const;

export interface CarriedInput {
  /** The replaced turns as read (originals, not records). */
  readonly aging: readonly Message[];
  /** What stays in the new transcript besides the summary (harness, pinned prompt, recent turns). */
  readonly kept: readonly Message[];
  readonly cwd?: string;
  /**
   * Characters for identifiers beyond the snapshot's own budget and the promised share (default: none): the model is
   * never relied on to copy one.
   */
  readonly identifierChars?: number;
}

/**
 * The snapshot the summary's prose goes with. It never looks at the model's answer: an identifier the model also
 * wrote is listed again rather than trusted to it.
 */
export function carriedFacts(input: CarriedInput): string {
  let replaced = 0, earlier = 0;
  for (const m of input.aging) for (const b of m.blocks) if (b.type === 'summary' && b.origin === 'context-compactor') earlier += b.tokens; else replaced += b.tokens;
  // Beside prose the snapshot is half the size cleanup's alone may take (never under SUMMARY_MIN_BUDGET): with the
  // recent part it stays within ~5 % of the history it replaces, the size of the agents' own compactions. Identifiers
  // beyond that budget are the promised share (IDENTIFIER_FLOOR), not a fixed room: 16,000 characters were 4,000
  // tokens, alone more than 5 % of an 80,000-token history.
  const identifierChars = input.identifierChars ?? 0;
  // An earlier summary of ours is already compact: its facts keep their room (as cleanup's snapshot does), so
  // constraints and files survive compaction after compaction.
  const budgetTokens = Math.min(MAX_WITH_EARLIER, Math.max(SUMMARY_MIN_BUDGET, Math.round(snapshotBudget(replaced) * SUMMARY_BUDGET_SHARE)) + earlier);
  return buildSnapshot(input.aging, { cwd: input.cwd, budgetTokens, kept: input.kept, identifierChars, identifierFloor: IDENTIFIER_FLOOR, limits: SUMMARY_LIMITS }).text;
}
