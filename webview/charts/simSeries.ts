// Series derived from a simulation for the charts: cumulative billed input, one marker per pixel column.
import type { SimulatedPoint } from '../../src/protocol/messages';

export interface CumulativePoint { readonly i: number; readonly without: number; readonly with: number }

/** Running totals of billed input; "with" counts each compaction's summary call where it happens. */
export function cumulativeBilled(turns: readonly SimulatedPoint[]): CumulativePoint[] {
  const out: CumulativePoint[] = [];
  let without = 0;
  let withPolicy = 0;
  turns.forEach((t, i) => {
    without += t.contextTokens;
    withPolicy += t.contextTokensWithPolicy + t.summaryInput;
    out.push({ i, without, with: withPolicy });
  });
  return out;
}

/**
 * Positions (indexes into `turns`) of the compactions to mark, at most one per pixel column of a
 * `columns`-wide plot: 400 compactions over 10,000 requests would otherwise be a smear of circles.
 */
export function compactionMarkers(turns: readonly SimulatedPoint[], columns: number): number[] {
  const out: number[] = [];
  const perColumn = Math.max(1, turns.length - 1) / Math.max(1, Math.floor(columns));
  let lastColumn = -1;
  turns.forEach((t, i) => {
    if (!t.compacted) return;
    const column = Math.floor(i / perColumn);
    if (column === lastColumn) return;
    lastColumn = column;
    out.push(i);
  });
  return out;
}
