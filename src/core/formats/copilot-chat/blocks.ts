// One Copilot Chat request into model messages, as the extension rebuilds its history: the user message (as
// rendered, when the result recorded it), then the tool-calling rounds with their results (result.metadata), or —
// for requests without them (ask mode, older versions) — the response parts the chat view shows.
import type { Block, Message, SourceRef, Usage } from '../../model/transcript';
import { stringifySafe } from '../../read/safeJson';
import { plausibleTokens } from '../../read/usageNumbers';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';
import { isObj, type Obj } from './load';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface ConvertState {
  /** The workspace context (environment, folders) is rendered into the history once. */
  globalContextSeen: boolean;
  tooDeep: number;
  /** Requests whose recorded usage holds an impossible token count (see plausibleTokens): not counted. */
  absurdUsage: number;
}

/** Text of Raw chat content parts (`{type: 1, text}`; cache breakpoints and images carry none). */
const partsText = (parts: unknown): string => arr(parts).map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : '')).join('');

/** MarkdownString (`{value}`), a plain string, or `{content: {value}}` (a markdownContent part). */
export const markdownOf = (v: unknown): string => (typeof v === 'string' ? v : isObj(v) ? (typeof v.value === 'string' ? v.value : isObj(v.content) ? str(v.content.value) : '') : '');

/** A prompt-tsx tree or a LanguageModelToolResult as text (text parts and chunks in order, line breaks kept). */
export function resultText(v: unknown, media: { count: number }, depth = 0): string {
  const out = { s: '' };
  appendResult(v, out, media, depth);
  return out.s;
}

/** prompt-tsx puts a chunk's `lineBreakBefore` only where the text so far does not already end a line. */
function appendResult(v: unknown, out: { s: string }, media: { count: number }, depth: number): void {
  if (depth > 60) return;
  const each = (xs: unknown[], sep = ''): void => xs.forEach((x, i) => { if (i > 0) out.s += sep; appendResult(x, out, media, depth + 1); });
  if (typeof v === 'string') out.s += v;
  else if (Array.isArray(v)) each(v);
  else if (!isObj(v)) out.s += v === undefined || v === null ? '' : String(v);
  else if (typeof v.mimeType === 'string' && (typeof v.data === 'string' || isObj(v.data))) media.count++;
  else if (typeof v.text === 'string') out.s += `${v.lineBreakBefore && out.s !== '' && !out.s.endsWith('\n') ? '\n' : ''}${v.text}`;
  else if (Array.isArray(v.content)) each(v.content, '\n');
  else if (typeof v.value === 'string') out.s += v.value;
  else if (isObj(v.value)) appendResult(v.value, out, media, depth + 1);
  else if (isObj(v.node)) appendResult(v.node, out, media, depth + 1);
  else if (Array.isArray(v.children)) each(v.children);
}

/** What a file URI (a UriComponents object or a string) names, for references shown inline. */
export const uriPath = (u: unknown): string => (typeof u === 'string' ? u : isObj(u) ? str(u.fsPath) || str(u.path) || str(u.external) : '');

/** The user message: what the extension rendered (attachments, context) when recorded, else the prompt and attachments. */
function userBlocks(req: Obj, md: Obj, record: number, state: ConvertState): Block[] {
  const ref = (index: number): SourceRef => ({ record, index });
  const blocks: Block[] = [];
  const meta = (subtype: string, text: string, i: number): void => { if (text.trim()) blocks.push({ type: 'meta', subtype, text, ref: ref(i), tokens: estimateTokens(text) }); };
  if (Array.isArray(md.renderedGlobalContext) && !state.globalContextSeen) {
    state.globalContextSeen = true;
    meta('workspace-context', partsText(md.renderedGlobalContext), 0);
  }
  const prompt = isObj(req.message) ? str(req.message.text) : str(req.message);
  if (Array.isArray(md.renderedUserMessage)) {
    // The request itself is the prompt; the rest of the rendered message is context the extension added.
    meta('request-context', partsText(md.renderedUserMessage).replace(/<userRequest>[\s\S]*?<\/userRequest>\s*/g, '').trim(), 1);
  } else {
    const lines: string[] = [];
    arr(isObj(req.variableData) ? req.variableData.variables : undefined).forEach((v) => {
      if (!isObj(v)) return;
      const name = str(v.name) || str(v.id) || 'attachment';
      if (v.kind === 'image' || v.isImage === true) {
        blocks.push({ type: 'media', mime: str(v.mimeType) || 'image/png', bytes: typeof v.value === 'string' ? Math.floor(v.value.length * 0.75) : 0, ref: ref(2), tokens: IMAGE_TOKENS });
        return;
      }
      const where = uriPath(isObj(v.value) && 'uri' in v.value ? v.value.uri : v.value);
      lines.push(typeof v.value === 'string' ? `${name}: ${v.value}` : where ? `${name} (${where})` : name);
    });
    meta('attachments', lines.join('\n'), 1);
  }
  if (prompt.trim()) blocks.push({ type: 'text', text: prompt, ref: ref(3), tokens: estimateTokens(prompt) });
  return blocks;
}

function toolCall(id: string, name: string, args: unknown, ref: SourceRef, state: ConvertState): Block {
  const inputText = typeof args === 'string' ? args : stringifySafe(args ?? {}, () => { state.tooDeep++; });
  let input: unknown = args ?? {};
  if (typeof args === 'string') { try { input = JSON.parse(args); } catch { input = args; } }
  return { type: 'tool_call', id, name, input, inputText, ref, tokens: estimateTokens(inputText) + 8 };
}

function toolResult(id: string, value: unknown, ref: SourceRef): Block {
  const media = { count: 0 };
  const text = resultText(value, media);
  return { type: 'tool_result', id, text, isError: false, mediaCount: media.count, persisted: false, ref, tokens: estimateTokens(text) + media.count * IMAGE_TOKENS + 4 };
}

/** Agent mode: each round is a reply (thinking, text, calls) answered by its tools' results. */
function roundMessages(rounds: Obj[], results: Obj, record: number, base: Partial<Message>, state: ConvertState): Message[] {
  const out: Message[] = [];
  rounds.forEach((r, i) => {
    const ref: SourceRef = { record, index: i };
    const blocks: Block[] = [];
    const thinking = isObj(r.thinking) ? r.thinking : undefined;
    const thought = thinking ? (Array.isArray(thinking.text) ? thinking.text.map(str).join('') : str(thinking.text)) : '';
    // Copilot keeps a round's thinking only to continue that request; what later requests carry is the id (a signature).
    if (thinking && (thought || str(thinking.id).length > 64)) blocks.push({ type: 'reasoning', text: thought, opaqueBytes: str(thinking.id).length > 64 ? str(thinking.id).length : 0, ref, tokens: 0 });
    if (str(r.response).trim()) blocks.push({ type: 'text', text: str(r.response), ref, tokens: estimateTokens(str(r.response)) });
    const calls = arr(r.toolCalls).filter(isObj);
    calls.forEach((c, j) => blocks.push(toolCall(str(c.id) || `${str(r.id)}#${j}`, str(c.name), c.arguments, { record, index: i, item: j }, state)));
    if (blocks.length) out.push({ ...base, role: 'assistant', blocks, records: [record], apiId: str(r.id) || undefined } as Message);
    const answered = calls.flatMap((c, j) => {
      const id = str(c.id) || `${str(r.id)}#${j}`;
      return id in results ? [toolResult(id, results[id], { record, index: i, item: j })] : [];
    });
    if (answered.length) out.push({ role: 'user', blocks: answered, records: [record], timestamp: base.timestamp, toolResultsOnly: true });
  });
  return out;
}

/** Ask/edit mode and older sessions: the response parts, tool invocations paired with what they showed as result. */
function partMessages(parts: unknown[], record: number, requestId: string, base: Partial<Message>): Message[] {
  const out: Message[] = [];
  let blocks: Block[] = [];
  let results: Block[] = [];
  let text = '';
  const flushText = (i: number): void => {
    if (text.trim()) blocks.push({ type: 'text', text, ref: { record, index: i }, tokens: estimateTokens(text) });
    text = '';
  };
  const flush = (): void => {
    if (blocks.length) out.push({ ...base, role: 'assistant', blocks, records: [record] } as Message);
    if (results.length) out.push({ role: 'user', blocks: results, records: [record], timestamp: base.timestamp, toolResultsOnly: true });
    blocks = [];
    results = [];
  };
  parts.forEach((p, i) => {
    if (!isObj(p)) return;
    const kind = str(p.kind);
    if (kind === '' || kind === 'markdownContent') {
      if (results.length) { flushText(i); flush(); }
      text += markdownOf(p);
    } else if (kind === 'inlineReference') {
      const r = isObj(p.inlineReference) ? p.inlineReference : undefined;
      text += `\`${str(p.name) || str(r?.name) || uriPath(isObj(r?.location) ? r!.location.uri : r).split(/[\\/]/).pop() || 'reference'}\``;
    } else if (kind === 'thinking') {
      flushText(i);
      const t = Array.isArray(p.value) ? p.value.map(str).join('') : str(p.value);
      if (t.trim()) blocks.push({ type: 'reasoning', text: t, opaqueBytes: 0, ref: { record, index: i }, tokens: 0 });
    } else if (kind === 'toolInvocationSerialized' || kind === 'toolInvocation') {
      flushText(i);
      const id = str(p.toolCallId) || `${requestId}#${i}`;
      const data = isObj(p.toolSpecificData) ? p.toolSpecificData : {};
      const details = isObj(p.resultDetails) ? p.resultDetails : undefined;
      const input = data.rawInput ?? data.commandLine ?? details?.input ?? markdownOf(p.invocationMessage);
      const ref = { record, index: i };
      const inputText = typeof input === 'string' ? input : JSON.stringify(input ?? {});
      blocks.push({ type: 'tool_call', id, name: str(p.toolId) || 'tool', input, inputText, ref, tokens: estimateTokens(inputText) + 8 });
      const shown = details && Array.isArray(details.output) ? details.output.map((o) => (isObj(o) ? str(o.value) : '')).join('\n') : markdownOf(p.pastTenseMessage) || markdownOf(p.invocationMessage);
      results.push({ type: 'tool_result', id, text: shown, isError: details?.isError === true, mediaCount: 0, persisted: false, ref, tokens: estimateTokens(shown) + 4 });
    } else if (kind === 'textEditGroup' || kind === 'notebookEditGroup') {
      flushText(i);
      const edits = arr(p.edits).reduce<number>((n, e) => n + arr(e).length, 0);
      const t = `edited ${uriPath(p.uri) || 'a file'} (${edits} edit${edits === 1 ? '' : 's'})`;
      blocks.push({ type: 'meta', subtype: 'file-edit', text: t, ref: { record, index: i }, tokens: estimateTokens(t) });
    }
    // Other parts (progress, confirmations, code block URIs, undo stops, MCP notices) are the chat view's, not the model's.
  });
  flushText(parts.length);
  flush();
  return out;
}

/** The usage a result recorded (newer extensions: prompt and output tokens of the request's last call). */
function usageOf(md: Obj, state: ConvertState): Usage | undefined {
  if (md.promptTokens === undefined || md.promptTokens === null) return undefined;
  const input = plausibleTokens(md.promptTokens), output = plausibleTokens(md.outputTokens);
  if (input === undefined || output === undefined) { state.absurdUsage++; return undefined; }
  return { inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheCreationTokens: 0 };
}

/** The model id a request names (`copilot/claude-sonnet-4` → `claude-sonnet-4`). */
export const modelOfRequest = (req: Obj, md: Obj): string | undefined => (str(md.resolvedModel) || str(req.modelId)).replace(/^copilot\//, '') || undefined;

export function convertRequest(req: Obj, record: number, state: ConvertState): Message[] {
  const result = isObj(req.result) ? req.result : {};
  const md = isObj(result.metadata) ? result.metadata : {};
  const timestamp = typeof req.timestamp === 'number' && Number.isFinite(req.timestamp) ? new Date(req.timestamp).toISOString() : undefined;
  const model = modelOfRequest(req, md);
  const out: Message[] = [];
  const user = userBlocks(req, md, record, state);
  if (user.length) out.push({ role: 'user', blocks: user, records: [record], timestamp });
  const base: Partial<Message> = { timestamp, ...(model ? { model } : {}) };
  const rounds = arr(md.toolCallRounds).filter(isObj);
  const replies = rounds.length ? roundMessages(rounds, isObj(md.toolCallResults) ? md.toolCallResults : {}, record, base, state) : partMessages(arr(req.response), record, str(req.requestId), base);
  const error = isObj(result.errorDetails) ? str(result.errorDetails.message) : '';
  if (error && !replies.some((m) => m.role === 'assistant')) {
    replies.push({ ...base, role: 'assistant', records: [record], blocks: [{ type: 'meta', subtype: 'error', text: error, ref: { record }, tokens: estimateTokens(error) }] } as Message);
  }
  const usage = usageOf(md, state);
  const last = [...replies].reverse().find((m) => m.role === 'assistant');
  if (usage && last) last.usage = usage;
  return [...out, ...replies];
}
