// Updates the last usage report for sessions that only grew (responses appended while an agent works) without
// decoding every other file's rows: exactly the report a scan from scratch would build, or undefined when that
// cannot be shown cheaply (the caller then builds it from scratch).
import { type FileTally, type ScannedFile, sessionOf, Tally } from './aggregate';
import { addUsage, type ModelUsage } from './modelUsage';
import { requestCost } from './pricing';
import type { ClaudeRow, FileState, SessionUsage, TokenCounts, UsageReport } from './types';

/** One model's usage in one file as stored: [model, input, output, cache write, cache read, USD or null (unknown)]. */
export type StoredUsage = [string, number, number, number, number, number | null];

/** What the last report counted, kept beside it. */
export interface ReportBasis {
  /** Per file in the report: its per-model usage, in the order counted (the order the totals were summed in). */
  byFile: Record<string, StoredUsage[]>;
  /** idHash of the message id of every Claude row in the report's files, ascending. */
  ids: Uint32Array;
}

/** A session file the scan parsed on from where it had stopped: its state now, and what it was before. */
export interface GrownFile {
  path: string;
  state: FileState;
  /** Its rows before the appended lines were parsed (row arrays are replaced, never changed in place). */
  before: ReadonlyMap<string, ClaudeRow>;
  /** Its invalid lines and ignored usage records before: a change in either changes the session's warnings. */
  invalidBefore: number;
  absurdBefore: number;
}

/** FNV-1a over the UTF-16 code units: a collision only costs a rebuild (a possible duplicate is assumed). */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const stored = (byModel: Map<string, ModelUsage>): StoredUsage[] =>
  [...byModel].map(([m, { counts: c, cost }]) => [m, c.inputTokens, c.outputTokens, c.cacheCreationTokens, c.cacheReadTokens, cost ?? null]);

const byModelOf = (rows: readonly StoredUsage[]): Map<string, ModelUsage> =>
  new Map(rows.map(([m, i, o, cw, cr, cost]) => [m, { counts: { inputTokens: i, outputTokens: o, cacheCreationTokens: cw, cacheReadTokens: cr }, cost: cost ?? undefined }]));

/** The basis of a report just built from `files` (perFile as buildReportWithUsage returned it). */
export function basisOf(files: readonly ScannedFile[], perFile: ReadonlyMap<number, Map<string, ModelUsage>>): ReportBasis {
  const byFile: Record<string, StoredUsage[]> = {};
  const ids: number[] = [];
  files.forEach((f, i) => {
    if (!f.state.recognized) return;
    byFile[f.path] = stored(perFile.get(i) ?? new Map<string, ModelUsage>());
    if (f.state.agent === 'claude-code') for (const row of f.state.rows.values()) if (row[0]) ids.push(idHash(row[0]));
  });
  return { byFile, ids: Uint32Array.from(ids).sort() };
}

function has(sorted: Uint32Array, h: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] === h) return true;
    if (sorted[mid]! < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The basis must agree with the report it is kept with: a damaged number in either means rebuilding. */
const agrees = (t: FileTally, s: SessionUsage): boolean => t.cost === s.cost && t.counts.inputTokens === s.inputTokens
  && t.counts.outputTokens === s.outputTokens && t.counts.cacheCreationTokens === s.cacheCreationTokens && t.counts.cacheReadTokens === s.cacheReadTokens;

const sameRow = (a: ClaudeRow, b: ClaudeRow): boolean => a === b || (a.length === b.length && a.every((v, i) => v === b[i]));

/**
 * `last` (built with `basis` from the files `order` names, same threshold) updated for `grown`. Only Claude Code
 * sessions qualify, and only when every row the new lines added is provably counted as a scan from scratch would
 * count it: its message id occurs in no other row (so no dedupe or replay rule touches it, here or elsewhere), it
 * replaced no row, and its model has a price; and the session's warnings are the same. Each new row is then added
 * to its file's per-model usage in the order the full dedupe would add it, and every total is summed again in
 * file order, so even the floating-point costs are identical to a rebuild.
 */
export function grownReport(last: UsageReport, basis: ReportBasis, order: readonly string[], grown: readonly GrownFile[], threshold: number): { report: UsageReport; basis: ReportBasis } | undefined {
  const lastSessions = new Map(last.sessions.map((s) => [s.file, s]));
  const updated = new Map<string, { state: FileState; byModel: Map<string, ModelUsage> }>();
  const newIds = new Set<number>();
  for (const g of grown) {
    const was = basis.byFile[g.path];
    if (g.state.agent !== 'claude-code' || !was || !lastSessions.has(g.path) || !g.state.recognized || g.state.invalidLines !== g.invalidBefore
      || g.state.absurdUsage !== g.absurdBefore) return undefined;
    const byModel = byModelOf(was);
    if (!agrees(new Tally().add(byModel), lastSessions.get(g.path)!)) return undefined;
    for (const [key, row] of g.state.rows) {
      const before = g.before.get(key);
      if (before) {
        if (!sameRow(before, row)) return undefined;
        continue;
      }
      if (row[0]) {
        const h = idHash(row[0]);
        if (has(basis.ids, h) || newIds.has(h)) return undefined;
        newIds.add(h);
      }
      const model = g.state.models[row[5]] ?? 'unknown';
      const counts: TokenCounts = { inputTokens: row[1], outputTokens: row[2], cacheCreationTokens: row[3], cacheReadTokens: row[4] };
      const cost = requestCost(model, counts, row[7] ?? 0);
      if (cost === undefined) return undefined; // a new unknown model changes the report's warnings
      addUsage(byModel, model, counts, cost);
    }
    updated.set(g.path, { state: g.state, byModel });
  }
  const tally = new Tally();
  const byFile: Record<string, StoredUsage[]> = {};
  for (const path of order) {
    const g = updated.get(path);
    const was = basis.byFile[path];
    if (g) {
      tally.sessions.push(sessionOf(path, g.state, tally.add(g.byModel), threshold));
      byFile[path] = stored(g.byModel);
    } else if (was) {
      const session = lastSessions.get(path);
      if (!session) return undefined;
      if (!agrees(tally.add(byModelOf(was)), session)) return undefined;
      tally.sessions.push(session);
      byFile[path] = was;
    } // else: not a transcript; its warning is among the last report's
  }
  if (tally.sessions.length !== last.sessions.length) return undefined;
  // The last report's warnings end with its unknown-models line, which report() writes again.
  const warnings = last.unknownModels.length > 0 ? last.warnings.slice(0, -1) : [...last.warnings];
  const report = tally.report(warnings);
  if (report.unknownModels.join('\n') !== last.unknownModels.join('\n')) return undefined;
  const ids = new Uint32Array(basis.ids.length + newIds.size);
  ids.set(basis.ids);
  ids.set([...newIds], basis.ids.length);
  return { report, basis: { byFile, ids: ids.sort() } };
}
