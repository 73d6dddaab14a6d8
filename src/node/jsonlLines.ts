// Streams a file as lines: splits on '\n' bytes and decodes each line on its own.
import { createReadStream } from 'node:fs';
import { unreadRange, type FieldKey } from './unreadField';

/** Read only the first `end` bytes: the file as it was when reading began (agents append while we read). */
export interface SnapshotOptions {
  readonly end?: number;
}

export interface LineOptions extends SnapshotOptions {
  /**
   * The key bytes (unreadField.ts fieldKey) of a field the caller never reads, asked before
   * each line is decoded: the line's text is then decoded without that field (its bytes stay as they are).
   */
  readonly unread?: () => FieldKey | undefined;
}

/**
 * Calls `onLine` for every line (without its '\n'; a final unterminated line included) and tells
 * whether the file ended with '\n'. `bytes[start, end)` is where the line's bytes are: a slice of the
 * chunk just read, or a Buffer of its own for a line that spanned chunks (callers may keep either: every
 * read is a fresh Buffer, fs streams do not reuse them).
 *
 * Why bytes, not a decoded chunk string: searching a Buffer for 0x0a is memchr-fast, one non-ASCII
 * character no longer turns a whole 1 MB chunk into a two-byte string, and each line is its own flat
 * string, so a line kept by a caller never pins the chunk it was sliced from. A '\n' byte never occurs
 * inside a UTF-8 sequence, so decoding per line gives the same text as decoding the file.
 */
export async function forEachLine(path: string, onLine: (line: string, bytes: Buffer, start: number, end: number) => void, options: LineOptions = {}): Promise<{ endsWithNewline: boolean }> {
  let pending: Buffer[] = [];
  let lastByte = -1;
  const unread = options.unread;
  const whole = (): void => {
    const line = Buffer.concat(pending);
    pending = [];
    onLine(unread ? decodeWithout(line, 0, line.length, unread()) : line.toString('utf8'), line, 0, line.length);
  };
  const range = options.end !== undefined && options.end > 0 ? { start: 0, end: options.end - 1 } : {};
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, ...range }) as AsyncIterable<Buffer>) {
    if (chunk.length === 0) continue;
    lastByte = chunk[chunk.length - 1]!;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (pending.length > 0) {
        pending.push(chunk.subarray(start, nl));
        whole();
      } else {
        onLine(unread ? decodeWithout(chunk, start, nl, unread()) : chunk.toString('utf8', start, nl), chunk, start, nl);
      }
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) whole();
  return { endsWithNewline: lastByte === 0x0a };
}

/**
 * The text of `b[start, end)` without the top-level field whose key is `key`. The range left out begins and ends at
 * ASCII bytes (a comma, a quote, a brace), never inside a UTF-8 sequence, so the rest decodes as it would in the
 * whole. The two parts are joined as bytes and decoded once: JSON.parse of two strings joined (a cons string) cost
 * more than the field it no longer parsed.
 */
function decodeWithout(b: Buffer, start: number, end: number, key: FieldKey | undefined): string {
  const cut = key ? unreadRange(b, start, end, key) : undefined;
  return cut ? Buffer.concat([b.subarray(start, cut.start), b.subarray(cut.end, end)]).toString('utf8') : b.toString('utf8', start, end);
}

/**
 * Line texts kept as the file's bytes, for callers that write records back: the chunks read stay as Buffers
 * (outside the JS heap) and a line is decoded again only when it is copied. Streaming, not one whole-file
 * read, so reading the next chunk overlaps parsing the last one.
 */
export class KeptLines {
  private readonly chunks: Buffer[] = [];
  // Three numbers per line (chunk, start, end) in a typed array: no boxed numbers at 10M lines.
  private spans = new Uint32Array(3 * 1024);
  private count = 0;

  /** Streams `path` (forEachLine), calls `onLine` for every line and keeps where each one is. */
  static async read(path: string, onLine: (line: string) => void, options: LineOptions = {}): Promise<{ lines: KeptLines; endsWithNewline: boolean }> {
    const lines = new KeptLines();
    const { endsWithNewline } = await forEachLine(path, (line, bytes, start, end) => {
      if (lines.chunks[lines.chunks.length - 1] !== bytes) lines.chunks.push(bytes);
      lines.remember(lines.chunks.length - 1, start, end);
      onLine(line);
    }, options);
    return { lines, endsWithNewline };
  }

  get length(): number {
    return this.count;
  }

  text(line: number): string | undefined {
    if (!(line >= 0 && line < this.count)) return undefined;
    const k = 3 * line;
    return this.chunks[this.spans[k]!]!.toString('utf8', this.spans[k + 1], this.spans[k + 2]);
  }

  private remember(chunk: number, start: number, end: number): void {
    if (3 * this.count + 3 > this.spans.length) {
      const next = new Uint32Array(this.spans.length * 2);
      next.set(this.spans);
      this.spans = next;
    }
    const k = 3 * this.count++;
    this.spans[k] = chunk;
    this.spans[k + 1] = start;
    this.spans[k + 2] = end;
  }
}
