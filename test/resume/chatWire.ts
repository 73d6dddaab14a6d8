// What agents speaking OpenAI Chat Completions (Qwen Code, Copilot CLI with its own key) send on resume, and the
// pairing rule their history must obey.
import assert from 'node:assert/strict';
import type { RecordedRequest } from '../support/fakeHttp';
import { byteFigures, describeRun, NEW_PROMPT, type AgentRun } from './harness';

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

export interface ChatRun { readonly run: AgentRun; readonly turn?: RecordedRequest }

/**
 * The resumed turn's request carries the history: the latest prompt of the session verbatim (before the new prompt,
 * which comes last), every tool call answered, and the newest tool result as it was recorded.
 */
export function assertResumedHistory({ run, turn }: ChatRun, latestPrompt: string, newestResult: string): void {
  assert.equal(run.code, 0, describeRun(run));
  assert.ok(turn, `no request of the resumed turn reached the fake: ${describeRun(run)}`);
  const messages = chatMessagesOf(turn);
  const users = messages.filter((m) => m.role === 'user').map(chatText);
  assert.ok(users.slice(0, -1).some((t) => t.includes(latestPrompt)), `the latest prompt ${JSON.stringify(latestPrompt)} is not in the resumed history`);
  assert.ok(users.at(-1)!.includes(NEW_PROMPT));
  assert.ok(assertChatPairs(messages) >= 1, 'the resumed history holds no tool call');
  assert.ok(messages.some((m) => m.role === 'tool' && chatText(m).includes(newestResult)), 'the newest tool result is not in the resumed history');
}

/** The original resumed too: the compacted session's request is no larger; the figures line is printed. */
export function assertNoLarger(agent: string, original: ChatRun, compacted: ChatRun): void {
  assert.equal(original.run.code, 0, describeRun(original.run));
  assert.ok(original.turn && compacted.turn);
  const figures = byteFigures({ original: original.turn, compacted: compacted.turn });
  console.log(`${agent}: ${figures.line}; history: original ${chatMessagesOf(original.turn).length}, compacted ${chatMessagesOf(compacted.turn).length} messages`);
  assert.ok(figures.ratio <= 1, figures.line);
}
