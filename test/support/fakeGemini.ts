// Loopback fake of the Gemini API as the real Gemini CLI (@google/genai) calls it: streamGenerateContent (SSE),
// generateContent (JSON, schema-shaped answers for the CLI's side requests) and countTokens, each under /v1beta.
import type { ServerResponse } from 'node:http';
import { fakeTokenCount, sendJson, startFakeServer, type FakeServer, type RecordedRequest } from './fakeHttp.js';

/** One scripted model turn: a thought summary, text, and function calls the CLI then really runs. */
export interface GeminiStep {
  readonly thought?: string;
  readonly text?: string;
  readonly calls?: readonly { readonly name: string; readonly args: Record<string, unknown> }[];
}

/** What the fake says once its script is used up: plain text, no call, so a turn ends after one request. */
export const GEMINI_FAKE_ANSWER = 'Resumed: nothing left to do.';

export interface GeminiContent { role?: string; parts?: GeminiPart[] }
export interface GeminiPart {
  text?: string; thought?: boolean; thoughtSignature?: string;
  functionCall?: { id?: string; name: string; args?: unknown };
  functionResponse?: { id?: string; name: string; response?: Record<string, unknown> };
}
export interface GenerateBody { contents: GeminiContent[]; tools?: { functionDeclarations?: unknown[] }[]; systemInstruction?: unknown; generationConfig?: Record<string, unknown> }

/** The model and method of a request path (`/v1beta/models/<model>:<method>`). */
export function geminiRoute(path: string): { model: string; method: string } | undefined {
  const m = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)$/.exec(path);
  return m ? { model: decodeURIComponent(m[1]!), method: m[2]! } : undefined;
}

/** A turn request of the agent loop (streamed, with tools), not one of the CLI's side requests. */
export const isGeminiTurn = (r: RecordedRequest): boolean =>
  geminiRoute(r.path)?.method === 'streamGenerateContent' && ((r.body as Partial<GenerateBody> | undefined)?.tools?.length ?? 0) > 0;

/**
 * Starts the fake. The key must come as `x-goog-api-key` (as the SDK sends it); anything else gets the API's 401.
 * Turn requests are answered with the next scripted step, then with GEMINI_FAKE_ANSWER.
 */
export function startFakeGemini(apiKey: string, steps: readonly GeminiStep[] = []): Promise<FakeServer> {
  let turn = 0, n = 0;
  return startFakeServer((req, _fault, res) => {
    if (req.auth !== apiKey) return sendError(res, 401, 'API key not valid. Please pass a valid API key.', 'UNAUTHENTICATED');
    const route = req.method === 'POST' ? geminiRoute(req.path) : undefined;
    const body = (req.body ?? {}) as GenerateBody;
    n += 1;
    switch (route?.method) {
      case 'streamGenerateContent': {
        const step = isGeminiTurn(req) ? steps[turn++] : undefined;
        return stream(res, route.model, `fake-${n}`, step ?? { text: isGeminiTurn(req) ? GEMINI_FAKE_ANSWER : 'OK.' }, req.bytes);
      }
      case 'generateContent': return sendJson(res, 200, response(route.model, `fake-${n}`, [{ text: sideAnswer(body) }], 'STOP', req.bytes, 0));
      case 'countTokens': return sendJson(res, 200, { totalTokens: Math.ceil(req.bytes / 4) });
      default: return sendError(res, 404, `no route ${req.method} ${req.path}`, 'NOT_FOUND');
    }
  });
}

/** A GenerateContentResponse as the API sends it (one SSE chunk, or the whole JSON answer). */
function response(model: string, id: string, parts: GeminiPart[], finishReason: string | undefined, requestBytes: number, thoughts: number): unknown {
  const prompt = Math.ceil(requestBytes / 4);
  const output = fakeTokenCount(parts.map((p) => (p.thought ? '' : (p.text ?? JSON.stringify(p.functionCall ?? '')))).join(''));
  return {
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output + thoughts, ...(thoughts ? { thoughtsTokenCount: thoughts } : {}), promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }] },
    modelVersion: model, responseId: id,
  };
}

/** Streams a step as the API does: the thought, then text, then the calls, the last chunk with finishReason. */
function stream(res: ServerResponse, model: string, id: string, step: GeminiStep, requestBytes: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunks: GeminiPart[][] = [];
  if (step.thought) chunks.push([{ text: step.thought, thought: true }]);
  if (step.text) chunks.push([{ text: step.text }]);
  // Gemini 3 signs the first function call of a turn; the CLI keeps the signature in its history.
  if (step.calls?.length) chunks.push(step.calls.map((c, i) => ({ functionCall: { name: c.name, args: c.args }, ...(i === 0 ? { thoughtSignature: Buffer.from(`sig-${id}`).toString('base64') } : {}) })));
  const thoughts = step.thought ? fakeTokenCount(step.thought) : 0;
  chunks.forEach((parts, i) => {
    const last = i === chunks.length - 1;
    res.write(`data: ${JSON.stringify(response(model, id, parts, last ? 'STOP' : undefined, requestBytes, thoughts))}\r\n\r\n`);
  });
  res.end();
}

/** The CLI's side requests (routing, next speaker, titles) ask for JSON of a schema: an answer of that shape. */
function sideAnswer(body: GenerateBody): string {
  const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
  return schema ? JSON.stringify(valueOf(schema)) : 'Fake session';
}

function valueOf(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: string; properties?: Record<string, unknown>; enum?: unknown[]; items?: unknown };
  if (s.enum?.length) return s.enum[0];
  switch (String(s.type ?? '').toUpperCase()) {
    case 'OBJECT': return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, valueOf(v)]));
    case 'ARRAY': return [];
    case 'INTEGER': case 'NUMBER': return 1;
    case 'BOOLEAN': return false;
    default: return 'user';
  }
}

function sendError(res: ServerResponse, status: number, message: string, code: string): void {
  sendJson(res, status, { error: { code: status, message, status: code } });
}
