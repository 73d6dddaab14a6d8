// Copilot CLI usage: one `session.usage_record` event per model request ({model, inputTokens (cached part included),
// outputTokens, cacheReadTokens, cacheWriteTokens, apiCallId}), one row per request; the title from the first prompt.
import { asObject, count, modelIndex, noteTimestamp, str, type Json } from '../../usage/common';
import { rowsByModel } from '../../usage/rows';
import { titleFromText } from '../../usage/title';
import type { ClaudeRow, Contains, FileState } from '../../usage/types';

/** Uncached input, output, cache write, cache read of a usage record; NaN somewhere when a figure is impossible. */
export function copilotCounts(u: Json): [input: number, output: number, cacheWrite: number, cacheRead: number] {
  const cacheRead = count(u.cacheReadTokens ?? 0);
  return [Math.max(0, count(u.inputTokens ?? 0) - cacheRead), count(u.outputTokens ?? 0), count(u.cacheWriteTokens ?? 0), cacheRead];
}

export function applyCopilotEvent(state: FileState, rec: Json): void {
  const data = asObject(rec.data);
  if (!data || typeof rec.type !== 'string') return;
  noteTimestamp(state, rec.timestamp);
  if (rec.type === 'session.start') {
    state.recognized = true;
    state.sessionId ??= str(data.sessionId);
    state.project ??= str(asObject(data.context)?.cwd);
  } else if (rec.type === 'user.message' && !state.title) {
    state.title = titleFromText(str(data.content) ?? '');
  } else if (rec.type === 'session.usage_record') {
    const u = asObject(data.usage);
    if (!u) return;
    state.recognized = true;
    const [input, output, cacheWrite, cacheRead] = copilotCounts(u);
    if (Number.isNaN(input + output + cacheWrite + cacheRead)) { state.absurdUsage++; return; }
    const id = str(u.apiCallId) ?? '';
    const row: ClaudeRow = [id, input, output, cacheWrite, cacheRead, modelIndex(state, str(u.model) ?? 'unknown'), 0, 0];
    state.rows.set(id ? `#${id}:` : `anon:${state.anonymousRows++}`, row);
    state.contextTokens = input + cacheRead + cacheWrite;
  }
}

export function copilotWants(state: FileState, has: Contains): boolean {
  return has('"session.usage_record"') || !state.firstTimestamp || (!state.sessionId && has('"session.start"')) || (!state.title && has('"user.message"'));
}

export function copilotSteadyMarkers(state: FileState): readonly string[] | undefined {
  return state.title && state.firstTimestamp && state.sessionId ? ['"session.usage_record"'] : undefined;
}

export const copilotByModel = rowsByModel;
