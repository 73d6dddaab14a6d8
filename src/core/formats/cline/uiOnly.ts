// Reads a Cline / Roo / Kilo task folder that holds only ui_messages.json (exported or committed tasks): the
// conversation as the user saw it, rebuilt into messages. Tool calls come from `tool` entries (JSON: tool name,
// arguments, content) and `command` entries with their `command_output`; usage from `api_req_started`.
import type { Block, Message, RawRecord, Usage } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { plausibleTokens } from '../../read/usageNumbers';
import { estimateTokens } from '../../tokens/estimate';
import { TEXT_RESULT } from './blocks';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface UiOnly { readonly records: RawRecord[]; readonly messages: Message[] }

/** Where the next tool's result starts inside a request's text. */
const RESULT_START = /\n\n(?=\[[A-Za-z0-9_.:-]+(?: for [^\n]*?)?\] Result:)/;

/** A result the log kept nothing of (no content, no request text after it). */
export const NOT_RECORDED = '(result not recorded in ui_messages.json)';

/** Tool entry fields that are display state, not arguments the model gave. */
const NOT_ARGS = new Set(['tool', 'content', 'operationIsLocatedInWorkspace', 'diff']);

function json(text: string): Obj | undefined {
  try { const v: unknown = JSON.parse(text); return isObj(v) ? v : undefined; } catch { return undefined; }
}

/** The text a follow-up question or plan reply shows (Cline stores them as JSON; old versions as plain text). */
function shownText(text: string, key: string): string {
  const o = text.trimStart().startsWith('{') ? json(text) : undefined;
  return typeof o?.[key] === 'string' ? (o[key] as string) : text;
}

function usageOf(text: string): Usage | undefined {
  const info = json(text);
  if (!info || (info.tokensIn === undefined && info.tokensOut === undefined)) return undefined;
  const n = [info.tokensIn, info.tokensOut, info.cacheReads, info.cacheWrites].map(plausibleTokens);
  if (n.some((x) => x === undefined)) return undefined;
  return { inputTokens: n[0]!, outputTokens: n[1]!, cacheReadTokens: n[2]!, cacheCreationTokens: n[3]! };
}

export function parseUiOnly(ui: readonly unknown[], options: ReadOptions, warnings: string[]): UiOnly {
  const records: RawRecord[] = ui.map((u) => ({
    raw: options.keepRaw ? JSON.stringify(u) : undefined,
    kind: isObj(u) ? `${String(u.type)}:${String(u.say ?? u.ask)}` : 'invalid',
    inContext: false,
  }));
  const messages: Message[] = [];
  let cur: { blocks: Block[]; records: number[]; ts?: string; model?: string; usage?: Usage } | undefined;
  let pending: { usage?: Usage; model?: string } = {};
  let started = false;
  let absurd = 0;
  /** Result messages made since the last request: the next request's text holds their results, in order. */
  let awaiting: number[] = [];
  const flush = (): void => {
    if (cur && cur.blocks.length) messages.push({ role: 'assistant', blocks: cur.blocks, records: cur.records, timestamp: cur.ts, model: cur.model, usage: cur.usage });
    cur = undefined;
  };
  const tsOf = (u: Obj): string | undefined => (typeof u.ts === 'number' && Number.isFinite(u.ts) ? new Date(u.ts).toISOString() : undefined);
  const modelOf = (u: Obj): string | undefined => (isObj(u.modelInfo) && typeof u.modelInfo.modelId === 'string' ? u.modelInfo.modelId : undefined);
  const user = (block: Block, r: number, u: Obj, resultsOnly = false): void => {
    flush();
    records[r]!.inContext = true;
    messages.push({ role: 'user', blocks: [block], records: [r], timestamp: tsOf(u), ...(resultsOnly ? { toolResultsOnly: true } : {}) });
  };
  const assistant = (block: Block, r: number, u: Obj): void => {
    if (!cur) {
      cur = { blocks: [], records: [], ts: tsOf(u), model: pending.model ?? modelOf(u), usage: pending.usage };
      pending = {};
    }
    cur.blocks.push(block);
    if (!cur.records.includes(r)) cur.records.push(r);
    records[r]!.inContext = true;
  };
  const text = (t: string, r: number): Block => ({ type: 'text', text: t, ref: { record: r }, tokens: estimateTokens(t) });
  const pair = (r: number, u: Obj, name: string, input: unknown, result: string, resultRecords: number[]): void => {
    const id = `ui-${r}`;
    const inputText = JSON.stringify(input);
    assistant({ type: 'tool_call', id, name, input, inputText, ref: { record: r }, tokens: estimateTokens(name + inputText) }, r, u);
    const at = resultRecords[0] ?? r;
    if (!result) result = NOT_RECORDED;
    user({ type: 'tool_result', id, text: result, isError: false, mediaCount: 0, persisted: false, ref: { record: at }, tokens: estimateTokens(result) }, at, u, true);
    for (const k of resultRecords) records[k]!.inContext = true;
    const last = messages[messages.length - 1]!;
    if (resultRecords.length > 1) messages[messages.length - 1] = { ...last, records: resultRecords };
    awaiting.push(messages.length - 1);
  };

  /**
   * What a request sent besides what the log shows elsewhere (Cline records it in api_req_started.request): the
   * whole "[tool] Result:" text the model got (the tool entry holds only a preview or a path), the environment details.
   */
  const sent = (request: string, r: number, u: Obj): void => {
    const cut = request.search(/(?:\n\n)?<environment_details>/);
    const head = (cut < 0 ? request : request.slice(0, cut)).trim();
    const env = cut < 0 ? '' : request.slice(cut).trim();
    const last = messages[messages.length - 1];
    const meta = (text: string, subtype: string): Block => ({ type: 'meta', subtype, text, ref: { record: r }, tokens: estimateTokens(text) });
    records[r]!.inContext = true;
    const waiting = awaiting;
    awaiting = [];
    if (last?.toolResultsOnly && TEXT_RESULT.test(head)) {
      // Several calls answered by one request: its text holds one "[tool] Result:" part per call, in order.
      const parts = head.split(RESULT_START);
      const texts = waiting.length > 1 && parts.length === waiting.length && waiting[waiting.length - 1] === messages.length - 1 ? parts : [head];
      const at = texts.length > 1 ? waiting : [messages.length - 1];
      at.forEach((i, k) => {
        const m = messages[i]!;
        const t = texts[k]!.trim();
        const blocks = m.blocks.map((b) => (b.type === 'tool_result' ? { ...b, text: t, tokens: estimateTokens(t) } : b));
        const lastOne = k === at.length - 1;
        messages[i] = { ...m, blocks: lastOne && env ? [...blocks, meta(env, 'environment')] : blocks, records: [...m.records, r] };
      });
    } else if (last?.role === 'user') {
      if (env) messages[messages.length - 1] = { ...last, blocks: [...last.blocks, meta(env, 'environment')], records: [...last.records, r] };
    } else {
      messages.push({ role: 'user', blocks: [meta(request, 'request')], records: [r], timestamp: tsOf(u) });
    }
  };

  for (let r = 0; r < ui.length; r++) {
    const u = ui[r];
    if (!isObj(u)) continue;
    // Roo / Kilo condensed the context here: what came before reaches the model only as this summary.
    if (u.say === 'condense_context' && isObj(u.contextCondense) && typeof u.contextCondense.summary === 'string') {
      flush();
      for (const m of messages) for (const k of m.records) records[k]!.inContext = false;
      messages.length = 0;
      awaiting = [];
      const summary = u.contextCondense.summary;
      user({ type: 'summary', text: summary, origin: 'agent', ref: { record: r }, tokens: estimateTokens(summary) }, r, u);
      continue;
    }
    if (typeof u.text !== 'string') continue;
    const kind = u.type === 'say' ? u.say : u.type === 'ask' ? u.ask : undefined;
    const t = u.text;
    switch (kind) {
      case 'task': case 'user_feedback':
        if (t) user(text(t, r), r, u);
        break;
      case 'text':
        // Cline's VS Code log opens with the task as a say:text entry, before any request was made.
        if (!started && !messages.length) { if (t) user(text(t, r), r, u); }
        else if (t) assistant(text(t, r), r, u);
        break;
      case 'followup': case 'completion_result': case 'plan_mode_respond': {
        const shown = kind === 'followup' ? shownText(t, 'question') : kind === 'plan_mode_respond' ? shownText(t, 'response') : t;
        if (shown) assistant(text(shown, r), r, u);
        break;
      }
      case 'reasoning':
        if (t) assistant({ type: 'reasoning', text: t, opaqueBytes: 0, ref: { record: r }, tokens: estimateTokens(t) }, r, u);
        break;
      case 'api_req_started': {
        started = true;
        flush();
        const info = json(t);
        if (!info) absurd++;
        pending = { usage: usageOf(t), model: modelOf(u) };
        if (typeof info?.request === 'string' && info.request) sent(info.request, r, u);
        break;
      }
      case 'tool': {
        const o = json(t);
        if (!o || typeof o.tool !== 'string') break;
        const input = Object.fromEntries(Object.entries(o).filter(([k]) => !NOT_ARGS.has(k)));
        const content = typeof o.content === 'string' ? o.content : '';
        pair(r, u, o.tool, input, content, [r]);
        break;
      }
      case 'command': {
        const at = r;
        const outs: number[] = [];
        while (r + 1 < ui.length && isObj(ui[r + 1]) && ((ui[r + 1] as Obj).say === 'command_output' || (ui[r + 1] as Obj).ask === 'command_output')) outs.push(++r);
        const output = outs.map((k) => String((ui[k] as Obj).text ?? '')).join('');
        pair(at, u, 'execute_command', { command: t }, output, outs);
        break;
      }
      default: break;
    }
  }
  flush();
  if (absurd) warnings.push(`${absurd} api_req_started entr${absurd === 1 ? 'y has' : 'ies have'} unreadable usage; not counted`);
  return { records, messages };
}
