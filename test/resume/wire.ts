// What each agent sends on resume, and the API rule its history must obey (or the real API answers 400).
import assert from 'node:assert/strict';
import type { RecordedRequest } from '../support/fakeHttp';
import { mentions, NEW_PROMPT } from './harness';

// ---- Claude Code: Anthropic Messages ----
export interface ClaudeBlock { type: string; id?: string; tool_use_id?: string; text?: string; content?: unknown }
export interface ClaudeMessage { role: string; content: string | ClaudeBlock[] }
export interface MessagesBody { messages: ClaudeMessage[]; tools?: unknown[] }

export const blocksOf = (m: ClaudeMessage): ClaudeBlock[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);
/** A tool_result's text: the API allows a string or a list of text blocks. */
export const resultText = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? (content as ClaudeBlock[]).map((b) => b.text ?? '').join('') : '';
export const messagesOf = (r: RecordedRequest): ClaudeMessage[] => (r.body as MessagesBody).messages;

/**
 * Every tool_use is answered by a tool_result in the very next (user) message, and every tool_result answers
 * a tool_use of the message right before it. Returns the number of pairs.
 */
export function assertClaudePairs(messages: ClaudeMessage[]): number {
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    for (const id of blocksOf(m).filter((b) => b.type === 'tool_use').map((b) => b.id!)) {
      assert.ok(!seen.has(id), `tool_use ${id} appears twice`);
      seen.add(id);
      const next = messages[i + 1];
      assert.ok(next?.role === 'user' && blocksOf(next).some((b) => b.type === 'tool_result' && b.tool_use_id === id), `tool_use ${id} (message ${i}) has no tool_result in the next message`);
    }
    const prev = messages[i - 1];
    for (const id of blocksOf(m).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id!)) {
      assert.ok(prev && blocksOf(prev).some((b) => b.type === 'tool_use' && b.id === id), `tool_result ${id} (message ${i}) answers no tool_use of the message before`);
    }
  });
  return seen.size;
}

/** The request-side half of a resume spec for every agent that speaks the Anthropic Messages API to the fake. */
export const messagesApi = {
  /** The request that carries the resumed turn (tools and the new prompt), not a title or side request. */
  isTurnRequest: (r: RecordedRequest): boolean => {
    const b = r.body as Partial<MessagesBody> | undefined;
    return r.path === '/v1/messages' && (b?.tools?.length ?? 0) > 0 && (b?.messages ?? []).some((m) => m.role === 'user' && mentions(m, NEW_PROMPT));
  },
  history: messagesOf,
  lastUserTurn: (r: RecordedRequest): ClaudeMessage | undefined => messagesOf(r).filter((m) => m.role === 'user').at(-1),
  toolCalls: (r: RecordedRequest): string[] => messagesOf(r).flatMap(blocksOf).filter((b) => b.type === 'tool_use').map((b) => b.id!),
  toolResults: (r: RecordedRequest): Map<string, string> => new Map(messagesOf(r).flatMap(blocksOf).filter((b) => b.type === 'tool_result').map((b) => [b.tool_use_id!, resultText(b.content)])),
  assertToolPairs: (r: RecordedRequest): number => assertClaudePairs(messagesOf(r)),
};

// ---- Codex: OpenAI Responses ----
export interface CodexItem { type: string; role?: string; call_id?: string; output?: unknown; content?: { type: string; text?: string }[] }
export interface ResponsesBody { input: CodexItem[]; tools?: unknown[] }

/** A tool output's text: a string, or (for some tools) a list of content items. */
export const outputText = (output: unknown): string =>
  typeof output === 'string' ? output : Array.isArray(output) ? (output as { text?: string }[]).map((c) => c.text ?? '').join('') : '';
export const inputOf = (r: RecordedRequest): CodexItem[] => (r.body as ResponsesBody).input;
export const isUserMessage = (i: CodexItem): boolean => i.type === 'message' && i.role === 'user';

export function codexCallIds(items: CodexItem[]): { calls: string[]; results: string[] } {
  const ids = (outputs: boolean): string[] => items.filter((i) => i.call_id && i.type.endsWith('_call_output') === outputs && (outputs || i.type.endsWith('_call'))).map((i) => i.call_id!);
  return { calls: ids(false), results: ids(true) };
}

/**
 * Every *_call has exactly one *_call_output after it with its call_id, and every output answers an earlier
 * call ("No tool output found for function call …" otherwise). Returns the number of pairs.
 */
export function assertCodexPairs(input: CodexItem[]): number {
  const calls = new Map<string, number>();
  const answered = new Set<string>();
  input.forEach((item, i) => {
    if (!item.call_id) return;
    if (item.type.endsWith('_call_output')) {
      assert.ok((calls.get(item.call_id) ?? Infinity) < i, `${item.type} ${item.call_id} (item ${i}) answers no earlier call`);
      assert.ok(!answered.has(item.call_id), `${item.call_id} is answered twice`);
      answered.add(item.call_id);
    } else if (item.type.endsWith('_call')) {
      assert.ok(!calls.has(item.call_id), `call ${item.call_id} appears twice`);
      calls.set(item.call_id, i);
    }
  });
  for (const id of calls.keys()) assert.ok(answered.has(id), `call ${id} has no output`);
  return calls.size;
}
