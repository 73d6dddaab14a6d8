// Qwen Code usage: each assistant record's `usageMetadata` (Gemini's counts: the prompt includes its cached part,
// thoughts are billed as output), one row per record keyed by its uuid; the title from the first real prompt.
import { asObject, count, modelIndex, noteTimestamp, str, type Json } from '../../usage/common';
import { rowsByModel } from '../../usage/rows';
import { titleFromText } from '../../usage/title';
import type { ClaudeRow, Contains, FileState } from '../../usage/types';

/** Input (uncached), output, cache read of one `usageMetadata`; NaN somewhere when a figure is impossible. */
export function qwenCounts(u: Json): { input: number; output: number; cached: number } {
  const cached = count(u.cachedContentTokenCount ?? 0);
  return { input: Math.max(0, count(u.promptTokenCount ?? 0) - cached), output: count(u.candidatesTokenCount ?? 0) + count(u.thoughtsTokenCount ?? 0), cached };
}

/** The text of a user record's parts (no function responses), for the title. */
export function partsText(message: Json | undefined): string {
  const parts = Array.isArray(message?.parts) ? message.parts : [];
  return parts.map((p) => (asObject(p) && typeof p.text === 'string' && !p.thought ? p.text : '')).join('');
}

export function applyQwenRecord(state: FileState, rec: Json): void {
  if (typeof rec.sessionId !== 'string') return;
  state.recognized = true;
  state.sessionId ??= rec.sessionId;
  state.project ??= str(rec.cwd);
  noteTimestamp(state, rec.timestamp);
  const message = asObject(rec.message);
  if (rec.type === 'user' && rec.subtype === undefined && !state.title) state.title = titleFromText(partsText(message));
  if (rec.type === 'system' && rec.subtype === 'custom_title') state.title = titleFromText(str(asObject(rec.systemPayload)?.customTitle) ?? '') ?? state.title;
  const usage = asObject(rec.usageMetadata);
  if (rec.type !== 'assistant' || !usage) return;
  const { input, output, cached } = qwenCounts(usage);
  if (Number.isNaN(input + output + cached)) { state.absurdUsage++; return; }
  const id = str(rec.uuid) ?? '';
  const row: ClaudeRow = [id, input, output, 0, cached, modelIndex(state, str(rec.model) ?? 'unknown'), 0, 0];
  state.rows.set(id ? `#${id}:` : `anon:${state.anonymousRows++}`, row);
  state.contextTokens = input + cached;
}

/** Assistant records carry the usage; user records matter until the title is known; a rename anywhere. */
export function qwenWants(state: FileState, has: Contains): boolean {
  return has('"usageMetadata"') || has('"custom_title"') || !state.firstTimestamp || (!state.title && has('"user"'));
}

export function qwenSteadyMarkers(state: FileState): readonly string[] | undefined {
  return state.title && state.firstTimestamp ? ['"usageMetadata"', '"custom_title"'] : undefined;
}

export const qwenByModel = rowsByModel;
