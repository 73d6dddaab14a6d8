// Collects reader warnings and folds repeats into one readable line each.
import { MAX_DEPTH } from './safeJson';

export class WarningLog {
  private readonly invalidLines: number[] = [];
  private truncated: number | undefined;
  private readonly prunedLines: number[] = [];

  add(_kind: 'invalid-line', index: number): void {
    this.invalidLines.push(index);
  }

  /** A long line nested deeper than MAX_DEPTH, read with its deepest parts left out (safeJson.parseLine). */
  prunedLine(index: number): void {
    this.prunedLines.push(index);
  }

  truncatedLastLine(index: number): void {
    this.truncated = index;
    const at = this.invalidLines.lastIndexOf(index);
    if (at >= 0) this.invalidLines.splice(at, 1);
  }

  render(): string[] {
    const out: string[] = [];
    const n = this.invalidLines.length;
    if (n > 0) {
      const shown = this.invalidLines.slice(0, 5).map((i) => i + 1).join(', ');
      out.push(`${n} line${n === 1 ? ' is' : 's are'} not valid JSON and ${n === 1 ? 'was' : 'were'} skipped (line${n === 1 ? '' : 's'} ${shown}${n > 5 ? ', …' : ''})`);
    }
    const p = this.prunedLines.length;
    if (p > 0) {
      const shown = this.prunedLines.slice(0, 5).map((i) => i + 1).join(', ');
      out.push(`${p} line(s) nest deeper than ${MAX_DEPTH} levels; their deepest parts were left out when read (line${p === 1 ? '' : 's'} ${shown}${p > 5 ? ', …' : ''})`);
    }
    if (this.truncated !== undefined) {
      out.push(`the last line (${this.truncated + 1}) is incomplete — the agent may still be writing; it was ignored`);
    }
    return out;
  }
}

/** What a format parser noticed while reading, counted, for the closing warnings. */
export interface ReadNotes {
  tooDeep: number;
  absurdUsage: number;
  duplicates: number;
  /** Counters as callbacks, made once per read: what safeJson and the usage readers are handed. */
  readonly onTooDeep: () => void;
  readonly onAbsurd: () => void;
}

export function newReadNotes(): ReadNotes {
  const notes: ReadNotes = { tooDeep: 0, absurdUsage: 0, duplicates: 0, onTooDeep: () => { notes.tooDeep++; }, onAbsurd: () => { notes.absurdUsage++; } };
  return notes;
}

/** The warning for `n` usage records ignored for an impossible token count (see plausibleTokens); usage scans give it too. */
export const absurdUsageWarning = (n: number): string =>
  `${n} usage record(s) with impossible token counts (not whole numbers from 0 to 2^40) were ignored`;

/** Session.absurdUsage from a reader's count: the field only when there is something to count. */
export const absurdUsageField = (n: number): { absurdUsage?: number } => (n > 0 ? { absurdUsage: n } : {});

/** The warnings both parsers give for impossible usage figures and values nested too deeply. */
export function noteWarnings(notes: ReadNotes): string[] {
  const out: string[] = [];
  if (notes.absurdUsage) out.push(absurdUsageWarning(notes.absurdUsage));
  if (notes.tooDeep) out.push(`${notes.tooDeep} value(s) nest deeper than ${MAX_DEPTH} levels; their deepest parts are left out of estimates and rewritten records`);
  return out;
}
