// Per-request usage rows (message id, tokens, model): deduplicated across a set of files and priced per request.
import type { Session } from '../model/transcript';
import { modelIndex, noteTimestamp } from './common';
import { addUsage, type ModelUsage } from './modelUsage';
import { requestCost } from './pricing';
import { newFileState, type ClaudeRow, type FileState, type TokenCounts } from './types';

function rowTotal(r: ClaudeRow): number {
  return r[1] + r[2] + r[3] + r[4];
}

/** ccusage's preference among duplicates: a main-chain row beats a sidechain row, then the larger total wins. */
export function betterRow(candidate: ClaudeRow, current: ClaudeRow): boolean {
  if (candidate[6] !== current[6]) return candidate[6] < current[6];
  return rowTotal(candidate) > rowTotal(current);
}

const rowCounts = (r: ClaudeRow): TokenCounts => ({ inputTokens: r[1], outputTokens: r[2], cacheCreationTokens: r[3], cacheReadTokens: r[4] });

/**
 * Claude dedupe across files, as ccusage does it: one row per (message.id, request id), preferring the
 * main-chain row, then the fullest one; a sidechain row whose message.id also occurs on the main chain
 * is a replay (e.g. `/btw`) and is dropped. Rows without a message.id are never duplicates (their keys are
 * per file). Returns, per file index, the per-model counts it keeps, each request priced on its own (tiers).
 */
export function rowsByModel(files: readonly { state: FileState }[]): Map<number, Map<string, ModelUsage>> {
  const mainMessages = new Set<string>();
  // The kept row per dedupe key, in flat arrays (index per key): no object per row on a path run per request.
  const index = new Map<string, number>();
  const kept: ClaudeRow[] = [];
  const keptFile: number[] = [];
  files.forEach((f, file) => {
    for (const [rowKey, row] of f.state.rows) {
      if (row[6] === 0 && row[0]) mainMessages.add(row[0]);
      const key = row[0] ? rowKey : `${file}:${rowKey}`;
      const at = index.get(key);
      if (at === undefined) {
        index.set(key, kept.length);
        kept.push(row);
        keptFile.push(file);
      } else if (betterRow(row, kept[at]!)) {
        kept[at] = row;
        keptFile[at] = file;
      }
    }
  });
  const perFile = new Map<number, Map<string, ModelUsage>>();
  for (let i = 0; i < kept.length; i++) {
    const row = kept[i]!;
    if (row[6] === 1 && row[0] && mainMessages.has(row[0])) continue;
    const file = keptFile[i]!;
    const model = files[file]!.state.models[row[5]] ?? 'unknown';
    let byModel = perFile.get(file);
    if (!byModel) perFile.set(file, (byModel = new Map<string, ModelUsage>()));
    const counts = rowCounts(row);
    addUsage(byModel, model, counts, requestCost(model, counts, row[7] ?? 0));
  }
  return perFile;
}

/**
 * A whole session's usage state, for agents whose sessions are read whole (usage kind 'from-session'): one row per
 * assistant message that recorded usage, keyed by its API id when it has one.
 */
export function stateFromSession(session: Session): FileState {
  const state = newFileState(session.format);
  state.recognized = true;
  state.sessionId = session.id || undefined;
  state.project = session.cwd;
  state.title = session.title;
  state.absurdUsage = session.absurdUsage ?? 0; // the reader dropped those records already: counted for the warning
  for (const m of session.messages) {
    if (m.timestamp) noteTimestamp(state, m.timestamp);
    if (m.role !== 'assistant' || !m.usage) continue;
    const u = m.usage;
    const row: ClaudeRow = [m.apiId ?? '', u.inputTokens, u.outputTokens, u.cacheCreationTokens, u.cacheReadTokens, modelIndex(state, m.model ?? session.models[0] ?? 'unknown'), 0, 0];
    // Keyed as the line readers key rows: the id itself after '#', never an `anon:` key.
    state.rows.set(m.apiId ? `#${m.apiId}:` : `anon:${state.anonymousRows++}`, row);
    state.contextTokens = u.inputTokens + u.cacheReadTokens + u.cacheCreationTokens;
  }
  // Usage recorded with impossible figures is ignored, not replaced by our estimate.
  if (state.rows.size === 0 && state.absurdUsage === 0) estimateRows(session, state);
  return state;
}

/**
 * A session whose agent records no usage (Copilot Chat, old aider): one estimated request per reply, its input the
 * history before it (our token estimate; the harness is unknown and left out) and its output the reply itself.
 */
function estimateRows(session: Session, state: FileState): void {
  let context = 0;
  for (const m of session.messages) {
    const tokens = m.blocks.reduce((n, b) => n + b.tokens, 0);
    if (m.role === 'assistant') {
      state.rows.set(`est:${state.anonymousRows++}`, ['', context, tokens, 0, 0, modelIndex(state, m.model ?? session.models[0] ?? 'unknown'), 0, 0]);
      state.estimated = true;
    }
    context += tokens;
  }
  if (state.estimated) state.contextTokens = context;
}
