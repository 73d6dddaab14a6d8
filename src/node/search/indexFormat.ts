// One session's index file: a header line, the texts with ASCII letters lower-cased, the texts as written, the table.
import { KIND_BY_CODE, KIND_CODES, type SearchEntry } from '../../core/search/extract';
import type { IndexHandle } from './store';

/** Bump when the extraction or the layout changes: every index is then rebuilt once. */
export const INDEX_VERSION = 2;

export interface Stamp { readonly size: number; readonly mtimeMs: number }

export interface IndexHeader extends Stamp {
  readonly v: number;
  readonly path: string;
  /** Why the session could not be read, when it could not (kept so it is not re-read until it changes). */
  readonly error?: string;
  /** Bytes of the texts (each followed by '\n'); the folded copy has the same length. */
  readonly body: number;
  /** Bytes of the table (JSON: [kind code, message, record, bytes] per entry). */
  readonly table: number;
}

export type TableRow = [code: string, message: number, record: number, bytes: number];

/**
 * The folded copy is what an ASCII query searches, as bytes (Buffer.indexOf, no decoding): A–Z become a–z and
 * nothing else changes, so a byte offset in it is the same offset in the texts.
 */
function foldAscii(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 0; i < out.length; i++) { const c = out[i]; if (c >= 65 && c <= 90) out[i] = c + 32; }
  return out;
}

export function encodeIndex(path: string, stamp: Stamp, entries: readonly SearchEntry[], error?: string): Buffer {
  const texts = entries.map((e) => Buffer.from(`${e.text}\n`, 'utf8'));
  const body = Buffer.concat(texts);
  const table = Buffer.from(JSON.stringify(entries.map((e, i): TableRow => [KIND_CODES[e.kind], e.message, e.record, texts[i].length - 1])));
  const header: IndexHeader = { v: INDEX_VERSION, path, size: stamp.size, mtimeMs: stamp.mtimeMs, ...(error ? { error } : {}), body: body.length, table: table.length };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), foldAscii(body), body, table]);
}

/** A read buffer lent from file to file: a fresh one per file would touch new memory for every session. */
let pool = Buffer.allocUnsafe(1 << 20);
const HEAD = 64 * 1024;

function readFully(h: IndexHandle, into: Buffer, offset: number, length: number, position: number): boolean {
  for (let done = 0; done < length;) {
    const n = h.readAt(into, offset + done, length - done, position + done);
    if (n <= 0) return false;
    done += n;
  }
  return true;
}

/** An index opened for search: its header, then the parts read only when needed. */
export interface OpenIndex {
  readonly header: IndexHeader;
  /** The folded texts, in the lent buffer: valid until the next index is opened. */
  fold(): Buffer | undefined;
  body(): Buffer | undefined;
  /** One entry's text, from `offset` (bytes into the texts). */
  entry(offset: number, bytes: number): string | undefined;
  table(): TableRow[] | undefined;
}

/** The header, or undefined when the file is not one this version wrote (then the session is read again). */
export function openIndex(h: IndexHandle): OpenIndex | undefined {
  const first = readFully(h, pool, 0, Math.min(HEAD, h.size), 0) ? pool.subarray(0, Math.min(HEAD, h.size)) : undefined;
  const nl = first ? first.indexOf(10) : -1;
  if (!first || nl === -1) return undefined;
  let header: IndexHeader;
  try {
    header = JSON.parse(first.toString('utf8', 0, nl)) as IndexHeader;
  } catch {
    return undefined;
  }
  const start = nl + 1;
  if (header?.v !== INDEX_VERSION || typeof header.path !== 'string' || start + 2 * header.body + header.table !== h.size) return undefined;
  return {
    header,
    fold: () => {
      if (pool.length < header.body) pool = Buffer.allocUnsafe(Math.max(header.body, pool.length * 2));
      return readFully(h, pool, 0, header.body, start) ? pool.subarray(0, header.body) : undefined;
    },
    body: () => {
      const b = Buffer.allocUnsafe(header.body);
      return readFully(h, b, 0, header.body, start + header.body) ? b : undefined;
    },
    entry: (offset, bytes) => {
      const b = Buffer.allocUnsafe(bytes);
      return readFully(h, b, 0, bytes, start + header.body + offset) ? b.toString('utf8') : undefined;
    },
    table: () => {
      const b = Buffer.allocUnsafe(header.table);
      if (!readFully(h, b, 0, header.table, start + 2 * header.body)) return undefined;
      try {
        const t = JSON.parse(b.toString('utf8')) as TableRow[];
        return Array.isArray(t) ? t : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** An index just built, opened from memory. */
export function memoryHandle(data: Buffer): IndexHandle {
  return { size: data.length, readAt: (into, offset, length, position) => data.copy(into, offset, position, Math.min(data.length, position + length)), close: () => undefined };
}

export const kindOf = (code: string): SearchEntry['kind'] => KIND_BY_CODE[code] ?? 'reply';
