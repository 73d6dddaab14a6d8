// Goose session → the model: the messages Goose sends (agentVisible), content items as blocks, tool requests linked
// to the responses of the next user message. Goose records usage per session only (its last request and totals).
import type { Block, Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { plausibleTokens } from '../../read/usageNumbers';
import { absurdUsageField, absurdUsageWarning } from '../../read/warnings';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages } from '../../usage/title';
import { isObj, type Obj, type GooseSession } from './sources';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The text of a tool result: MCP CallToolResult content (or, in older sessions, the bare content array). */
export function resultText(result: unknown): { text: string; images: number; isError: boolean } {
  if (!isObj(result)) return { text: '', images: 0, isError: true };
  if (result.status === 'error') return { text: str(result.error), images: 0, isError: true };
  const value = result.value;
  const items = Array.isArray(value) ? value : isObj(value) && Array.isArray(value.content) ? value.content : [];
  const texts = items.filter(isObj).map((c) => (c.type === 'text' ? str(c.text) : c.type === 'resource' && isObj(c.resource) ? str(c.resource.text) : '')).filter(Boolean);
  // Some tools answer with structured content only (stdout, exit code): its JSON is what the model saw.
  if (texts.length === 0 && isObj(value) && isObj(value.structuredContent)) texts.push(JSON.stringify(value.structuredContent));
  return { text: texts.join('\n'), images: items.filter((c) => isObj(c) && c.type === 'image').length, isError: isObj(value) && value.isError === true };
}

/** The model's request: `toolCall` is `{status:'success', value:{name, arguments}}` or an error. */
function callOf(item: Obj): { name: string; input: unknown } {
  const call = isObj(item.toolCall) ? item.toolCall : {};
  const value = isObj(call.value) ? call.value : {};
  return { name: str(value.name) || 'unknown', input: value.arguments ?? (call.status === 'error' ? { error: call.error } : {}) };
}

function blockOf(item: Obj, role: string, summary: boolean, ref: { record: number; index: number }): Block | undefined {
  switch (item.type) {
    case 'text': {
      const text = str(item.text);
      if (summary) return { type: 'summary', text, origin: text.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref, tokens: estimateTokens(text) };
      return { type: 'text', text, ref, tokens: estimateTokens(text) };
    }
    case 'image': return { type: 'media', mime: str(item.mimeType) || 'image/png', bytes: Math.floor((str(item.data).length * 3) / 4), ref, tokens: IMAGE_TOKENS };
    case 'toolRequest': case 'frontendToolRequest': {
      const { name, input } = callOf(item);
      const inputText = JSON.stringify(input) ?? '';
      return { type: 'tool_call', id: str(item.id), name, input, inputText, ref, tokens: estimateTokens(inputText) + 8 };
    }
    case 'toolResponse': {
      const r = resultText(item.toolResult);
      return { type: 'tool_result', id: str(item.id), text: r.text, isError: r.isError, mediaCount: r.images, persisted: false, ref, tokens: estimateTokens(r.text) + r.images * IMAGE_TOKENS };
    }
    case 'thinking': case 'reasoning': {
      const text = str(item.thinking ?? item.text);
      const opaque = str(item.signature).length;
      return { type: 'reasoning', text, opaqueBytes: opaque, ref, tokens: estimateTokens(text) + Math.ceil(opaque / 4) };
    }
    case 'redactedThinking': return { type: 'reasoning', text: '', opaqueBytes: str(item.data).length, ref, tokens: Math.ceil(str(item.data).length / 4) };
    case 'conversationCompacted': return undefined; // Goose drops these pre-1.0 markers on load
    default: {
      // Notices Goose keeps in the conversation (system notifications, confirmations, context-length notes).
      const text = str(item.msg ?? item.text ?? item.prompt) || JSON.stringify(item);
      return role === 'assistant' || role === 'user' ? { type: 'meta', subtype: str(item.type) || 'unknown', text, ref, tokens: estimateTokens(text) } : undefined;
    }
  }
}

/**
 * Usage Goose recorded for the session's last request (metadata `input_tokens` / `output_tokens`, or `usage`);
 * undefined when none, or when a figure is impossible (see plausibleTokens: then `onAbsurd`, never counted as 0).
 */
function lastRequest(meta: Obj, onAbsurd: () => void): Usage | undefined {
  const u = isObj(meta.usage) ? meta.usage : meta;
  const [input, output, read, write] = [u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_write_input_tokens].map(plausibleTokens);
  if (input === undefined || output === undefined || read === undefined || write === undefined) { onAbsurd(); return undefined; }
  if (input + output === 0) return undefined;
  return { inputTokens: Math.max(0, input - read - write), outputTokens: output, cacheReadTokens: read, cacheCreationTokens: write };
}

function modelOf(meta: Obj): string | undefined {
  const cfg = meta.model_config;
  return isObj(cfg) && typeof cfg.model_name === 'string' ? cfg.model_name : undefined;
}

export function toSession(g: GooseSession, _options: ReadOptions, warnings: string[]): Session {
  const records: RawRecord[] = [{ kind: 'metadata', inContext: false }];
  const messages: Message[] = [];
  let hidden = 0;
  g.messages.forEach((m) => {
    const record = records.length;
    const role = str(m.role);
    records.push({ kind: `message:${role || 'unknown'}`, inContext: false });
    const vis = isObj(m.metadata) ? m.metadata : {};
    if (vis.agentVisible === false) { hidden++; return; }
    // Agent-only user text is what Goose's own compaction wrote: the summary the model continues from.
    const summary = role === 'user' && vis.userVisible === false;
    const content = Array.isArray(m.content) ? m.content : [];
    const blocks = content.flatMap((c, index): Block[] => { const b = isObj(c) ? blockOf(c, role, summary, { record, index }) : undefined; return b ? [b] : []; });
    if (blocks.length === 0 || (role !== 'user' && role !== 'assistant')) return;
    const timestamp = typeof m.created === 'number' ? new Date(m.created * 1000).toISOString() : undefined;
    messages.push({ role, blocks, records: [record], timestamp, toolResultsOnly: role === 'user' && blocks.every((b) => b.type === 'tool_result') });
  });
  if (hidden) warnings.push(`${hidden} message(s) Goose no longer sends to the model (hidden by its compaction) were left out`);
  const live = repairToolPairs(messages, warnings);
  for (const m of live) for (const r of m.records) records[r]!.inContext = true;
  const model = modelOf(g.meta);
  // Goose keeps one figure per session: the last request's, placed on the last reply it could belong to.
  let absurd = 0;
  const usage = lastRequest(g.meta, () => { absurd++; });
  if (absurd) warnings.push(absurdUsageWarning(absurd));
  const last = [...live].reverse().find((m) => m.role === 'assistant');
  if (usage && last) { last.usage = usage; }
  const name = gooseName(g.meta);
  return {
    format: 'goose', id: g.id, cwd: str(g.meta.working_dir) || undefined, title: name || titleFromMessages(live), models: model ? [model] : [],
    records, messages: live, turns: buildTurns(live),
    recordedContext: usage ? usage.inputTokens + usage.cacheReadTokens + usage.cacheCreationTokens : undefined,
    contextWindow: model ? contextWindowOf(model) : undefined, warnings, ...absurdUsageField(absurd), endsWithNewline: true,
    extra: { origin: g.origin, goose: g },
  };
}

/**
 * The names Goose gives a session before it has one (the CLI's "CLI Session", the desktop's "New Chat"): Goose asks
 * the model for a name after the first replies; until then, or when that failed, the prompt is the better title.
 */
const GOOSE_PLACEHOLDERS = new Set(['CLI Session', 'New Chat', 'New session']);

/** The session's name (or a legacy session's description) unless it is Goose's placeholder and not the user's. */
function gooseName(meta: Record<string, unknown>): string | undefined {
  const userSet = meta.user_set_name === true || meta.user_set_name === 1;
  return [str(meta.name), str(meta.description)].find((n) => n && (userSet || !GOOSE_PLACEHOLDERS.has(n.trim()))) || undefined;
}
