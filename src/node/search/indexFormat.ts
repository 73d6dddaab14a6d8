// One session's index file: a header line (what it was built from), a table line, then the texts back to back.
import { KIND_BY_CODE, KIND_CODES, type SearchEntry } from '../../core/search/extract';

/** Bump when the extraction or the layout changes: every index is then rebuilt once. */
export const INDEX_VERSION = 1;

export interface Stamp { readonly size: number; readonly mtimeMs: number }

export interface IndexHeader extends Stamp {
  readonly v: number;
  readonly path: string;
  /** Why the session could not be read, when it could not (kept so it is not re-read until it changes). */
  readonly error?: string;
}

/** A parsed index: the body is searched whole first; the table is decoded only when something matched. */
export interface SessionIndex {
  readonly header: IndexHeader;
  readonly body: string;
  /** [kind code, message, record, length] per entry, in body order (each text followed by '\n'). */
  table(): [string, number, number, number][];
}

export function encodeIndex(path: string, stamp: Stamp, entries: readonly SearchEntry[], error?: string): string {
  const header: IndexHeader = { v: INDEX_VERSION, path, size: stamp.size, mtimeMs: stamp.mtimeMs, ...(error ? { error } : {}) };
  const table = entries.map((e) => [KIND_CODES[e.kind], e.message, e.record, e.text.length]);
  return `${JSON.stringify(header)}\n${JSON.stringify(table)}\n${entries.map((e) => `${e.text}\n`).join('')}`;
}

/** The index, or undefined when the text is not one this version wrote (then the session is read again). */
export function decodeIndex(text: string): SessionIndex | undefined {
  const a = text.indexOf('\n');
  const b = a === -1 ? -1 : text.indexOf('\n', a + 1);
  if (b === -1) return undefined;
  let header: IndexHeader;
  try {
    header = JSON.parse(text.slice(0, a)) as IndexHeader;
  } catch {
    return undefined;
  }
  if (header?.v !== INDEX_VERSION || typeof header.path !== 'string') return undefined;
  const tableText = text.slice(a + 1, b);
  return {
    header,
    body: text.slice(b + 1),
    table: () => {
      const t = JSON.parse(tableText) as [string, number, number, number][];
      if (!Array.isArray(t)) throw new Error('damaged search index table');
      return t;
    },
  };
}

export const kindOf = (code: string): SearchEntry['kind'] => KIND_BY_CODE[code] ?? 'reply';
