// Claude Code usage: which lines matter, how a record folds into a file's state, and per-model usage of a set of
// files with ccusage-compatible dedupe (a resumed session repeats its predecessor's responses).
import { asObject, count, type Json, modelIndex, noteTimestamp, str } from '../../usage/common';
import { CLAUDE_CODE_WINDOW, sessionContextWindow } from '../../usage/contextWindow';
import { titleFromContent, titleFromText } from '../../usage/title';
import { betterRow, rowsByModel } from '../../usage/rows';
import type { ClaudeRow, Contains, FileState } from '../../usage/types';
import { choosesOneMillion, modelChosen } from './modelCommand';

const SYNTHETIC_MODEL = '<synthetic>';
/**
 * `/model`'s answer, the record Claude Code ≤ 2.1.92 writes for it (modelCommand.ts reads only this tagged form), and
 * Claude Code 2.1.1xx's `ai-title` record as it writes it (compact JSON). Marker lines are searched for in every byte
 * of a transcript: a long marker whose last character is rare in JSON is skipped past faster by the search (these
 * three: 9–13 ms per 50 MB each, where `"commandRun"` took 19–37, `Set model to` and `"ai-title"` 30–55).
 */
const MODEL_ANSWER = 'command-stdout>Set model to';
/** A `/model` Claude Code 2.1.1xx records with its arguments (other local commands' records tell usage nothing). */
const MODEL_RUN = '"commandRun":{"command":"model"';
const AI_TITLE = '"ai-title","aiTitle"';
const ONE_MILLION = 1_000_000;

/**
 * Cache-write tokens as ccusage 20.0.24 counts them: when the `cache_creation` breakdown object is
 * present, the sum of its 5m + 1h buckets wins over `cache_creation_input_tokens`. The real API keeps
 * both equal; the loopback generator does not (2000 vs 0), and parity with ccusage is the contract.
 */
function cacheCreationTokens(usage: Json): [all: number, oneHour: number] {
  const breakdown = asObject(usage.cache_creation);
  if (breakdown && ('ephemeral_5m_input_tokens' in breakdown || 'ephemeral_1h_input_tokens' in breakdown)) {
    const oneHour = count(breakdown.ephemeral_1h_input_tokens);
    return [count(breakdown.ephemeral_5m_input_tokens) + oneHour, oneHour];
  }
  return [count(usage.cache_creation_input_tokens), 0];
}


function noteEnvelope(state: FileState, rec: Json): void {
  state.recognized = true;
  state.sessionId ??= str(rec.sessionId);
  // `cwd` from records: the projects/<slug> folder name is a lossy encoding of it.
  state.project ??= str(rec.cwd);
  noteTimestamp(state, rec.timestamp);
}

function applyAssistant(state: FileState, rec: Json, message: Json): void {
  const usage = asObject(message.usage);
  const model = str(message.model) ?? 'unknown';
  if (!usage || model === SYNTHETIC_MODEL) return; // API-error placeholders carry no billed usage.
  noteEnvelope(state, rec);
  const sidechain = rec.isSidechain === true ? 1 : 0;
  const input = count(usage.input_tokens);
  const output = count(usage.output_tokens);
  const cacheRead = count(usage.cache_read_input_tokens);
  const [cacheWrite, cacheWrite1h] = cacheCreationTokens(usage);
  // Context fill uses the API's own cache_creation_input_tokens: it is what occupied the window.
  const context = input + cacheRead + count(usage.cache_creation_input_tokens);
  // An impossible figure (NaN, see count) voids the whole record, as the transcript readers do: never counted as 0.
  if (Number.isNaN(context + output + cacheWrite)) {
    state.absurdUsage++;
    return;
  }
  const row: ClaudeRow = ['', input, output, cacheWrite, cacheRead, modelIndex(state, model), sidechain, cacheWrite1h];
  const messageId = str(message.id);
  let key: string;
  if (messageId) {
    // Claude Code ≥2.1.3xx writes `requestRef` instead of `requestId`; both are constant per response.
    const requestId = str(rec.requestId) ?? str(rec.requestRef) ?? '';
    // The ids themselves, not hashes of them: hashing two strings per record was a tenth of a cold scan.
    row[0] = messageId;
    key = `#${messageId}:${requestId}`; // '#': never an `anon:` key
  } else {
    key = `anon:${state.anonymousRows++}`;
  }
  const current = state.rows.get(key);
  if (!current || betterRow(row, current)) state.rows.set(key, row);
  if (!sidechain) state.contextTokens = context;
  // Two requests past 200k ran with the 1M window (a `[1m]` model): the session's window from then on, as the reader
  // says (read.ts windowFacts). One alone may be a bogus usage record; the first is kept to tell the next one apart.
  if (!sidechain && context > CLAUDE_CODE_WINDOW) {
    if (state.longRequest === undefined) state.longRequest = key;
    else if (state.longRequest !== key) state.contextWindow = Math.max(state.contextWindow ?? 0, sessionContextWindow('claude-code', model, { peak: context }) ?? 0) || undefined;
  }
}

function applyUser(state: FileState, rec: Json, message: Json): void {
  noteEnvelope(state, rec);
  if (state.title || rec.isMeta === true || rec.isSidechain === true || rec.isCompactSummary === true) return;
  state.title = titleFromContent(message.content);
}

/**
 * A `/model` that succeeded (modelCommand.ts: its `commandRun.args`, or what its answer names): the window from then on
 * is 1M when it chose the 1M context, else what the requests after it show, as the reader decides (claude-code/read.ts).
 */
function applyModelCommand(state: FileState, rec: Json): void {
  const chosen = modelChosen(rec);
  if (chosen === undefined || rec.isSidechain === true) return;
  state.contextWindow = choosesOneMillion(chosen) ? ONE_MILLION : undefined;
  state.longRequest = undefined;
}

/** Applies one Claude record; unknown record types are ignored on purpose (formats keep growing). */
export function applyClaudeRecord(state: FileState, rec: Json): void {
  if (!state.firstTimestamp && typeof rec.sessionId === 'string') noteTimestamp(state, rec.timestamp);
  if (rec.type === 'system') { applyModelCommand(state, rec); return; }
  // Claude Code 2.1.1xx's own name for the session wins over the first prompt, as in the reader (read.ts).
  if (rec.type === 'ai-title') { const t = typeof rec.aiTitle === 'string' ? titleFromText(rec.aiTitle) : undefined; if (t) state.title = t; return; }
  const message = asObject(rec.message);
  if (!message) return;
  if (rec.type === 'assistant') applyAssistant(state, rec, message);
  else if (rec.type === 'user') { applyModelCommand(state, rec); applyUser(state, rec, message); }
}

/**
 * Only assistant records carry `"usage"`, only a `/model`'s record its `"commandRun"` or, up to Claude Code 2.1.92, its
 * answer `Set model to` (the window); user records matter only until a title is found, and tool-result user records
 * (the bulk of a transcript's bytes) never give a title. `"usage"` avoids `:` so spaced JSON still passes (correctness
 * rests on JSON.parse); the `/model` and `ai-title` markers are Claude Code's own compact JSON (it writes no other).
 */
export function claudeWants(state: FileState, has: Contains): boolean {
  if (has('"usage"') || has(MODEL_RUN) || has(MODEL_ANSWER)) return true;
  // The session's start: the first timestamped line (often a tiny queue-operation), parsed once.
  if (!state.firstTimestamp && has('"timestamp"')) return true;
  if (has(AI_TITLE)) return true;
  return !state.title && has('"user"') && !has('"tool_result"');
}

/** Requests' usage, a `/model`'s record or answer (the window), and the session's `ai-title`. */
const STEADY: readonly string[] = ['"usage"', MODEL_RUN, MODEL_ANSWER, AI_TITLE];

/** Once the title and the first timestamp are known, claudeWants is has() of one of STEADY. */
export function claudeSteadyMarkers(state: FileState): readonly string[] | undefined {
  return state.title && state.firstTimestamp ? STEADY : undefined;
}

/** Claude Code has no fixed first line; any JSON object line is plausible when no agent is certain. */
export function claudeClaims(_fileName: string, head: string): 'maybe' | 'no' {
  return head.trimStart().startsWith('{') ? 'maybe' : 'no';
}

/** Claude dedupe across files, as ccusage does it: see usage/rows.ts. */
export const claudeByModel = rowsByModel;
