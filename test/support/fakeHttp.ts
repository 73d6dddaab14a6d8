// Shared plumbing of the loopback fake provider servers: listen, record requests, script faults.
import type { ServerResponse } from 'node:http';
import { loopbackTokens, startLoopback, type RecordedRequest } from '../../src/node/resume/loopback';

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

export type { RecordedRequest } from '../../src/node/resume/loopback';
export { sendJson, startSse } from '../../src/node/resume/loopback';

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

/** The product's loopback server (src/node/resume/loopback.ts) with a queue of scripted faults in front. */
export async function startFakeServer(handle: ProtocolHandler): Promise<FakeServer> {
  const queue: Fault[] = [];
  const server = await startLoopback((recorded, res) => {
    const fault = queue.shift() ?? fake.fallback;
    // A hang answers nothing; the socket stays open until the client aborts or the server closes.
    if (fault.kind === 'hang') return;
    handle(recorded, fault, res);
  });
  const fake: FakeServer = {
    url: server.url,
    requests: server.requests,
    fallback: ok,
    script: (...faults) => { queue.push(...faults); },
    close: server.close,
  };
  return fake;
}

/** A 200 whose body is not JSON, as a broken proxy or server might send. */
export function sendInvalidJson(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"id": "x", "content": [ this is not json');
}

/** Kills the connection mid-answer: the client sees the body end abruptly. */
export function cutConnection(res: ServerResponse): void {
  // Let the frames already written reach the client before the reset.
  setTimeout(() => res.socket?.destroy(), 20);
}

/** The text a fake model "writes": fixed, so tests can assert it. */
export const DEFAULT_TEXT = 'Summary: the user fixed the parser and added tests.';

/** Deterministic token estimate the fakes report (and tests assert): one token per 4 characters, rounded up. */
export const fakeTokenCount = loopbackTokens;

export function splitForStream(text: string): string[] {
  const words = text.split(/(?<= )/);
  return words.length > 0 ? words : [text];
}
