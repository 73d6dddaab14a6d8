// Streams a file from a byte offset in fixed-size chunks and hands complete lines over as byte views.
import { closeSync, openSync, readSync } from 'node:fs';
import { hashBytes } from '../../core/usage/hash';

/**
 * 64 KB synchronous reads for line-by-line reading (a file's first lines, whole files of agents without markers): only
 * what is split is read, and sync reads beat fs/promises ones (a thread-pool hop per chunk). Yield between slices instead.
 */
export const CHUNK = 64 << 10;
/**
 * The marker search reads 1 MB at a time: it never splits lines, and fewer reads cost less (60-session cold scan, same
 * runs: 64 KB 215 ms, 128 KB 199, 256 KB 188, 1 MB 186; with a fresh buffer per file 1 MB was the slowest).
 */
export const MARKED_CHUNK = 1 << 20;
const YIELD_EVERY_BYTES = 8 << 20;

/** The size of the read buffers kept between files. */
const KEPT_BYTES = 1 << 20;
const spare: Buffer[] = [];

/**
 * A read buffer of `bytes`, reused from file to file. Memory a process touches for the first time costs a page fault
 * per 4 KB (~15 µs each on the 2-core VM here); a fresh 64 KB buffer per file cost a cold scan of 60 sessions more
 * than its reads, and larger fresh ones (malloc maps them anew each time) far more. At most two are kept (~2 MB).
 */
export function lendBuffer(bytes: number): { buf: Buffer; release(): void } {
  const i = spare.findIndex((b) => b.length >= bytes);
  const whole = i >= 0 ? spare.splice(i, 1)[0] : Buffer.allocUnsafeSlow(Math.max(bytes, KEPT_BYTES));
  return { buf: whole.subarray(0, bytes), release: () => { if (spare.length < 2 && whole.length === KEPT_BYTES) spare.push(whole); } };
}

/** Call with each chunk's size; every 8 MB it returns a promise to await, so an extension host scanning stays responsive. */
export function yieldEvery(bytes = YIELD_EVERY_BYTES): (n: number) => Promise<void> | undefined {
  let since = 0;
  return (n) => {
    since += n;
    if (since < bytes) return undefined;
    since = 0;
    return new Promise((r) => setImmediate(r));
  };
}
/** A line longer than this is skipped (never buffered further): bounds memory on pathological files. */
export const MAX_LINE_BYTES = 64 << 20;

export interface ReadCounters {
  bytesRead: number;
}

export interface ReadResult {
  /** Offset just past the last '\n' seen: a half-written final line is left for the next scan. */
  endOffset: number;
  /** Lines skipped because they exceeded MAX_LINE_BYTES. */
  oversizedLines: number;
}

/**
 * Calls `onLine` for every '\n'-terminated line from `fromOffset` on, until it returns true (stop after that line).
 * The view passed to `onLine` is only valid during the call (the chunk buffer is reused). No whole-file string is
 * ever built.
 */
export async function readLines(
  path: string, fromOffset: number, onLine: (line: Buffer) => boolean | void, counters: ReadCounters, maxLineBytes = MAX_LINE_BYTES, chunkBytes = CHUNK,
): Promise<ReadResult> {
  const fd = openSync(path, 'r');
  const lease = lendBuffer(chunkBytes);
  const buf = lease.buf;
  const pause = yieldEvery();
  let pos = fromOffset;
  let endOffset = fromOffset;
  let oversizedLines = 0;
  let carry: Buffer[] = [];
  let carryLen = 0;
  let overflow = false;
  try {
    for (;;) {
      const paused = pause(chunkBytes);
      if (paused) await paused;
      const bytesRead = readSync(fd, buf, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      counters.bytesRead += bytesRead;
      const chunk = buf.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
        let stop = false;
        if (overflow) oversizedLines++;
        else if (carryLen > 0) stop = onLine(Buffer.concat([...carry, chunk.subarray(start, nl)])) === true;
        else stop = onLine(chunk.subarray(start, nl)) === true;
        carry = [];
        carryLen = 0;
        overflow = false;
        start = nl + 1;
        endOffset = pos + start;
        if (stop) return { endOffset, oversizedLines };
      }
      const restLen = bytesRead - start;
      if (restLen > 0 && !overflow) {
        if (carryLen + restLen > maxLineBytes) {
          overflow = true;
          carry = [];
          carryLen = 0;
        } else {
          carry.push(Buffer.from(chunk.subarray(start))); // copy: buf is overwritten by the next read
          carryLen += restLen;
        }
      }
      pos += bytesRead;
    }
  } finally {
    closeSync(fd);
    lease.release();
  }
  return { endOffset, oversizedLines };
}

/** Reads up to `length` bytes from the start of a file (for the prefix hash). */
export function readHead(path: string, length: number, counters: ReadCounters): Buffer {
  return readRange(path, 0, length, counters);
}

/** Reads up to `length` bytes from `from` on. */
export function readRange(path: string, from: number, length: number, counters: ReadCounters): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const bytesRead = readSync(fd, buf, 0, length, from);
    counters.bytesRead += bytesRead;
    return buf.subarray(0, bytesRead);
  } finally {
    closeSync(fd);
  }
}

/** Bytes hashed before a parse's end offset: a file that only grew since still has them there. */
export const END_BYTES = 1024;

/** The hash of the END_BYTES before `offset` (fewer at the start of a file). */
export function endHash(path: string, offset: number, counters: ReadCounters): string {
  const from = Math.max(0, offset - END_BYTES);
  return hashBytes(readRange(path, from, offset - from, counters));
}
