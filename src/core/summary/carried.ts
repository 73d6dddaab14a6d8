// What reaches the new transcript through code when a summary replaces the old turns, whatever the model
// wrote: the state snapshot of those turns (requests, plan, files, commands, errors, identifiers).
import type { Message } from '../model/transcript';
import { buildSnapshot, snapshotBudget } from '../snapshot';

/** Upper bound of a snapshot that carries an earlier one forward (its oldest facts go first). */
const MAX_WITH_EARLIER = 12_000;

export interface CarriedInput {
  /** The replaced turns as read (originals, not records). */
  readonly aging: readonly Message[];
  /** What stays in the new transcript besides the summary (harness, pinned prompt, recent turns). */
  readonly kept: readonly Message[];
  readonly cwd?: string;
  /**
   * Characters for identifiers beyond the snapshot's own budget (default: 16,000, or ~2 % of the replaced turns'
   * tokens when more): the model is never relied on to copy one.
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
  // A long session names more things: the list may grow with it (~4 characters a token, 2 % of what it replaces).
  const identifierChars = input.identifierChars ?? Math.max(16_000, Math.round(replaced * 0.08));
  // An earlier summary of ours is already compact: its facts keep their room (as cleanup's snapshot does), so
  // constraints and files survive compaction after compaction.
  const budgetTokens = Math.min(MAX_WITH_EARLIER, snapshotBudget(replaced) + earlier);
  return buildSnapshot(input.aging, { cwd: input.cwd, budgetTokens, kept: input.kept, identifierChars, identifierFloor: 0.95 }).text;
}
