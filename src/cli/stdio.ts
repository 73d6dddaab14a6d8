// The CLI's output, written straight to fd 1 and 2: touching process.stdout loads Node's stream modules, which is a
// good part of a warm `usage` run's start-up. Writes are synchronous, so output is complete and in order at exit.
import { writeSync } from 'node:fs';

const closed = new Set<number>();
const pause = new Int32Array(new SharedArrayBuffer(4));

const code = (e: unknown): unknown => (e && typeof e === 'object' && 'code' in e ? (e as { code: unknown }).code : undefined);

export function writeOut(fd: 1 | 2, text: string | Uint8Array): void {
  if (closed.has(fd)) return;
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  for (let off = 0; off < bytes.length; ) {
    try {
      off += writeSync(fd, bytes, off);
    } catch (e) {
      if (code(e) === 'EPIPE') {
        closed.add(fd); // the reader is gone (`| head`): nothing more to say, and no stack trace either
        return;
      }
      if (code(e) !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1); // a full non-blocking pipe: wait a millisecond for the reader
    }
  }
}
