// Loopback fake of the Anthropic Messages API (JSON and SSE) and count_tokens, with scripted faults.
import type { ServerResponse } from 'node:http';
import {
  cutConnection, DEFAULT_TEXT, fakeTokenCount, type Fault, type FakeServer, type RecordedRequest,
  sendInvalidJson, sendJson, splitForStream, startFakeServer, startSse,
} from './fakeHttp.js';

type ContentBlock = { type: string; text?: string; id?: string; tool_use_id?: string; input?: unknown; content?: unknown };
interface MessagesBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string;
  messages?: { role: string; content: string | ContentBlock[] }[];
  /** On-demand compaction (beta compact-2026-09-04): the answer is one `compaction` block. */
  compaction?: { type?: string; instructions?: string };
}

/** Starts the fake; requests whose credential is not `Bearer <apiKey>` or `x-api-key: <apiKey>` get a 401. */
export function startFakeAnthropic(apiKey: string): Promise<FakeServer> {
  return startFakeServer((req, fault, res) => {
    if (req.auth !== `Bearer ${apiKey}` && req.auth !== apiKey) return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
    const body = (req.body ?? {}) as MessagesBody;
    if (req.method === 'POST' && req.path === '/v1/messages/count_tokens') return countTokens(body, fault, res);
    if (req.method === 'POST' && req.path === '/v1/messages' && body.compaction) return compaction(req, body, fault, res);
    if (req.method === 'POST' && req.path === '/v1/messages') return messages(req, body, fault, res);
    return sendError(res, 404, 'not_found_error', `no route ${req.method} ${req.path}`);
  });
}

const blockText = (b: ContentBlock): string =>
  b.text ?? (typeof b.content === 'string' ? b.content : b.input !== undefined ? JSON.stringify(b.input) : '');

function inputText(body: MessagesBody): string {
  return (body.system ?? '') + (body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : m.content.map(blockText).join(''))).join('');
}

/**
 * The API's rules for a conversation, as its 400s word them: starts with a user turn, and every tool_use is
 * answered by a tool_result in the next user message (and every tool_result answers one).
 */
function conversationError(body: MessagesBody): string | undefined {
  const msgs = body.messages ?? [];
  if (msgs[0]?.role !== 'user') return 'messages: first message must use the "user" role';
  for (const [i, m] of msgs.entries()) {
    const blocks = typeof m.content === 'string' ? [] : m.content;
    const uses = m.role === 'assistant' ? blocks.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    if (uses.length) {
      const next = msgs[i + 1];
      const answered = new Set((next && typeof next.content !== 'string' ? next.content : []).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
      const missing = uses.filter((id) => !answered.has(id));
      if (missing.length) return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}`;
    }
    if (m.role === 'user' && i > 0) {
      const prev = msgs[i - 1]!;
      const asked = new Set((typeof prev.content === 'string' ? [] : prev.content).filter((b) => b.type === 'tool_use').map((b) => b.id));
      const orphan = blocks.find((b) => b.type === 'tool_result' && !asked.has(b.tool_use_id));
      if (orphan) return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphan.tool_use_id}`;
    }
  }
  return undefined;
}

/** The compaction answer: one `compaction` block, stop_reason "compaction", its usage as an `iterations` entry. */
function compaction(req: RecordedRequest, body: MessagesBody, fault: Fault, res: ServerResponse): void {
  if (answerWithError(fault, res)) return;
  const beta = String(req.headers['anthropic-beta'] ?? '');
  if (!beta.split(',').map((b) => b.trim()).includes('compact-2026-09-04')) return sendError(res, 400, 'invalid_request_error', 'compaction: requires the compact-2026-09-04 beta');
  if (body.compaction?.type !== 'summarize') return sendError(res, 400, 'invalid_request_error', 'compaction.type: Input should be \'summarize\'');
  const invalid = conversationError(body);
  if (invalid) return sendError(res, 400, 'invalid_request_error', invalid);
  const text = fault.kind === 'empty' ? null : (fault.kind === 'ok' && fault.text) || DEFAULT_TEXT;
  const iteration = { type: 'compaction', input_tokens: fakeTokenCount(inputText(body)), output_tokens: fakeTokenCount(text ?? ''), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: null };
  sendJson(res, 200, {
    id: 'msg_fake_compact_1', type: 'message', role: 'assistant', model: body.model ?? 'unknown',
    content: [{ type: 'compaction', content: text, encrypted_content: null, signature: 'sig_fake_1' }],
    stop_reason: 'compaction', stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, iterations: [iteration] },
  }, { 'request-id': 'req_fake_compact_1' });
}

function countTokens(body: MessagesBody, fault: Fault, res: ServerResponse): void {
  if (answerWithError(fault, res)) return;
  sendJson(res, 200, { input_tokens: fakeTokenCount(inputText(body)) });
}

function messages(_req: RecordedRequest, body: MessagesBody, fault: Fault, res: ServerResponse): void {
  if (answerWithError(fault, res)) return;
  const text = fault.kind === 'empty' ? '' : (fault.kind === 'ok' && fault.text) || DEFAULT_TEXT;
  const stopReason = fault.kind === 'truncated' ? 'max_tokens' : 'end_turn';
  const usage = { input_tokens: fakeTokenCount(inputText(body)), output_tokens: fakeTokenCount(text) };
  const model = body.model ?? 'unknown';
  if (body.stream) return stream(res, fault, model, text, stopReason, usage);
  if (fault.kind === 'invalid-json') return sendInvalidJson(res);
  const message = {
    id: 'msg_fake_1', type: 'message', role: 'assistant', model,
    content: text ? [{ type: 'text', text, citations: null }] : [],
    stop_reason: stopReason, stop_sequence: null, usage,
  };
  if (fault.kind === 'cut') {
    const json = JSON.stringify(message);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.write(json.slice(0, json.length / 2));
    return cutConnection(res);
  }
  sendJson(res, 200, message, { 'request-id': 'req_fake_1' });
}

/** The real event sequence: message_start, content_block_*, message_delta, message_stop (plus a ping). */
function stream(
  res: ServerResponse, fault: Fault, model: string, text: string, stopReason: string,
  usage: { input_tokens: number; output_tokens: number },
): void {
  const send = startSse(res);
  send({
    type: 'message_start',
    message: { id: 'msg_fake_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } },
  }, 'message_start');
  send({ type: 'ping' }, 'ping');
  if (fault.kind === 'stream-error') {
    send({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error');
    return void res.end();
  }
  if (text) send({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start');
  const parts = splitForStream(text);
  for (const [i, part] of parts.entries()) {
    if (!part) continue;
    if (i === 1 && fault.kind === 'invalid-json') { res.write('event: content_block_delta\ndata: {"type": "content_block_delta", oops\n\n'); return void res.end(); }
    if (i === 1 && fault.kind === 'cut') return cutConnection(res);
    if (i === 1 && fault.kind === 'end-early') return void res.end();
    send({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: part } }, 'content_block_delta');
  }
  if (text) send({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
  send({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, 'message_delta');
  send({ type: 'message_stop' }, 'message_stop');
  res.end();
}

/** Answers HTTP-level faults the way the real API does; returns false when the request should proceed. */
function answerWithError(fault: Fault, res: ServerResponse): boolean {
  switch (fault.kind) {
    case 'unauthorized': sendError(res, 401, 'authentication_error', 'invalid x-api-key'); return true;
    case 'rate-limit': sendError(res, 429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', fault.retryAfter); return true;
    case 'too-long': sendError(res, 400, 'invalid_request_error', 'prompt is too long: 250000 tokens > 200000 maximum'); return true;
    case 'status': {
      const type = fault.status === 529 ? 'overloaded_error' : fault.status >= 500 ? 'api_error' : 'invalid_request_error';
      sendError(res, fault.status, type, fault.message ?? (fault.status === 529 ? 'Overloaded' : 'Internal server error'), fault.retryAfter);
      return true;
    }
    default: return false;
  }
}

function sendError(res: ServerResponse, status: number, type: string, message: string, retryAfter?: string): void {
  const headers: Record<string, string> = { 'request-id': 'req_fake_err' };
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  sendJson(res, status, { type: 'error', error: { type, message }, request_id: 'req_fake_err' }, headers);
}
