// Codex usage: which lines matter, how a rollout line folds into a file's state (each request counted once), and
// per-model usage and cost of a rollout.
import { asObject, count, type Json, modelIndex, noteTimestamp, str } from '../../usage/common';
import { findModel } from '../../usage/catalog';
import { costOf, isLongContext } from '../../usage/pricing';
import { titleFromContent, titleFromText } from '../../usage/title';
import { addUsage, type ModelUsage } from '../../usage/modelUsage';
import type { Contains, FileState } from '../../usage/types';
import { applyLegacyItem, startLegacy } from './legacyUsage';

type Cumulative = [number, number, number, number, number];

function cumulativeOf(u: Json): Cumulative {
  return [count(u.input_tokens), count(u.cached_input_tokens), count(u.cache_write_input_tokens), count(u.output_tokens), count(u.total_tokens)];
}

/**
 * Codex 0.169 reports every request twice (a `token_usage_record` line and an `event_msg` token_count,
 * and older builds emit token_count twice). Both carry the thread's cumulative usage, so billing the
 * difference between successive cumulative totals counts each request once whatever the emitters.
 */
function addCumulative(state: FileState, cum: Cumulative): void {
  const prev = state.codexCumulative;
  if (prev && cum[4] === prev[4]) return; // the same totals again: a repeated emission
  // A smaller total means a new series (e.g. a forked thread's own counter): start over from zero.
  const base: Cumulative = prev && cum[4] > prev[4] ? prev : [0, 0, 0, 0, 0];
  const d = cum.map((v, i) => Math.max(0, v - base[i]));
  state.codexCumulative = cum;
  const model = state.codexModel ?? 'unknown';
  modelIndex(state, model);
  const sums = (state.codexSums[model] ??= [0, 0, 0, 0, 0, 0, 0, 0]);
  // Requests past the model's long-context threshold go to the second half (billed at the catalog's tier).
  const price = findModel(model)?.price;
  const at = price && isLongContext(price, d[0]) ? 4 : 0;
  // OpenAI's input_tokens include cached (and, we assume, cache-write) tokens; ccusage's inputTokens do not.
  sums[at] += Math.max(0, d[0] - d[1] - d[2]);
  sums[at + 1] += d[3];
  sums[at + 2] += d[2];
  sums[at + 3] += d[1];
}

/**
 * One usage record: the thread's cumulative totals, and the last request's usage (its input is the context). An
 * impossible figure in either (NaN, see count) voids the record, as the transcript readers do: never counted as 0.
 * The next record's totals then bill what this one would have, measured from the last totals counted.
 */
function applyUsage(state: FileState, cum: Cumulative, last: Json | undefined): void {
  const context = last ? count(last.input_tokens) : 0;
  if (Number.isNaN(cum[0] + cum[1] + cum[2] + cum[3] + cum[4] + context)) {
    state.absurdUsage++;
    return;
  }
  addCumulative(state, cum);
  if (last) state.contextTokens = context;
}

function applyTokenCount(state: FileState, payload: Json): void {
  const info = asObject(payload.info); // null on a session's first event
  const total = info && asObject(info.total_token_usage);
  if (!info || !total) return;
  // The window Codex ran with (the reader's too): the catalog's is the model's largest, not what Codex allows.
  const window = count(info.model_context_window);
  if (window > 0) state.contextWindow = window;
  applyUsage(state, cumulativeOf(total), asObject(info.last_token_usage));
}

function applyUsageRecord(state: FileState, payload: Json): void {
  const thread = asObject(payload.thread_token_usage);
  if (thread) applyUsage(state, cumulativeOf(thread), asObject(payload.usage));
}

/** Applies one rollout line (`{timestamp, type, payload}`); other line types are ignored. */
export function applyCodexRecord(state: FileState, rec: Json): void {
  if (state.codexLegacy || startLegacy(state, rec)) return applyLegacyItem(state, rec);
  const payload = asObject(rec.payload);
  if (!payload) return;
  state.recognized = true;
  noteTimestamp(state, rec.timestamp);
  switch (rec.type) {
    case 'session_meta':
      state.sessionId ??= str(payload.id);
      state.project ??= str(payload.cwd);
      break;
    case 'turn_context':
      state.codexModel = str(payload.model) ?? state.codexModel;
      state.project ??= str(payload.cwd);
      break;
    case 'token_usage_record':
      applyUsageRecord(state, payload);
      break;
    case 'event_msg':
      if (payload.type === 'token_count') applyTokenCount(state, payload);
      else if (payload.type === 'user_message' && !state.title) state.title = titleFromText(String(payload.message ?? ''));
      break;
    case 'response_item':
      if (payload.type === 'message' && payload.role === 'user' && !state.title) state.title = titleFromContent(payload.content);
      break;
  }
}

/** Usage, model and cwd live in a handful of small line types; prompts only until a title is found. */
export function codexWants(state: FileState, has: Contains): boolean {
  // The first lines until one is known (a legacy rollout's header has no marker; a title is only found in a known
  // file), and every line of a legacy rollout.
  if ((!state.recognized && !state.title) || state.codexLegacy) return true;
  if (CODEX_MARKERS.some(has)) return true;
  return !state.title && (has('user_message') || has('"user"'));
}

const CODEX_MARKERS = ['token_count', 'token_usage_record', 'turn_context', 'session_meta'] as const;

/** Once the title is known, codexWants is "holds one of its four usage and turn markers" (a legacy rollout has none). */
export function codexSteadyMarkers(state: FileState): readonly string[] | undefined {
  return state.title && !state.codexLegacy ? CODEX_MARKERS : undefined;
}

/** Rollout files are named `rollout-…` and start with session_meta (or, before ~0.30, a bare session header). */
export function codexClaims(fileName: string, head: string): 'yes' | 'no' {
  if (/^rollout-.*\.jsonl$/.test(fileName)) return 'yes';
  return /^\{"timestamp":"[^"]*",("ordinal":\d+,)?"type":"session_meta"/.test(head) ? 'yes' : 'no';
}

/** Codex rollouts older than ~0.40 record no model: priced as gpt-5, the default then (as ccusage does). */
export const CODEX_FALLBACK_MODEL = 'gpt-5';

export function codexByModel(files: readonly { path: string; state: FileState }[], warnings: string[]): Map<number, Map<string, ModelUsage>> {
  const out = new Map<number, Map<string, ModelUsage>>();
  files.forEach(({ path, state }, i) => {
    const byModel = new Map<string, ModelUsage>();
    for (const [model, s] of Object.entries(state.codexSums)) {
      const priced = model === 'unknown' ? CODEX_FALLBACK_MODEL : model;
      if (priced !== model) warnings.push(`${path}: no model recorded; priced as ${CODEX_FALLBACK_MODEL}, Codex's default then`);
      for (const at of [0, 4]) {
        const counts = { inputTokens: s[at] ?? 0, outputTokens: s[at + 1] ?? 0, cacheCreationTokens: s[at + 2] ?? 0, cacheReadTokens: s[at + 3] ?? 0 };
        if (at === 0 || counts.inputTokens + counts.outputTokens + counts.cacheCreationTokens + counts.cacheReadTokens > 0) {
          addUsage(byModel, model, counts, costOf(priced, counts, at === 4));
        }
      }
    }
    out.set(i, byModel);
  });
  return out;
}
