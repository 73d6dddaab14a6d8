// Usage of a legacy Codex rollout (≤ 0.2x: bare items after an `{id, timestamp, instructions}` header): it records
// no usage at all, so its context and requests are estimated from the items, as `inspect` estimates them.
import { asObject, modelIndex, noteTimestamp, str, type Json } from '../../usage/common';
import { titleFromContent } from '../../usage/title';
import type { FileState } from '../../usage/types';
import { isLegacyHeader, isLegacyItem } from './detect';
import { convertItem } from './items';

const CWD = /Current working directory: ([^\n<]+)|<cwd>([^<]+)<\/cwd>/;
/** Legacy rollouts name no model: their requests go to the model Codex's pricing falls back to (codexByModel). */
const NO_MODEL = 'unknown';

/** True (and the state marked legacy) when `rec` is a legacy rollout's header line. */
export function startLegacy(state: FileState, rec: Json): boolean {
  if (state.codexLegacy || state.recognized || !isLegacyHeader(rec)) return false;
  state.recognized = true;
  state.estimated = true;
  state.codexLegacy = { history: 0, reasoning: 0, inRun: false };
  state.sessionId ??= str(rec.id);
  noteTimestamp(state, rec.timestamp);
  return true;
}

/**
 * One bare item of a legacy rollout. The model's items in a row (reasoning, text, tool calls) are one request: its
 * input is the history before them (our estimate) with the reasoning since the latest user message (the Responses API
 * drops older reasoning), its output their tokens.
 */
export function applyLegacyItem(state: FileState, rec: Json): void {
  const legacy = state.codexLegacy;
  if (!legacy || !isLegacyItem(rec)) return;
  const item = convertItem(rec, { record: 0 });
  if (!item) return;
  const tokens = item.blocks.reduce((n, b) => n + b.tokens, 0);
  if (rec.type === 'message' && rec.role === 'user') noteUserMessage(state, rec.content);
  modelIndex(state, NO_MODEL);
  const sums = (state.codexSums[NO_MODEL] ??= [0, 0, 0, 0, 0, 0, 0, 0]);
  if (item.side === 'output') {
    if (!legacy.inRun) {
      // A new request, sent the history so far. OpenAI caches a repeated prompt prefix by itself: the part the last
      // request was sent too is counted as a cache read (as the rollouts that record usage show it), the rest as input.
      const sent = legacy.history + legacy.reasoning;
      const cached = Math.min(legacy.lastSent ?? 0, sent);
      sums[0] += sent - cached;
      sums[3] += cached;
      legacy.lastSent = sent;
    }
    legacy.inRun = true;
    sums[1] += tokens;
  } else {
    legacy.inRun = false;
  }
  if (rec.type === 'reasoning') legacy.reasoning += tokens;
  else legacy.history += tokens;
  if (rec.type === 'message' && rec.role === 'user' && item.blocks.some((b) => b.type === 'text')) legacy.reasoning = 0;
  // The context is what `inspect` reports (and a resume sends): reasoning counts 0 there, whatever turn it is in.
  state.contextTokens = legacy.history;
}

/** The title (the first typed prompt) and project folder (the first `<environment_context>`'s) of a user message. */
function noteUserMessage(state: FileState, content: unknown): void {
  state.title ??= titleFromContent(content);
  if (state.project || !Array.isArray(content)) return;
  for (const c of content) {
    const hit = CWD.exec(str(asObject(c)?.text) ?? '');
    if (hit) {
      state.project = (hit[1] ?? hit[2])!.trim();
      return;
    }
  }
}
