// What reaches the new transcript through code when a summary replaces the old turns, whatever the model
// wrote: the state snapshot of those turns (requests, plan, files, commands, errors, identifiers).
import type { Message } from '../model/transcript';
import { buildSnapshot, snapshotBudget } from '../snapshot';

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
  let replaced = 0;
  for (const m of input.aging) for (const b of m.blocks) replaced += b.tokens;
  // A long session names more things: the list may grow with it (~4 characters a token, 2 % of what it replaces).
  const identifierChars = input.identifierChars ?? Math.max(16_000, Math.round(replaced * 0.08));
  return buildSnapshot(input.aging, { cwd: input.cwd, budgetTokens: snapshotBudget(replaced), kept: input.kept, identifierChars, identifierFloor: 0.95 }).text;
}
