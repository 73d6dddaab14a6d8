// What agents speaking OpenAI Chat Completions (Qwen Code, Copilot CLI with its own key) send on resume, and the
// pairing rule their history must obey.
import assert from 'node:assert/strict';
import type { RecordedRequest } from '../support/fakeHttp';
import { NEW_PROMPT } from './harness';

export interface ChatMessage { role: string; content?: unknown; tool_calls?: { id: string }[]; tool_call_id?: string }
export const chatMessagesOf = (r: RecordedRequest): ChatMessage[] => (r.body as { messages: ChatMessage[] }).messages;
export const chatText = (m: ChatMessage): string => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''));

/** The request that carries the resumed turn: tools, and the new prompt as the last message. */
export const isChatTurn = (r: RecordedRequest): boolean => {
  const b = r.body as { tools?: unknown[]; messages?: ChatMessage[] } | undefined;
  return r.path === '/v1/chat/completions' && (b?.tools?.length ?? 0) > 0 && chatText(b?.messages?.at(-1) ?? { role: '' }).includes(NEW_PROMPT);
};

/** Every assistant tool call is answered by a `tool` message before the next assistant message; returns the pairs. */
export function assertChatPairs(messages: readonly ChatMessage[]): number {
  let pairs = 0;
  messages.forEach((m, i) => {
    for (const call of m.tool_calls ?? []) {
      const answer = messages.slice(i + 1).findIndex((n) => n.role === 'tool' && n.tool_call_id === call.id);
      const nextAssistant = messages.slice(i + 1).findIndex((n) => n.role === 'assistant');
      assert.ok(answer >= 0 && (nextAssistant < 0 || answer < nextAssistant), `tool call ${call.id} (message ${i}) has no answer before the next reply`);
      pairs++;
    }
  });
  return pairs;
}
