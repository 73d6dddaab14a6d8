// Streams a file as lines: splits on '\n' bytes and decodes each line on its own.
import { createReadStream } from 'node:fs';

/**
 * Calls `onLine` for every line (without its '\n'; a final unterminated line included) and tells
 * whether the file ended with '\n'.
 *
 * Why bytes, not a decoded chunk string: searching a Buffer for 0x0a is memchr-fast, one non-ASCII
 * character no longer turns a whole 1 MB chunk into a two-byte string, and each line is its own flat
 * string, so a line kept by a caller (keepRaw) never pins the chunk it was sliced from. A '\n' byte
 * never occurs inside a UTF-8 sequence, so decoding per line gives the same text as decoding the file.
 */
export async function forEachLine(path: string, onLine: (line: string) => void): Promise<{ endsWithNewline: boolean }> {
  let pending: Buffer[] = [];
  let lastByte = -1;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    if (chunk.length === 0) continue;
    lastByte = chunk[chunk.length - 1]!;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (pending.length > 0) {
        pending.push(chunk.subarray(start, nl));
        onLine(Buffer.concat(pending).toString('utf8'));
        pending = [];
      } else {
        onLine(chunk.toString('utf8', start, nl));
      }
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) onLine(Buffer.concat(pending).toString('utf8'));
  return { endsWithNewline: lastByte === 0x0a };
}

/**
 * A whole file's bytes split into lines, for callers that write records back: the line texts stay in
 * one Buffer (outside the JS heap) and are decoded again only for the lines that are copied.
 */
export class BufferLines {
  // Byte offsets (a file read whole is < 4 GiB), two per line, in a typed array: no boxed numbers at 10M lines.
  private spans = new Uint32Array(1024);
  private count = 0;

  constructor(private readonly bytes: Buffer) {
    if (bytes.length >= 2 ** 32) throw new RangeError('BufferLines holds files under 4 GiB');
  }

  /** Calls `onLine` for every line (as forEachLine does) and remembers where each one is. */
  split(onLine: (line: string) => void): { endsWithNewline: boolean } {
    const buf = this.bytes;
    let start = 0;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
      this.remember(start, nl);
      onLine(buf.toString('utf8', start, nl));
      start = nl + 1;
    }
    if (start < buf.length) {
      this.remember(start, buf.length);
      onLine(buf.toString('utf8', start));
    }
    return { endsWithNewline: buf.length > 0 && buf[buf.length - 1] === 0x0a };
  }

  text(line: number): string | undefined {
    if (!(line >= 0 && line < this.count)) return undefined;
    return this.bytes.toString('utf8', this.spans[2 * line], this.spans[2 * line + 1]);
  }

  private remember(start: number, end: number): void {
    if (2 * this.count + 2 > this.spans.length) {
      const next = new Uint32Array(this.spans.length * 2);
      next.set(this.spans);
      this.spans = next;
    }
    this.spans[2 * this.count] = start;
    this.spans[2 * this.count + 1] = end;
    this.count++;
  }
}
