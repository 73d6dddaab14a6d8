// Streams a file from a byte offset in fixed-size chunks and hands complete lines over as byte views.
import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;
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
 * Calls `onLine` for every '\n'-terminated line from `fromOffset` on. The view passed to `onLine` is
 * only valid during the call (the chunk buffer is reused). No whole-file string is ever built.
 */
export async function readLines(
  path: string, fromOffset: number, onLine: (line: Buffer) => void, counters: ReadCounters, maxLineBytes = MAX_LINE_BYTES, chunkBytes = CHUNK,
): Promise<ReadResult> {
  const fh = await open(path, 'r');
  const buf = Buffer.allocUnsafe(chunkBytes);
  let pos = fromOffset;
  let endOffset = fromOffset;
  let oversizedLines = 0;
  let carry: Buffer[] = [];
  let carryLen = 0;
  let overflow = false;
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      counters.bytesRead += bytesRead;
      const chunk = buf.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
        if (overflow) oversizedLines++;
        else if (carryLen > 0) onLine(Buffer.concat([...carry, chunk.subarray(start, nl)]));
        else onLine(chunk.subarray(start, nl));
        carry = [];
        carryLen = 0;
        overflow = false;
        start = nl + 1;
        endOffset = pos + start;
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
    await fh.close();
  }
  return { endOffset, oversizedLines };
}

/** Reads up to `length` bytes from the start of a file (for the prefix hash). */
export async function readHead(path: string, length: number, counters: ReadCounters): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await fh.read(buf, 0, length, 0);
    counters.bytesRead += bytesRead;
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
