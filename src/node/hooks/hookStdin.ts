// The hook's stdin, bounded: the agent's JSON is a few hundred bytes, and a hook must never hang or fill memory.
import type { Readable } from 'node:stream';

/** Far above any SessionStart payload; more than this is not the agent's JSON. */
export const HOOK_STDIN_MAX_BYTES = 1 << 20;
/** How long the hook waits for stdin to hold a JSON object; the agent has sent it by the time it starts us. */
export const HOOK_STDIN_WAIT_MS = 10_000;

export interface StdinLimits { readonly maxBytes?: number; readonly waitMs?: number }

/**
 * Reads until end of input, or until what arrived parses as one JSON object (an agent that keeps the pipe open is
 * not waited on), at most `maxBytes` and `waitMs`. Then stops reading and destroys the stream, so an open pipe
 * does not keep the process alive. Rejects with a one-line message when the input is too big or never arrives.
 */
export function readHookStdin(stream: Readable, limits: StdinLimits = {}): Promise<string> {
  const maxBytes = limits.maxBytes ?? HOOK_STDIN_MAX_BYTES;
  const waitMs = limits.waitMs ?? HOOK_STDIN_WAIT_MS;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (error?: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      stream.destroy();
      if (error) reject(new Error(error));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const complete = (): boolean => {
      try {
        const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        return typeof v === 'object' && v !== null;
      } catch {
        return false;
      }
    };
    const onData = (c: Buffer | string): void => {
      const b = typeof c === 'string' ? Buffer.from(c) : c;
      bytes += b.length;
      if (bytes > maxBytes) return finish(`stdin is over ${maxBytes} bytes, not the agent's SessionStart JSON`);
      chunks.push(b);
      if (complete()) finish();
    };
    const onEnd = (): void => finish();
    const onError = (e: Error): void => finish(`cannot read stdin (${e.message.split('\n')[0]})`);
    const timer = setTimeout(() => finish(bytes ? undefined : `no input on stdin within ${waitMs / 1000} s`), waitMs);
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
