// Continue (CLI `cn` and the IDE extensions): ~/.continue/sessions/<id>.json, `{sessionId, title, workspaceDirectory,
// history: [{message, contextItems, toolCallStates?, conversationSummary?}], usage}`, into the model. An assistant
// item holds its calls (message.toolCalls) and their results (toolCallStates[].output), each reply its request's
// usage; Continue's own compaction is an item with `conversationSummary`, from which on the history is sent.
import type { Block, Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { jsonErrorText } from '../../read/jsonError';
import { documentSession, metaBlock, reasoningBlock, textBlock, toolCallBlock, toolResultBlock } from '../../read/documentSession';
import { plausibleTokens } from '../../read/usageNumbers';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** What a Continue session keeps for its writer (Session.extra). */
export interface ContinueExtra {
  readonly doc: Obj;
  readonly items: readonly Obj[];
  /** The item of Continue's latest summary (0: none): the history is sent from there on. */
  readonly from: number;
}

/** MessageContent: a string, or parts `{type: 'text', text}` / `{type: 'imageUrl', imageUrl: {url}}`. */
export function contentText(c: unknown): string {
  return typeof c === 'string' ? c : arr(c).map((p) => (isObj(p) && p.type === 'text' ? str(p.text) : '')).join('\n');
}

/** A tool call state's output as the model gets it (ContextItem contents joined). */
export const outputText = (state: Obj): string => arr(state.output).map((o) => (isObj(o) ? str(o.content) : '')).join('\n');

function usageOf(u: unknown, notes: { absurd: number }): Usage | undefined {
  if (!isObj(u) || u.prompt_tokens === undefined) return undefined;
  const details = isObj(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  const prompt = plausibleTokens(u.prompt_tokens), output = plausibleTokens(u.completion_tokens);
  const cached = plausibleTokens(details.cached_tokens ?? 0), written = plausibleTokens(details.cache_write_tokens ?? 0);
  if (prompt === undefined || output === undefined || cached === undefined || written === undefined) { notes.absurd++; return undefined; }
  // OpenAI-style: prompt_tokens includes the cached part.
  return { inputTokens: Math.max(0, prompt - cached - written), outputTokens: output, cacheReadTokens: cached, cacheCreationTokens: written };
}

function itemMessages(item: Obj, r: number, notes: { absurd: number }): Message[] {
  const m = isObj(item.message) ? item.message : {};
  const role = str(m.role);
  const ref = (index: number): { record: number; index: number } => ({ record: r, index });
  if (typeof item.conversationSummary === 'string') {
    return [{ role: 'user', records: [r], blocks: [{ type: 'summary', text: item.conversationSummary, origin: 'agent', ref: ref(0), tokens: estimateTokens(item.conversationSummary) }] }];
  }
  if (role === 'user' || role === 'system') {
    const blocks: Block[] = arr(item.contextItems).flatMap((c, i) => (isObj(c) && str(c.content) ? [metaBlock('context-item', str(c.content), ref(100 + i))] : []));
    const images = arr(m.content).filter((p) => isObj(p) && p.type === 'imageUrl');
    images.forEach(() => blocks.push({ type: 'media', mime: 'image/png', bytes: 0, ref: ref(1), tokens: IMAGE_TOKENS }));
    const text = contentText(m.content);
    if (text) blocks.push(role === 'system' ? metaBlock('system', text, ref(0)) : textBlock(text, ref(0)));
    return blocks.length ? [{ role: role === 'system' ? 'system' : 'user', blocks, records: [r] }] : [];
  }
  if (role === 'thinking') {
    const text = contentText(m.content);
    const opaque = str(m.redactedThinking).length + str(m.signature).length;
    return text || opaque ? [{ role: 'assistant', blocks: [reasoningBlock(text, ref(0), opaque)], records: [r] }] : [];
  }
  if (role === 'tool') return [{ role: 'user', toolResultsOnly: true, records: [r], blocks: [toolResultBlock(str(m.toolCallId), contentText(m.content), false, ref(0))] }];
  if (role !== 'assistant') return [];
  const blocks: Block[] = [];
  const text = contentText(m.content);
  if (text.trim()) blocks.push(textBlock(text, ref(0)));
  const states = new Map(arr(item.toolCallStates).filter(isObj).map((s) => [str(s.toolCallId), s]));
  const results: Block[] = [];
  arr(m.toolCalls).filter(isObj).forEach((c, i) => {
    const fn = isObj(c.function) ? c.function : {};
    const id = str(c.id);
    blocks.push(toolCallBlock(id, str(fn.name) || 'tool', fn.arguments, ref(1 + i)));
    const s = states.get(id);
    // A call still pending or cancelled has no output; the model is told nothing for it.
    if (s && (arr(s.output).length || s.status === 'errored' || s.status === 'done')) results.push(toolResultBlock(id, outputText(s), s.status === 'errored', ref(1 + i)));
  });
  const usage = usageOf(m.usage, notes);
  const model = isObj(m.usage) ? str(m.usage.model) || undefined : undefined;
  const out: Message[] = blocks.length ? [{ role: 'assistant', blocks, records: [r], ...(model ? { model } : {}), ...(usage ? { usage } : {}) }] : [];
  if (results.length) out.push({ role: 'user', blocks: results, records: [r], toolResultsOnly: true });
  return out;
}

export function loadContinue(text: string): { doc: Obj; items: Obj[] } {
  let doc: unknown;
  try { doc = JSON.parse(text.replace(/^\uFEFF/, '')); } catch (e) { throw new Error(jsonErrorText(e)); }
  if (!isObj(doc) || !Array.isArray(doc.history)) throw new Error('not a Continue session: no history list');
  return { doc, items: doc.history.filter(isObj) };
}

export function parseContinue(files: readonly { readonly path: string; readonly text: string }[], _options: ReadOptions): Session {
  const file = files[0];
  if (!file) throw new Error('no file to read');
  if (!file.text.trim()) throw new Error(`empty file: ${file.path}`);
  const { doc, items } = loadContinue(file.text);
  const warnings: string[] = [];
  if (items.length < arr(doc.history).length) warnings.push(`${arr(doc.history).length - items.length} history item(s) that are not objects were skipped`);
  const notes = { absurd: 0 };
  const records: RawRecord[] = items.map((it) => ({ kind: isObj(it.message) ? str(it.message.role) || 'item' : 'item', inContext: false }));
  // Continue sends the history from its latest summary on.
  let from = 0;
  items.forEach((it, i) => { if (typeof it.conversationSummary === 'string') from = i; });
  if (from > 0) warnings.push(`Continue compacted this session: the ${from} item(s) before its summary are not in the live context`);
  const messages = items.flatMap((it, i) => (i >= from ? itemMessages(it, i, notes) : []));
  if (notes.absurd) warnings.push(`${notes.absurd} reply(ies) record an impossible token count; their usage is not counted`);
  const id = str(doc.sessionId) || file.path.replace(/^.*[\\/]/, '').replace(/\.json$/, '');
  const title = str(doc.title);
  const extra: ContinueExtra = { doc, items, from };
  return documentSession({
    format: 'continue', id, cwd: str(doc.workspaceDirectory) || undefined,
    // "Untitled Session" / "New Session" are the CLI's placeholders, not titles.
    title: /^(Untitled|New) Session$/.test(title) ? undefined : title,
    records, messages, warnings, text: file.text, extra: extra as unknown as Obj,
  });
}
