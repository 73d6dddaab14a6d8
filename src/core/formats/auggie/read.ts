// Auggie (Augment's CLI, npm @augmentcode/auggie): ~/.augment/sessions/<id>.json, `{sessionId, created, modified,
// chatHistory: [{exchange: {request_message, request_nodes, response_text, response_nodes}}], agentState: {modelId}}`,
// into the model. Request nodes: 0 text, 1 tool result, 2 image, 4 IDE state, 10 history summary; response nodes:
// 0 text, 5 tool use, 8 thinking, 10 token usage (as the 0.36 bundle builds them). An exchange is one model call.
import type { Block, Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { jsonErrorText } from '../../read/jsonError';
import { documentSession, metaBlock, reasoningBlock, textBlock, toolCallBlock, toolResultBlock } from '../../read/documentSession';
import { plausibleTokens } from '../../read/usageNumbers';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const nodes = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** Auggie's summary of the history before it: a history_summary_node, or a supervisor text holding a <summary>. */
function summaryOf(ex: Obj): string | undefined {
  for (const n of nodes(ex.request_nodes)) {
    if (n.type === 10 && isObj(n.history_summary_node)) return str(n.history_summary_node.summary_text) || JSON.stringify(n.history_summary_node);
    const t = isObj(n.text_node) ? str(n.text_node.content).trim() : '';
    if (n.type === 0 && t.startsWith('<supervisor>') && t.endsWith('</supervisor>') && t.includes('<summary')) return t;
  }
  return undefined;
}

function usageOf(n: Obj, notes: { absurd: number }): Usage | undefined {
  const u = isObj(n.token_usage) ? n.token_usage : undefined;
  if (!u) return undefined;
  const v = [u.input_tokens, u.output_tokens, u.cache_read_input_tokens ?? 0, u.cache_creation_input_tokens ?? 0].map(plausibleTokens);
  if (v.some((x) => x === undefined)) { notes.absurd++; return undefined; }
  return { inputTokens: v[0]!, outputTokens: v[1]!, cacheReadTokens: v[2]!, cacheCreationTokens: v[3]! };
}

function exchangeMessages(ex: Obj, r: number, model: string | undefined, notes: { absurd: number }, summary: boolean): Message[] {
  const out: Message[] = [];
  const results: Block[] = [];
  const user: Block[] = [];
  const req = nodes(ex.request_nodes);
  req.forEach((n, i) => {
    const ref = { record: r, index: i };
    if (n.type === 1 && isObj(n.tool_result_node)) {
      const t = n.tool_result_node;
      const text = str(t.content) || nodes(t.content_nodes).map((c) => str(c.text_content)).join('\n');
      results.push(toolResultBlock(str(t.tool_use_id), text, t.is_error === true, ref));
    } else if (n.type === 0 && isObj(n.text_node) && str(n.text_node.content).trim()) {
      const t = str(n.text_node.content);
      user.push(summary && t.includes('<summary') ? { type: 'summary', text: t, origin: 'agent', ref, tokens: estimateTokens(t) } : textBlock(t, ref));
    } else if (n.type === 10 && isObj(n.history_summary_node)) {
      const t = summaryOf(ex)!;
      user.push({ type: 'summary', text: t, origin: 'agent', ref, tokens: estimateTokens(t) });
    } else if (n.type === 2) user.push({ type: 'media', mime: 'image/png', bytes: 0, ref, tokens: IMAGE_TOKENS });
    else if (n.type === 4 && isObj(n.ide_state_node)) user.push(metaBlock('ide-state', JSON.stringify(n.ide_state_node), ref));
  });
  if (req.length === 0 && str(ex.request_message).trim()) user.push(textBlock(str(ex.request_message), { record: r, index: -1 }));
  if (results.length) out.push({ role: 'user', blocks: results, records: [r], toolResultsOnly: true });
  if (user.length) out.push({ role: 'user', blocks: user, records: [r] });
  const reply: Block[] = [];
  let usage: Usage | undefined;
  let time: number | undefined;
  const res = nodes(ex.response_nodes);
  res.forEach((n, i) => {
    const ref = { record: r, index: 1000 + i };
    if (typeof n.timestamp_ms === 'number') time = n.timestamp_ms;
    if (n.type === 0 && str(n.content).trim()) reply.push(textBlock(str(n.content), ref));
    else if (n.type === 5 && isObj(n.tool_use)) reply.push(toolCallBlock(str(n.tool_use.tool_use_id), str(n.tool_use.tool_name) || 'tool', str(n.tool_use.input_json) || '{}', ref));
    else if (n.type === 8 && isObj(n.thinking)) {
      const th = n.thinking;
      reply.push(reasoningBlock(str(th.content) || str(th.summary), ref, str(th.encrypted_content).length));
    } else if (n.type === 10) usage = usageOf(n, notes) ?? usage; // the exchange's request: its last figures
  });
  if (!reply.some((b) => b.type === 'text') && str(ex.response_text).trim()) reply.unshift(textBlock(str(ex.response_text), { record: r, index: 999 }));
  const timestamp = time === undefined ? undefined : new Date(time).toISOString();
  if (reply.length) out.push({ role: 'assistant', blocks: reply, records: [r], ...(model ? { model } : {}), ...(usage ? { usage } : {}), ...(timestamp ? { timestamp } : {}) });
  return out;
}

/** The working folder the first IDE state names. */
function cwdOf(items: readonly Obj[]): string | undefined {
  for (const it of items) {
    for (const n of nodes(isObj(it.exchange) ? it.exchange.request_nodes : undefined)) {
      const s = isObj(n.ide_state_node) ? n.ide_state_node : undefined;
      if (!s) continue;
      const folder = nodes(s.workspace_folders)[0];
      const term = isObj(s.current_terminal) ? str(s.current_terminal.current_working_directory) : '';
      const root = folder ? str(folder.repository_root) || str(folder.folder_root) : '';
      if (root || term) return root || term;
    }
  }
  return undefined;
}

export function parseAuggie(files: readonly { readonly path: string; readonly text: string }[], _options: ReadOptions): Session {
  const file = files[0];
  if (!file) throw new Error('no file to read');
  if (!file.text.trim()) throw new Error(`empty file: ${file.path}`);
  let doc: unknown;
  try { doc = JSON.parse(file.text.replace(/^\uFEFF/, '')); } catch (e) { throw new Error(jsonErrorText(e)); }
  if (!isObj(doc) || !Array.isArray(doc.chatHistory)) throw new Error('not an Auggie session: no chatHistory list');
  const items = doc.chatHistory.filter((it): it is Obj => isObj(it) && isObj(it.exchange));
  const warnings: string[] = [];
  if (items.length < doc.chatHistory.length) warnings.push(`${doc.chatHistory.length - items.length} chat history item(s) without an exchange were skipped`);
  const model = isObj(doc.agentState) ? str(doc.agentState.modelId) || undefined : undefined;
  let from = 0;
  items.forEach((it, i) => { if (summaryOf(it.exchange as Obj) !== undefined) from = i; });
  if (from > 0) warnings.push(`Auggie summarized this session: the ${from} exchange(s) before its summary are not in the live context`);
  const notes = { absurd: 0 };
  const records: RawRecord[] = items.map(() => ({ kind: 'exchange', inContext: false }));
  const messages = items.flatMap((it, i) => (i >= from ? exchangeMessages(it.exchange as Obj, i, model, notes, i === from && from > 0) : []));
  if (notes.absurd) warnings.push(`${notes.absurd} exchange(s) record an impossible token count; their usage is not counted`);
  const id = str(doc.sessionId) || file.path.replace(/^.*[\\/]/, '').replace(/\.json$/, '');
  return documentSession({
    format: 'auggie', id, cwd: cwdOf(items), title: str(doc.customTitle) || str(doc.title) || undefined,
    records, messages, warnings, text: file.text, extra: { created: doc.created, modified: doc.modified },
  });
}
