// A loopback HTTP server that records every request as sent (body bytes included): what an agent CLI sends a model.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface LoopbackServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Answers one recorded request; `undefined` from a handler leaves the socket open (a hang). */
export type LoopbackHandler = (req: RecordedRequest, res: ServerResponse) => void;

/** Listens on 127.0.0.1 (an ephemeral port, never another interface), records each request, then hands it on. */
export async function startLoopback(handle: LoopbackHandler): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const recorded = record(req, raw);
      requests.push(recorded);
      handle(recorded, res);
    }, () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
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

/** Starts a text/event-stream answer; returns a writer of `event:`/`data:` frames. */
export function startSse(res: ServerResponse): (data: unknown, event?: string) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  return (data, event) => {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  };
}

/** Deterministic token figure the loopback models report: one token per 4 characters, rounded up. */
export const loopbackTokens = (text: string): number => Math.ceil(text.length / 4);
