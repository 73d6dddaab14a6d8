// A session's history in the providers' request shapes (Anthropic Messages, OpenAI Responses input items), for
// the providers' own compaction endpoints: valid tool pairs only, alternating roles, no opaque reasoning.
import type { Block, Message } from '../model/transcript';

export type AnthropicContent =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
export interface AnthropicMessage { role: 'user' | 'assistant'; content: AnthropicContent[] }

export type ResponsesItem =
  | { type: 'message'; role: 'user' | 'assistant' | 'developer'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

/** Leading messages that are only harness context (instructions, environment): kept as they are, never compacted. */
export function harnessPrefix(messages: readonly Message[]): number {
  let n = 0;
  while (n < messages.length && messages[n]!.blocks.length > 0 && messages[n]!.blocks.every((b) => b.type === 'meta')) n++;
  return n;
}

// Tool ids must match ^[a-zA-Z0-9_-]+$ at Anthropic; ids from other agents may not.
const toolId = (id: string): string => id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 200) || 'tool';
const objectInput = (input: unknown): Record<string, unknown> => (input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { input });
const textOf = (b: Block): string | undefined =>
  b.type === 'text' || b.type === 'summary' || b.type === 'meta' ? b.text : b.type === 'media' ? `[${b.mime} attachment]` : undefined;

/** Tool calls answered somewhere in `messages` (a call still waiting cannot be sent without its result). */
function answeredIds(messages: readonly Message[]): { calls: Set<string>; results: Set<string> } {
  const calls = new Set<string>(), results = new Set<string>();
  for (const m of messages) {for (const b of m.blocks) {
    if (b.type === 'tool_call' && !b.standalone) calls.add(b.id);
    if (b.type === 'tool_result') results.add(b.id);
  }}
  return { calls: new Set([...calls].filter((id) => results.has(id))), results: new Set([...results].filter((id) => calls.has(id))) };
}

export function toAnthropicMessages(messages: readonly Message[]): AnthropicMessage[] {
  const { calls, results } = answeredIds(messages);
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const content: AnthropicContent[] = [];
    for (const b of m.blocks) {
      if (b.type === 'tool_call') {
        if (calls.has(b.id)) content.push({ type: 'tool_use', id: toolId(b.id), name: b.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 128), input: objectInput(b.input) });
        else if (b.standalone) content.push({ type: 'text', text: `[${b.name}] ${b.inputText}` });
      } else if (b.type === 'tool_result') {
        if (results.has(b.id)) content.push({ type: 'tool_result', tool_use_id: toolId(b.id), content: b.text, ...(b.isError ? { is_error: true } : {}) });
      } else {
        const t = textOf(b);
        if (t?.trim()) content.push({ type: 'text', text: t });
      }
    }
    if (content.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content });
  }
  // A user turn lists its tool results first; a conversation starts with the user.
  for (const m of out) if (m.role === 'user') m.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  if (out[0]?.role !== 'user') out.unshift({ role: 'user', content: [{ type: 'text', text: '(conversation start)' }] });
  return out;
}

export function toResponsesInput(messages: readonly Message[]): ResponsesItem[] {
  const { calls, results } = answeredIds(messages);
  const out: ResponsesItem[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : m.role === 'system' ? 'developer' : 'user';
    let text = '';
    const flush = (): void => {
      if (text.trim()) out.push({ type: 'message', role, content: text });
      text = '';
    };
    for (const b of m.blocks) {
      if (b.type === 'tool_call' && calls.has(b.id)) {
        flush();
        out.push({ type: 'function_call', call_id: b.id, name: b.name, arguments: typeof b.input === 'string' ? JSON.stringify({ input: b.input }) : b.inputText || '{}' });
      } else if (b.type === 'tool_result' && results.has(b.id)) {
        flush();
        out.push({ type: 'function_call_output', call_id: b.id, output: b.text });
      } else {
        const t = b.type === 'tool_call' ? `[${b.name}] ${b.inputText}` : textOf(b);
        if (t?.trim()) text += (text ? '\n' : '') + t;
      }
    }
    flush();
  }
  return out;
}
