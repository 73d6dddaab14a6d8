// Loopback fake of the streaming OpenAI Responses API as the real Codex CLI calls it (adapted from agentgen's fake-openai-responses.mjs).
import type { ServerResponse } from 'node:http';
import { fakeTokenCount, type FakeServer, startFakeServer, startSse } from './fakeHttp.js';

/** What the fake model answers: plain text, no tool call, so a resumed Codex turn ends after one request. */
export const CODEX_FAKE_ANSWER = 'Resumed: nothing left to do.';

/**
 * Starts the fake under /v1. Codex only speaks the streaming form of `POST /v1/responses`, and it stops
 * reading a stream at `response.completed`, so that is the full event sequence it needs. A request whose
 * credential is not `Bearer <apiKey>` gets a 401, which proves Codex used the configured provider's key.
 */
export function startFakeCodexResponses(apiKey: string): Promise<FakeServer> {
  let n = 0;
  return startFakeServer((req, _fault, res) => {
    if (req.auth !== `Bearer ${apiKey}`) return sendError(res, 401, 'Incorrect API key provided.');
    if (req.method !== 'POST' || req.path !== '/v1/responses') return sendError(res, 404, `no route ${req.method} ${req.path}`);
    n += 1;
    stream(res, `resp_fake${n}`, `msg_fake${n}`, req.bytes);
  });
}

function stream(res: ServerResponse, responseId: string, itemId: string, requestBytes: number): void {
  const send = startSse(res);
  const event = (data: { type: string } & Record<string, unknown>): void => send(data, data.type);
  const item = { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: CODEX_FAKE_ANSWER, annotations: [] }] };
  event({ type: 'response.created', response: { id: responseId, object: 'response', status: 'in_progress', output: [] } });
  event({ type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } });
  event({ type: 'response.output_text.delta', output_index: 0, item_id: itemId, content_index: 0, delta: CODEX_FAKE_ANSWER });
  event({ type: 'response.output_item.done', output_index: 0, item });
  // One token per 4 request bytes: realistic, and the fixture stays well under Codex's 258k window, so
  // Codex does not start an auto-compaction request of its own after the answer.
  const input = Math.ceil(requestBytes / 4);
  const output = fakeTokenCount(CODEX_FAKE_ANSWER);
  event({
    type: 'response.completed',
    response: {
      id: responseId, object: 'response', status: 'completed', output: [item],
      usage: { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output },
    },
  });
  res.end();
}

function sendError(res: ServerResponse, status: number, message: string): void {
  const text = JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code: null } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
