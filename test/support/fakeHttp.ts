// Shared plumbing of the loopback fake provider servers: listen, record requests, script faults.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next request gets. 'ok' is a normal answer; the rest are injected faults. */
export type Fault =
  | { kind: 'ok'; text?: string }
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'unauthorized' }
  | { kind: 'rate-limit'; retryAfter?: string }
  | { kind: 'too-long' }
  | { kind: 'hang' }
  | { kind: 'cut' }
  | { kind: 'end-early' }
  | { kind: 'invalid-json' }
  | { kind: 'truncated' }
  | { kind: 'empty' }
  /** Anthropic streams only: an `error` event (overloaded_error) after message_start, as the API sends mid-stream. */
  | { kind: 'stream-error' };

export const ok: Fault = { kind: 'ok' };

export interface RecordedRequest {
  method: string;
  path: string;
  /** The credential as sent: the Authorization header, x-api-key or x-goog-api-key. Kept apart so headers can be logged. */
  auth: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** Size of the body as sent, in bytes: what a real API would bill and limit. */
  bytes: number;
}

export interface FakeServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues faults for the next requests, in order; when the queue is empty `fallback` answers. */
  script(...faults: Fault[]): void;
  fallback: Fault;
  close(): Promise<void>;
}

export type ProtocolHandler = (
  req: RecordedRequest,
  fault: Fault,
  res: ServerResponse,
) => void;

export async function startFakeServer(handle: ProtocolHandler): Promise<FakeServer> {
  const queue: Fault[] = [];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const recorded = record(req, raw);
      requests.push(recorded);
      const fault = queue.shift() ?? fake.fallback;
      // A hang answers nothing; the socket stays open until the client aborts or the server closes.
      if (fault.kind === 'hang') return;
      handle(recorded, fault, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    fallback: ok,
    script: (...faults) => { queue.push(...faults); },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return fake;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function record(req: IncomingMessage, bytes: Buffer): RecordedRequest {
  const raw = bytes.toString('utf8');
  const headers = { ...req.headers };
  const auth = (headers.authorization ?? headers['x-api-key'] ?? headers['x-goog-api-key']) as string | undefined;
  delete headers.authorization;
  delete headers['x-api-key'];
  delete headers['x-goog-api-key'];
  let body: unknown = raw;
  try { body = raw ? JSON.parse(raw) : undefined; } catch { /* keep the raw text */ }
  return { method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', auth, headers, body, bytes: bytes.length };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A 200 whose body is not JSON, as a broken proxy or server might send. */
export function sendInvalidJson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"id": "x", "content": [ this is not json');
}

/** Starts a text/event-stream answer; returns a writer of `event:`/`data:` frames. */
export function startSse(res: ServerResponse): (data: unknown, event?: string) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  return (data, event) => {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  };
}

/** Kills the connection mid-answer: the client sees the body end abruptly. */
export function cutConnection(res: ServerResponse): void {
  // Let the frames already written reach the client before the reset.
  setTimeout(() => res.socket?.destroy(), 20);
}

/** The text a fake model "writes": fixed, so tests can assert it. */
export const DEFAULT_TEXT = 'Summary: the user fixed the parser and added tests.';

/** Deterministic token estimate the fakes report (and tests assert): one token per 4 characters, rounded up. */
export function fakeTokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}

export function splitForStream(text: string): string[] {
  const words = text.split(/(?<= )/);
  return words.length > 0 ? words : [text];
}
