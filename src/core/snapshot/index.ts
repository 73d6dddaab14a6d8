// The state snapshot: one structured block, built by code, that stands for a stretch of old history
// (requests, plan, files, commands, errors, identifiers). Used by cleanup, the summary step and the hook.
import type { Message } from '../model/transcript';
import { blockIdentifiers } from '../cleanup/identifiers';
import { SNAPSHOT_HEADER } from './previous';
import { collectFacts } from './collect';
import { renderSnapshot, type SnapshotLimits, type SnapshotSection } from './render';

export type { SnapshotLimits, SnapshotSection } from './render';

export interface SnapshotOptions {
  /** The session's folder: paths under it are written relative to it. */
  readonly cwd?: string;
  /** Upper bound of the block, in estimated tokens (newest facts win when over). */
  readonly budgetTokens: number;
  /** Messages that stay beside the snapshot: identifiers they show are not listed again. */
  readonly kept?: readonly Message[];
  /** Characters of identifiers listed beyond `budgetTokens` (a summary's snapshot lists every one it can). */
  readonly identifierChars?: number;
  /** At least this share (0–1) of the identifiers not shown elsewhere is listed, whatever the budget (default 0). */
  readonly identifierFloor?: number;
  /** Room the user's requests and constraints have first, whatever `budgetTokens` (default: their share of it). */
  readonly requestTokens?: number;
  /** Caps on the lists (a summary's snapshot: the newest commands, a few figures per kind). */
  readonly limits?: SnapshotLimits;
}

export interface Snapshot {
  /** Markdown: a one-line header, then the sections that have something to say ('' when nothing does). */
  readonly text: string;
  readonly tokens: number;
  /** Estimated tokens per section written. */
  readonly sections: Partial<Record<SnapshotSection, number>>;
}

export { SNAPSHOT_HEADER } from './previous';

/** The snapshot of `messages` (originals, as read), within `budgetTokens`. */
export function buildSnapshot(messages: readonly Message[], options: SnapshotOptions): Snapshot {
  const shown = new Set<string>();
  const later: string[] = [];
  for (const m of options.kept ?? []) {
    for (const b of m.blocks) {
      for (const id of blockIdentifiers(b)) shown.add(id);
      if (b.type === 'text' && m.role === 'user' && !m.toolResultsOnly) later.push(b.text);
    }
  }
  const header = SNAPSHOT_HEADER;
  const r = renderSnapshot(collectFacts(messages), Math.max(0, options.budgetTokens - 20), options.cwd, shown, later, options.identifierChars ?? 0, options.identifierFloor ?? 0, options.requestTokens, options.limits);
  if (!r.text) return { text: '', tokens: 0, sections: {} };
  const text = `${header}\n${r.text}`;
  return { text, tokens: r.tokens + 20, sections: r.sections };
}

/** Default budget for the snapshot of `replacedTokens` of history: 4 % of it, between 1,500 and 10,000 tokens. */
export function snapshotBudget(replacedTokens: number): number {
  return Math.round(Math.min(10_000, Math.max(1500, replacedTokens * 0.04)));
}
