// Converts one Gemini CLI message record into model messages, as the CLI rebuilds them on resume: a model turn
// (thoughts, content parts, function calls) then one user turn of function responses from `toolCalls[].result`.
import type { Block, Message, SourceRef, Usage } from '../../model/transcript';
import { geminiInitialContext } from '../../model/userWords';
import { plausibleTokens } from '../../read/usageNumbers';
import { stringifySafe } from '../../read/safeJson';
import { SUMMARY_HEADER } from '../../summary/prompt';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';
import { isObj } from './detect';
import type { Entry } from './load';

type Obj = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * A block's `ref.index` is its slot in the message: its thoughts first, then its content parts, then its tool calls
 * (a call and its result share the call's slot). The writer decodes it against the original message.
 */
export interface Slots { readonly thoughts: number; readonly parts: number; readonly calls: number }

export const partsOf = (content: unknown): unknown[] => (Array.isArray(content) ? content : content === undefined || content === null || content === '' ? [] : [content]);
export const thoughtsOf = (m: Obj): Obj[] => (Array.isArray(m.thoughts) ? m.thoughts.filter(isObj) : []);
export const callsOf = (m: Obj): Obj[] => (Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObj) : []);
export const slotsOf = (m: Obj): Slots => ({ thoughts: thoughtsOf(m).length, parts: partsOf(m.content).length, calls: callsOf(m).length });

/** The text a thought summary is resumed as (`**subject** description`). */
export const thoughtText = (t: Obj): string => (str(t.subject) ? `**${str(t.subject)}** ${str(t.description)}` : str(t.description));

/** User text the CLI leaves out of a resumed history (slash and `?` commands, empty input). */
export const isSkippedUserText = (t: string): boolean => t.length === 0 || t.startsWith('/') || t.startsWith('?');
const HARNESS = ['<session_context>', '<hook_context>'];

/** The text of a message's content as the CLI flattens it for that check. */
export function contentText(content: unknown): string {
  return partsOf(content).map((p) => (typeof p === 'string' ? p : isObj(p) && typeof p.text === 'string' && p.thought === undefined ? p.text : isObj(p) && Object.keys(p).length ? '[part]' : '')).join('');
}

/** A tool call id: the recorded one, else one stable per message and position (legacy data without ids). */
export const callId = (m: Obj, tc: Obj, j: number): string => str(tc.id) || `${str(m.id)}#${j}`;

/** One Gemini content part as a block (Qwen Code records the same parts). */
export function partBlock(p: unknown, ref: SourceRef, role: 'user' | 'assistant', onTooDeep: () => void): Block {
  if (typeof p === 'string' || (isObj(p) && typeof p.text === 'string' && !p.thought)) {
    const text = typeof p === 'string' ? p : (p.text as string);
    const t = text.trimStart();
    if (role === 'user' && t.startsWith(SUMMARY_HEADER)) return { type: 'summary', text, origin: 'context-compactor', ref, tokens: estimateTokens(text) };
    if (role === 'user' && t.startsWith('<state_snapshot>')) return { type: 'summary', text, origin: 'agent', ref, tokens: estimateTokens(text) };
    if (role === 'user' && HARNESS.some((h) => t.startsWith(h))) return { type: 'meta', subtype: 'harness', text, ref, tokens: estimateTokens(text) };
    return { type: 'text', text, ref, tokens: estimateTokens(text) };
  }
  const o = isObj(p) ? p : {};
  if (o.thought && typeof o.text === 'string') return { type: 'reasoning', text: o.text, opaqueBytes: str(o.thoughtSignature).length, ref, tokens: 0 };
  const media = isObj(o.inlineData) ? o.inlineData : isObj(o.fileData) ? o.fileData : undefined;
  if (media) return { type: 'media', mime: str(media.mimeType) || 'application/octet-stream', bytes: Math.floor(str(media.data).length * 0.75), ref, tokens: IMAGE_TOKENS };
  if (isObj(o.functionCall)) {
    const inputText = stringifySafe(o.functionCall.args ?? {}, onTooDeep);
    return { type: 'tool_call', id: str(o.functionCall.id), name: str(o.functionCall.name), input: o.functionCall.args ?? {}, inputText, ref, tokens: estimateTokens(inputText) + 8 };
  }
  if (isObj(o.functionResponse)) return resultBlock(str(o.functionResponse.id), [o], false, ref, onTooDeep);
  const text = stringifySafe(o, onTooDeep);
  return { type: 'meta', subtype: `part:${Object.keys(o)[0] ?? 'empty'}`, text, ref, tokens: estimateTokens(text) };
}

/**
 * A user part as blocks: a subagent's `# Initial Context` part is two, the memory the CLI loaded (harness) and the
 * task given after it, both in the part's slot (the writer keeps the part whole while both are unchanged).
 */
function userPartBlocks(p: unknown, ref: SourceRef, onTooDeep: () => void): Block[] {
  const split = isObj(p) && typeof p.text === 'string' && !p.thought ? geminiInitialContext(p.text) : undefined;
  if (!split) return [partBlock(p, ref, 'user', onTooDeep)];
  const context: Block = { type: 'meta', subtype: 'harness', text: split.context, ref, tokens: estimateTokens(split.context) };
  return split.task.trim() ? [context, { type: 'text', text: split.task, ref, tokens: estimateTokens(split.task) }] : [context];
}

/** What a function response says: `output` (or `error`) as text, else the response as JSON; media parts counted. */
export function responseText(result: unknown, onTooDeep: () => void): { text: string; media: number; error: boolean } {
  if (typeof result === 'string') return { text: result, media: 0, error: false };
  const texts: string[] = [];
  let media = 0, error = false;
  for (const p of partsOf(result)) {
    if (typeof p === 'string') { texts.push(p); continue; }
    if (!isObj(p)) continue;
    if (isObj(p.inlineData) || isObj(p.fileData)) { media++; continue; }
    if (typeof p.text === 'string') { texts.push(p.text); continue; }
    const r = isObj(p.functionResponse) ? p.functionResponse.response : undefined;
    if (isObj(r) && typeof r.output === 'string' && Object.keys(r).length === 1) texts.push(r.output);
    else if (isObj(r) && typeof r.error === 'string') { texts.push(r.error); error = true; }
    else texts.push(stringifySafe(r ?? p, onTooDeep));
  }
  return { text: texts.join('\n'), media, error };
}

function resultBlock(id: string, result: unknown, failed: boolean, ref: SourceRef, onTooDeep: () => void): Block {
  const r = responseText(result, onTooDeep);
  return { type: 'tool_result', id, text: r.text, isError: failed || r.error, mediaCount: r.media, persisted: false, ref, tokens: estimateTokens(r.text) + r.media * IMAGE_TOKENS + 4 };
}

/** One request's usage from the `tokens` a model message recorded; undefined when absent or implausible. */
export function geminiUsage(tokens: unknown, onAbsurd: () => void): Usage | undefined {
  if (!isObj(tokens)) return undefined;
  const [input, output, cached, thoughts, tool] = [tokens.input, tokens.output, tokens.cached, tokens.thoughts ?? 0, tokens.tool ?? 0].map(plausibleTokens);
  if ([input, output, cached, thoughts, tool].includes(undefined)) { onAbsurd(); return undefined; }
  // promptTokenCount includes the cached part; thoughts are billed as output, tool-use prompts as input.
  return { inputTokens: Math.max(0, input! + tool! - cached!), outputTokens: output! + thoughts!, cacheReadTokens: cached!, cacheCreationTokens: 0 };
}

export interface Converted { readonly messages: Message[]; readonly model?: string }

/** What converting one entry after another keeps: the reading notes, and the call ids already answered. */
export interface ConvertState {
  readonly notes: { tooDeep: number; absurdUsage: number };
  readonly answered: Set<string>;
  /** Entries that only repeat responses already given (the CLI records each response twice since ~v0.5x). */
  readonly repeats: Entry[];
}

/** The model messages one entry stands for ([] for what the CLI does not send: info, errors, commands). */
export function convertEntry(e: Entry, state: ConvertState): Message[] {
  const out = convertOne(e, state.notes);
  // The CLI keys history parts by call id, so a response given again under the same id is the same part, sent once.
  for (const m of out) {
    if (m.role !== 'user') continue;
    const fresh = m.blocks.filter((b) => b.type !== 'tool_result' || !b.id || !state.answered.has(b.id));
    if (fresh.length === 0 && m.blocks.length > 0) { state.repeats.push(e); return []; }
    m.blocks.splice(0, m.blocks.length, ...fresh);
  }
  for (const m of out) for (const b of m.blocks) if (b.type === 'tool_result' && b.id) state.answered.add(b.id);
  return out;
}

function convertOne(e: Entry, notes: { tooDeep: number; absurdUsage: number }): Message[] {
  const m = e.message;
  const onTooDeep = (): void => { notes.tooDeep++; };
  const ref = (index: number): SourceRef => ({ record: e.record, index });
  const timestamp = str(m.timestamp) || undefined;
  const parts = partsOf(m.content);
  const thoughts = thoughtsOf(m);
  if (m.type === 'user') {
    if (isSkippedUserText(contentText(m.content).trim())) return [];
    const blocks = parts.flatMap((p, i) => userPartBlocks(p, ref(thoughts.length + i), onTooDeep));
    const resultsOnly = blocks.length > 0 && blocks.every((b) => b.type === 'tool_result');
    return [{ role: 'user', blocks, records: [e.record], timestamp, ...(resultsOnly ? { toolResultsOnly: true } : {}) }];
  }
  if (m.type !== 'gemini') return [];
  const calls = callsOf(m);
  const contentBlocks = parts.map((p, i) => partBlock(p, ref(thoughts.length + i), 'assistant', onTooDeep));
  // Current sessions may carry calls and thoughts as content parts; then content is all the model said.
  const modern = contentBlocks.some((b) => b.type === 'tool_call' || b.type === 'reasoning');
  const blocks: Block[] = modern ? contentBlocks : [
    // Thought summaries are shown, never sent back: the CLI leaves them out of the request (0 tokens on resume).
    ...thoughts.map((t, i): Block => ({ type: 'reasoning', text: thoughtText(t), opaqueBytes: 0, ref: ref(i), tokens: 0 })),
    ...contentBlocks.filter((b) => !(b.type === 'text' && b.text === '')),
    ...calls.map((tc, j): Block => {
      const inputText = stringifySafe(tc.args ?? {}, onTooDeep);
      return { type: 'tool_call', id: callId(m, tc, j), name: str(tc.name), input: tc.args ?? {}, inputText, ref: ref(thoughts.length + parts.length + j), tokens: estimateTokens(inputText) + 8 };
    }),
  ];
  if (blocks.length === 0) return [];
  const usage = geminiUsage(m.tokens, () => { notes.absurdUsage++; });
  const out: Message[] = [{ role: 'assistant', blocks, records: [e.record], timestamp, model: str(m.model) || undefined, apiId: str(m.id) || undefined, ...(usage ? { usage } : {}) }];
  const results = calls.flatMap((tc, j) => (tc.result ? [resultBlock(callId(m, tc, j), tc.result, tc.status === 'error', ref(thoughts.length + parts.length + j), onTooDeep)] : []));
  if (results.length) out.push({ role: 'user', blocks: results, records: [e.record], timestamp, toolResultsOnly: true });
  return out;
}
