// One session's index file: a header line, the session's quadgram filter, the blocks' directory and filters, the
// entries' table and the texts as written. A search reads the header and the session's filter; only when that lets
// the query through, the blocks' filters; then only the blocks that may match.
import { KIND_BY_CODE, KIND_CODES, type SearchEntry } from '../../core/search/extract';
import { FilterBuilder } from '../../core/search/quadgrams';
import type { IndexHandle } from './store';

/** Bump when the extraction or the layout changes: every index is then rebuilt once. */
export const INDEX_VERSION = 6;

export interface Stamp { readonly size: number; readonly mtimeMs: number }

export interface IndexHeader extends Stamp {
  readonly v: number;
  readonly path: string;
  /** Why the session could not be read, when it could not (kept so it is not re-read until it changes). */
  readonly error?: string;
  readonly entries: number;
  /** Bytes of the session's own filter (every key of its texts: ~3 % of them, where the blocks' filters are ~13 %). */
  readonly summary: number;
  readonly blocks: number;
  /** Bytes of all the blocks' filters. */
  readonly filters: number;
  /** Bytes of the texts (each followed by '\n'). */
  readonly body: number;
}

/**
 * Texts are grouped into blocks of about this many bytes (whole entries; a longer entry is a block alone): a filter
 * per block costs ~13 % of its text, and a block that may match is read and searched whole.
 */
const BLOCK_BYTES = 64 * 1024;
/** Per block: the entry after its last, the body offset after its last byte, its filter's bytes (u32 each). */
const DIR_ROW = 12;
/** Per entry: kind code, message, record, bytes of text (i32 each). */
const TABLE_ROW = 16;

export interface Block {
  readonly firstEntry: number;
  readonly endEntry: number;
  /** Its texts: body[start, end). */
  readonly start: number;
  readonly end: number;
  /** Its filter: filters[filterAt, filterAt + filterBytes). */
  readonly filterAt: number;
  readonly filterBytes: number;
}

export interface TableRow { readonly code: string; readonly message: number; readonly record: number; readonly bytes: number }

const builder = new FilterBuilder();
const sessionBuilder = new FilterBuilder();

export function encodeIndex(path: string, stamp: Stamp, entries: readonly SearchEntry[], error?: string): Buffer {
  const texts = entries.map((e) => Buffer.from(`${e.text}\n`, 'utf8'));
  const body = Buffer.concat(texts);
  const table = Buffer.alloc(entries.length * TABLE_ROW);
  entries.forEach((e, i) => {
    table.writeInt32LE(KIND_CODES[e.kind].charCodeAt(0), i * TABLE_ROW);
    table.writeInt32LE(e.message, i * TABLE_ROW + 4);
    table.writeInt32LE(e.record, i * TABLE_ROW + 8);
    table.writeInt32LE(texts[i].length - 1, i * TABLE_ROW + 12);
  });
  const dir: number[] = [];
  const filters: Uint8Array[] = [];
  for (let i = 0, at = 0; i < texts.length;) {
    const start = at;
    while (i < texts.length && (at === start || at - start + texts[i].length <= BLOCK_BYTES)) at += texts[i++].length;
    builder.add(body, start, at);
    const filter = builder.finish();
    filters.push(filter);
    dir.push(i, at, filter.length);
  }
  sessionBuilder.add(body, 0, body.length);
  const summary = sessionBuilder.finish();
  const directory = Buffer.alloc(dir.length * 4);
  dir.forEach((n, i) => directory.writeUInt32LE(n, i * 4));
  const filterBytes = filters.reduce((n, f) => n + f.length, 0);
  const header: IndexHeader = {
    v: INDEX_VERSION, path, size: stamp.size, mtimeMs: stamp.mtimeMs, ...(error ? { error } : {}),
    entries: entries.length, summary: summary.length, blocks: dir.length / 3, filters: filterBytes, body: body.length,
  };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), summary, directory, ...filters, table, body]);
}

function readFully(h: IndexHandle, into: Buffer, offset: number, length: number, position: number): boolean {
  for (let done = 0; done < length;) {
    const n = h.readAt(into, offset + done, length - done, position + done);
    if (n <= 0) return false;
    done += n;
  }
  return true;
}

/** Read buffers lent from file to file (a fresh one per file would touch new memory for every session). */
const pools = { head: Buffer.allocUnsafe(64 * 1024), summary: Buffer.allocUnsafe(256 * 1024), filters: Buffer.allocUnsafe(1 << 20), body: Buffer.allocUnsafe(1 << 20) };
function lend(which: 'summary' | 'filters' | 'body', bytes: number): Buffer {
  if (pools[which].length < bytes) pools[which] = Buffer.allocUnsafe(Math.max(bytes, pools[which].length * 2));
  return pools[which];
}
const HEAD = 4096;

/** An index opened for search: its header and the session's filter, the rest read only when needed. */
export interface OpenIndex {
  readonly header: IndexHeader;
  /** The session's filter (lent: valid until the next index is opened). */
  readonly summary: Buffer;
  /** The blocks and every block's filter (lent likewise), or undefined when the file is damaged. */
  blocks(): { blocks: Block[]; filters: Buffer } | undefined;
  /** The texts body[start, end) (lent: valid until the next call). */
  body(start: number, end: number): Buffer | undefined;
  table(): TableRow[] | undefined;
}

function parseHeader(h: IndexHandle): { header: IndexHeader; start: number } | undefined {
  for (let want = Math.min(HEAD, h.size); ; want = Math.min(pools.head.length, h.size)) {
    if (!readFully(h, pools.head, 0, want, 0)) return undefined;
    const nl = pools.head.subarray(0, want).indexOf(10);
    if (nl !== -1) {
      try {
        return { header: JSON.parse(pools.head.toString('utf8', 0, nl)) as IndexHeader, start: nl + 1 };
      } catch {
        return undefined;
      }
    }
    if (want === h.size || want === pools.head.length) return undefined;
  }
}

const whole = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** The index, or undefined when the file is not one this version wrote whole (then the session is read again). */
export function openIndex(h: IndexHandle): OpenIndex | undefined {
  const parsed = parseHeader(h);
  if (!parsed) return undefined;
  const { header, start } = parsed;
  if (header?.v !== INDEX_VERSION || typeof header.path !== 'string' || ![header.entries, header.summary, header.blocks, header.filters, header.body].every(whole)) return undefined;
  const dirAt = start + header.summary;
  const dirBytes = header.blocks * DIR_ROW;
  const tableAt = dirAt + dirBytes + header.filters;
  const bodyAt = tableAt + header.entries * TABLE_ROW;
  // The session's filter is never empty (MIN_BYTES): an empty one would hide every match.
  if (bodyAt + header.body !== h.size || header.summary === 0 || (header.blocks === 0) !== (header.entries === 0)) return undefined;
  const summary = lend('summary', header.summary).subarray(0, header.summary);
  if (!readFully(h, summary, 0, header.summary, start)) return undefined;
  return {
    header,
    summary,
    blocks: () => {
      const head = lend('filters', dirBytes + header.filters);
      if (!readFully(h, head, 0, dirBytes + header.filters, dirAt)) return undefined;
      const blocks: Block[] = [];
      for (let b = 0, entry = 0, at = 0, filterAt = dirBytes; b < header.blocks; b++) {
        const endEntry = head.readUInt32LE(b * DIR_ROW);
        const end = head.readUInt32LE(b * DIR_ROW + 4);
        const filterBytes = head.readUInt32LE(b * DIR_ROW + 8);
        // A block with no filter bytes, or blocks that leave entries or text uncovered, would hide matches silently.
        if (endEntry <= entry || endEntry > header.entries || end < at || end > header.body || filterBytes === 0 || filterAt + filterBytes > dirBytes + header.filters) return undefined;
        blocks.push({ firstEntry: entry, endEntry, start: at, end, filterAt, filterBytes });
        entry = endEntry;
        at = end;
        filterAt += filterBytes;
      }
      if (header.entries > 0 && (blocks.at(-1)?.endEntry !== header.entries || blocks.at(-1)?.end !== header.body)) return undefined;
      return { blocks, filters: head };
    },
    body: (from, to) => {
      const b = lend('body', to - from);
      return readFully(h, b, 0, to - from, bodyAt + from) ? b.subarray(0, to - from) : undefined;
    },
    table: () => {
      const b = Buffer.allocUnsafe(header.entries * TABLE_ROW);
      if (!readFully(h, b, 0, b.length, tableAt)) return undefined;
      const rows: TableRow[] = [];
      let texts = 0;
      for (let i = 0; i < header.entries; i++) {
        const o = i * TABLE_ROW;
        const bytes = b.readInt32LE(o + 12);
        if (bytes < 0) return undefined;
        texts += bytes + 1;
        rows.push({ code: String.fromCharCode(b.readInt32LE(o)), message: b.readInt32LE(o + 4), record: b.readInt32LE(o + 8), bytes });
      }
      // The entries' lengths must add up to the texts, or every later entry would be cut in the wrong place.
      return texts === header.body ? rows : undefined;
    },
  };
}

/** An index just built, opened from memory. */
export function memoryHandle(data: Buffer): IndexHandle {
  return { size: data.length, readAt: (into, offset, length, position) => data.copy(into, offset, position, Math.min(data.length, position + length)), close: () => undefined };
}

export const kindOf = (code: string): SearchEntry['kind'] => KIND_BY_CODE[code] ?? 'reply';
