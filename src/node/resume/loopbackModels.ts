// The model end of a resume check: loopback Anthropic Messages (Claude Code) and streaming Responses (Codex) APIs
// that answer every turn with one short text and no tool call, so a resumed agent ends after one request.
import type { ServerResponse } from 'node:http';
import { loopbackTokens, sendJson, startLoopback, startSse, type LoopbackServer, type RecordedRequest } from './loopback';

/** What the loopback model answers. */
export const LOOPBACK_ANSWER = 'Resumed: nothing left to do.';

/** Messages API under /v1: `messages` (JSON or the real SSE sequence) and `count_tokens`; a wrong key gets a 401. */
export function startLoopbackMessages(apiKey: string): Promise<LoopbackServer> {
  return startLoopback((req, res) => {
    if (req.auth !== `Bearer ${apiKey}` && req.auth !== apiKey) return anthropicError(res, 401, 'authentication_error', 'invalid x-api-key');
    const body = (req.body ?? {}) as { model?: string; stream?: boolean };
    if (req.method === 'POST' && req.path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: Math.ceil(req.bytes / 4) });
    if (req.method !== 'POST' || req.path !== '/v1/messages') return anthropicError(res, 404, 'not_found_error', `no route ${req.method} ${req.path}`);
    const usage = { input_tokens: Math.ceil(req.bytes / 4), output_tokens: loopbackTokens(LOOPBACK_ANSWER) };
    const message = { id: 'msg_loopback', type: 'message', role: 'assistant', model: body.model ?? 'unknown', stop_sequence: null };
    if (!body.stream) return sendJson(res, 200, { ...message, content: [{ type: 'text', text: LOOPBACK_ANSWER }], stop_reason: 'end_turn', usage });
    const send = startSse(res);
    const event = (data: { type: string } & Record<string, unknown>): void => send(data, data.type);
    event({ type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: LOOPBACK_ANSWER } });
    event({ type: 'content_block_stop', index: 0 });
    event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
    event({ type: 'message_stop' });
    res.end();
  });
}

/**
 * Responses API under /v1, streaming only (all Codex speaks); Codex stops reading at `response.completed`, so that
 * is the whole sequence it needs. A request whose credential is not `Bearer <apiKey>` gets a 401.
 */
export function startLoopbackResponses(apiKey: string, answer = LOOPBACK_ANSWER): Promise<LoopbackServer> {
  let n = 0;
  return startLoopback((req, res) => {
    if (req.auth !== `Bearer ${apiKey}`) return openaiError(res, 401, 'Incorrect API key provided.');
    if (req.method !== 'POST' || req.path !== '/v1/responses') return openaiError(res, 404, `no route ${req.method} ${req.path}`);
    n += 1;
    streamResponse(res, `resp_loopback${n}`, `msg_loopback${n}`, req, answer);
  });
}

function streamResponse(res: ServerResponse, responseId: string, itemId: string, req: RecordedRequest, answer: string): void {
  const send = startSse(res);
  const event = (data: { type: string } & Record<string, unknown>): void => send(data, data.type);
  const item = { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer, annotations: [] }] };
  event({ type: 'response.created', response: { id: responseId, object: 'response', status: 'in_progress', output: [] } });
  event({ type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } });
  event({ type: 'response.output_text.delta', output_index: 0, item_id: itemId, content_index: 0, delta: answer });
  event({ type: 'response.output_item.done', output_index: 0, item });
  // One token per 4 request bytes: realistic, and well under Codex's window, so Codex does not start an
  // auto-compaction request of its own after the answer.
  const input = Math.ceil(req.bytes / 4);
  const output = loopbackTokens(answer);
  event({
    type: 'response.completed',
    response: {
      id: responseId, object: 'response', status: 'completed', output: [item],
      usage: { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output },
    },
  });
  res.end();
}

function anthropicError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: 'error', error: { type, message } });
}

function openaiError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
}
