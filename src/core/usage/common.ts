// Small helpers shared by the Claude and Codex record parsers.
import { plausibleTokens } from '../read/usageNumbers';
import type { FileState } from './types';

export type Json = Record<string, unknown>;

export function asObject(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/**
 * A token count: 0 when absent, NaN when impossible (1e400, 2^53+1, -1: see plausibleTokens). NaN spreads through
 * arithmetic, so a reader checks the sum of a record's figures once: NaN means the record is dropped and counted in
 * FileState.absurdUsage.
 */
export function count(v: unknown): number {
  return plausibleTokens(v) ?? NaN;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Index of a model in the state's model list, appending it on first sight. */
export function modelIndex(state: FileState, model: string): number {
  const i = state.models.indexOf(model);
  if (i >= 0) return i;
  state.models.push(model);
  return state.models.length - 1;
}

/** Widens first/last timestamps; ISO-8601 UTC strings compare correctly as text. */
export function noteTimestamp(state: FileState, ts: unknown): void {
  if (typeof ts !== 'string' || ts.length < 10) return;
  if (!state.firstTimestamp || ts < state.firstTimestamp) state.firstTimestamp = ts;
  if (!state.lastTimestamp || ts > state.lastTimestamp) state.lastTimestamp = ts;
}

/**
 * The project folder as the report groups it: a Windows path's drive letter upper-cased (the same folder is recorded
 * as `C:\…` by a terminal and `c:\…` by VS Code's extension host), the rest as recorded.
 */
export function projectOf(cwd: string | undefined): string | undefined {
  return cwd && /^[a-z]:[\\/]/.test(cwd) ? cwd[0]!.toUpperCase() + cwd.slice(1) : cwd;
}
