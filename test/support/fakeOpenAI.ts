// Loopback fake of OpenAI's Chat Completions (JSON and SSE), Responses and input_tokens APIs, with scripted faults.
import type { ServerResponse } from 'node:http';
import {
  cutConnection, DEFAULT_TEXT, fakeTokenCount, type Fault, type FakeServer, type RecordedRequest,
  sendInvalidJson, sendJson, splitForStream, startFakeServer, startSse,
} from './fakeHttp.js';

interface ChatBody { model?: string; stream?: boolean; messages?: { role: string; content: string }[] }
interface ResponsesBody { model?: string; stream?: boolean; instructions?: string; input?: string | { role: string; content: string }[] }

/**
 * Starts the fake under /v1. A wrong credential gets a 401 whose message echoes the key it received,
 * as some OpenAI-compatible servers do, so tests can prove that our errors redact it.
 */
export function startFakeOpenAI(apiKey: string): Promise<FakeServer> {
  return startFakeServer((req, fault, res) => {
    if (req.auth !== `Bearer ${apiKey}`) return sendError(res, 401, `Incorrect API key provided: ${req.auth ?? ''}`, 'invalid_request_error', 'invalid_api_key');
    if (req.method !== 'POST') return sendError(res, 404, `no route ${req.method} ${req.path}`, 'invalid_request_error');
    switch (req.path) {
      case '/v1/chat/completions': return chat(req.body as ChatBody, fault, res);
      case '/v1/responses': return responses(req.body as ResponsesBody, fault, res);
      case '/v1/responses/input_tokens': return inputTokens(req, fault, res);
      case '/v1/responses/compact': return compact(req.body as CompactBody, fault, res);
      default: return sendError(res, 404, `no route ${req.method} ${req.path}`, 'invalid_request_error');
    }
  });
}

type InputItem = { type?: string; role?: string; content?: unknown; call_id?: string; output?: string; arguments?: string };
interface CompactBody { model?: string; input?: string | InputItem[] }

const itemText = (i: InputItem): string =>
  typeof i.content === 'string' ? i.content : Array.isArray(i.content) ? i.content.map((c: { text?: string }) => c.text ?? '').join('') : (i.output ?? i.arguments ?? '');

/**
 * POST /v1/responses/compact: the user messages of the input, then one `compaction` item whose content is
 * encrypted (here: base64 of a fixed text, as opaque to the client as the real one). A function_call_output
 * must answer an earlier function_call, as the real API requires.
 */
function compact(body: CompactBody, fault: Fault, res: ServerResponse): void {
  if (answerWithError(fault, res)) return;
  const items: InputItem[] = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? []);
  const calls = new Set<string>();
  for (const i of items) {
    if (i.type === 'function_call' && i.call_id) calls.add(i.call_id);
    if (i.type === 'function_call_output' && !calls.has(i.call_id ?? '')) return sendError(res, 400, `No tool call found for function call output with call_id ${i.call_id ?? ''}.`, 'invalid_request_error');
  }
  const users = items.filter((i) => (i.type ?? 'message') === 'message' && i.role === 'user');
  const encrypted = Buffer.from(answerText(fault).repeat(8)).toString('base64');
  const input = items.map(itemText).join('');
  sendJson(res, 200, {
    id: 'resp_fake_compact_1', object: 'response.compaction', created_at: 1_760_000_000,
    output: [
      ...users.map((u, k) => ({ type: 'message', id: `msg_fake_u${k}`, status: 'completed', role: 'user', content: [{ type: 'input_text', text: itemText(u) }] })),
      { type: 'compaction', id: 'cmp_fake_1', encrypted_content: encrypted },
    ],
    usage: { input_tokens: fakeTokenCount(input), input_tokens_details: { cached_tokens: 0 }, output_tokens: fakeTokenCount(encrypted), output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 },
  });
}

function answerText(fault: Fault): string {
  return fault.kind === 'empty' ? '' : (fault.kind === 'ok' && fault.text) || DEFAULT_TEXT;
}

function responsesInputText(body: ResponsesBody): string {
  const input = typeof body.input === 'string' ? body.input : (body.input ?? []).map((m) => m.content).join('');
  return (body.instructions ?? '') + input;
}

function inputTokens(req: RecordedRequest, fault: Fault, res: ServerResponse): void {
  if (answerWithError(fault, res)) return;
  sendJson(res, 200, { object: 'response.input_tokens', input_tokens: fakeTokenCount(responsesInputText(req.body as ResponsesBody)) });
}

function responses(body: ResponsesBody, fault: Fault, res: ServerResponse): void {
  if (answerWithError(fault, res)) return;
  if (body.stream) return sendError(res, 400, 'this fake serves the Responses API without streaming', 'invalid_request_error');
  if (fault.kind === 'invalid-json') return sendInvalidJson(res);
  const text = answerText(fault);
  const truncated = fault.kind === 'truncated';
  const response = {
    id: 'resp_fake_1', object: 'response', created_at: 1_760_000_000, model: body.model ?? 'unknown',
    status: truncated ? 'incomplete' : 'completed', error: null,
    incomplete_details: truncated ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null, parallel_tool_calls: true, tools: [], tool_choice: 'auto',
    output: text ? [{ type: 'message', id: 'msg_fake_1', status: truncated ? 'incomplete' : 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }] : [],
    usage: {
      input_tokens: fakeTokenCount(responsesInputText(body)), input_tokens_details: { cached_tokens: 0 },
      output_tokens: fakeTokenCount(text), output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0,
    },
  };
  if (fault.kind === 'cut') return sendHalf(res, response);
  sendJson(res, 200, response);
}

function chat(body: ChatBody, fault: Fault, res: ServerResponse): void {
  if (answerWithError(fault, res)) return;
  const text = answerText(fault);
  const finish = fault.kind === 'truncated' ? 'length' : 'stop';
  const model = body.model ?? 'unknown';
  const promptTokens = fakeTokenCount((body.messages ?? []).map((m) => m.content).join(''));
  const usage = { prompt_tokens: promptTokens, completion_tokens: fakeTokenCount(text), total_tokens: promptTokens + fakeTokenCount(text) };
  if (body.stream) return chatStream(res, fault, model, text, finish, usage);
  if (fault.kind === 'invalid-json') return sendInvalidJson(res);
  const completion = {
    id: 'chatcmpl-fake1', object: 'chat.completion', created: 1_760_000_000, model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: finish }],
    usage,
  };
  if (fault.kind === 'cut') return sendHalf(res, completion);
  sendJson(res, 200, completion);
}

/** chat.completion.chunk frames, a usage chunk (as with stream_options.include_usage), then [DONE]. */
function chatStream(
  res: ServerResponse, fault: Fault, model: string, text: string, finish: string,
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number },
): void {
  const send = startSse(res);
  const chunk = (delta: object, finishReason: string | null): object => ({
    id: 'chatcmpl-fake1', object: 'chat.completion.chunk', created: 1_760_000_000, model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  send(chunk({ role: 'assistant', content: '' }, null));
  for (const [i, part] of splitForStream(text).entries()) {
    if (!part) continue;
    if (i === 1 && fault.kind === 'invalid-json') { res.write('data: {"id": "chatcmpl-fake1", oops\n\n'); return void res.end(); }
    if (i === 1 && fault.kind === 'cut') return cutConnection(res);
    if (i === 1 && fault.kind === 'end-early') return void res.end();
    send(chunk({ content: part }, null));
  }
  send(chunk({}, finish));
  send({ id: 'chatcmpl-fake1', object: 'chat.completion.chunk', created: 1_760_000_000, model, choices: [], usage });
  send('[DONE]');
  res.end();
}

function sendHalf(res: ServerResponse, body: object): void {
  const json = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.write(json.slice(0, json.length / 2));
  cutConnection(res);
}

function answerWithError(fault: Fault, res: ServerResponse): boolean {
  switch (fault.kind) {
    case 'unauthorized': sendError(res, 401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'); return true;
    case 'rate-limit': sendError(res, 429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded', fault.retryAfter); return true;
    case 'too-long':
      sendError(res, 400, "This model's maximum context length is 128000 tokens. However, your messages resulted in 250000 tokens.", 'invalid_request_error', 'context_length_exceeded');
      return true;
    case 'status': sendError(res, fault.status, fault.message ?? 'The server had an error while processing your request.', 'server_error', null, fault.retryAfter); return true;
    default: return false;
  }
}

function sendError(res: ServerResponse, status: number, message: string, type: string, code: string | null = null, retryAfter?: string): void {
  const headers: Record<string, string> = { 'x-request-id': 'req_fake_err' };
  if (retryAfter !== undefined) headers['retry-after'] = retryAfter;
  sendJson(res, status, { error: { message, type, param: null, code } }, headers);
}
