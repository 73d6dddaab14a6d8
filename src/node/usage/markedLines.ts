// Finds the lines holding one of a few ASCII markers by searching for the markers, not by splitting every line.
import { closeSync, openSync, readSync } from 'node:fs';
import { lendBuffer, MARKED_CHUNK, MAX_LINE_BYTES, type ReadCounters, type ReadResult, yieldEvery } from './lineReader';

/** Bytes start..end of `buf` are one line (no '\n'); valid only during the call. */
export type MarkedLine = (buf: Buffer, start: number, end: number) => void;

/**
 * Calls `onLine` for every complete line from `fromOffset` (a line start) on that contains one of `markers`
 * (none may hold a '\n'). Lines without a marker are never split, copied or decoded: the chunk is searched for
 * each marker and only a hit's line is cut out, which is what makes a cold usage scan cost little more than the read.
 * A line that crosses a chunk boundary is read again whole; an unterminated last line is left for the next scan.
 */
export async function scanMarkedLines(
  path: string, fromOffset: number, markers: readonly Buffer[], onLine: MarkedLine, counters: ReadCounters,
  maxLineBytes = MAX_LINE_BYTES, chunkBytes = MARKED_CHUNK,
): Promise<ReadResult> {
  // Chunks overlap by one byte less than the longest marker, so a marker split by a chunk boundary is still found.
  const overlap = Math.max(...markers.map((m) => m.length)) - 1;
  if (chunkBytes <= 2 * overlap) throw new Error(`chunk of ${chunkBytes} bytes is too small for markers of ${overlap + 1}`);
  const fd = openSync(path, 'r');
  const lease = lendBuffer(chunkBytes);
  const buf = lease.buf;
  const pause = yieldEvery();
  let oversizedLines = 0;
  /** Every byte before `done` is settled; `done` is always a line start. */
  let done = fromOffset;
  let pos = fromOffset;
  try {
    for (;;) {
      const paused = pause(chunkBytes);
      if (paused) await paused;
      const n = readSync(fd, buf, 0, chunkBytes, pos);
      counters.bytesRead += n;
      const chunk = n === buf.length ? buf : buf.subarray(0, n); // no view per full chunk: ~1 µs each adds up
      /** The file offset where the line holding chunk[at] starts (at -1: the line holding the chunk's start). */
      const startOfLine = (at: number): number => {
        const nl = at < 0 ? -1 : chunk.lastIndexOf(10, at);
        if (nl !== -1 && pos + nl + 1 >= done) return pos + nl + 1;
        return pos <= done ? done : lineStartBefore(fd, pos, done, buf.length, counters);
      };
      let from = Math.max(0, done - pos);
      let jumped = false;
      const firstHit = hitFinder(chunk, markers);
      for (let hit = firstHit(from); hit !== -1; hit = firstHit(from)) {
        const start = startOfLine(hit);
        const nlAfter = chunk.indexOf(10, hit);
        if (nlAfter !== -1 && start >= pos) {
          if (nlAfter - (start - pos) > maxLineBytes) oversizedLines++;
          else onLine(chunk, start - pos, nlAfter);
          done = pos + nlAfter + 1;
          from = nlAfter + 1;
          continue;
        }
        // The line crosses a chunk boundary: find its end, then read it whole into a buffer of its own.
        const end = nlAfter !== -1 ? pos + nlAfter : nextNewline(fd, pos + n, counters);
        if (end === -1) return { endOffset: start, oversizedLines }; // unterminated: a writer is still at it
        if (end - start > maxLineBytes) oversizedLines++;
        else {
          const line = readAt(fd, start, end - start, counters);
          onLine(line, 0, line.length);
        }
        done = end + 1;
        pos = done;
        jumped = true;
        break;
      }
      if (jumped) continue;
      if (n < chunkBytes) {
        return { endOffset: startOfLine(n - 1), oversizedLines }; // just past the last '\n'
      }
      pos += n - overlap;
    }
  } finally {
    closeSync(fd);
    lease.release();
  }
}

/**
 * Returns "position of the earliest marker at or after `from`, or -1" for a rising `from`. Each marker's next
 * position is remembered, so a marker absent from the chunk is searched for once, not once per hit.
 */
function hitFinder(chunk: Buffer, markers: readonly Buffer[]): (from: number) => number {
  const next = markers.map(() => -2); // -2: not searched yet; -1: not in the rest of the chunk
  return (from) => {
    let best = -1;
    for (let i = 0; i < markers.length; i++) {
      if (next[i] === -1) continue;
      if (next[i] < from) next[i] = chunk.indexOf(markers[i], from);
      if (next[i] !== -1 && (best === -1 || next[i] < best)) best = next[i];
    }
    return best;
  };
}

/** The start of the line holding the byte before `at`: one past the last '\n' before it, but never before `floor`. */
function lineStartBefore(fd: number, at: number, floor: number, window: number, counters: ReadCounters): number {
  const buf = Buffer.allocUnsafe(window);
  for (let end = at; end > floor; ) {
    const start = Math.max(floor, end - window);
    const n = readSync(fd, buf, 0, end - start, start);
    counters.bytesRead += n;
    const nl = buf.subarray(0, n).lastIndexOf(10);
    if (nl !== -1) return start + nl + 1;
    end = start;
  }
  return floor;
}

/** Offset of the first '\n' at or after `at`, or -1 at the end of the file. */
function nextNewline(fd: number, at: number, counters: ReadCounters): number {
  const buf = Buffer.allocUnsafe(64 << 10);
  for (let pos = at; ; ) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    counters.bytesRead += n;
    if (n === 0) return -1;
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl !== -1) return pos + nl;
    pos += n;
  }
}

function readAt(fd: number, at: number, length: number, counters: ReadCounters): Buffer {
  const line = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, line, got, length - got, at + got);
    if (n === 0) break; // truncated under us: hand over what is there, JSON.parse will reject it
    got += n;
  }
  counters.bytesRead += got;
  return line.subarray(0, got);
}
