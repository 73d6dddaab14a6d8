// SQLite file-format primitives (https://www.sqlite.org/fileformat2.html): varints, records, b-tree page headers.

/** A value as SQLite stores it: NULL, an integer or real (integers past 2^53 lose precision), text, or a blob. */
export type SqlValue = null | number | string | Uint8Array;

/** Reads a big-endian unsigned integer of `n` ≤ 4 bytes. */
export function readUint(b: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[at + i]!;
  return v;
}

/** A varint at `at`: [value, bytes used]. Up to 9 bytes; the 9th contributes all 8 bits. */
export function readVarint(b: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const x = b[at + i];
    if (x === undefined) throw new Error('truncated varint');
    v = v * 128 + (x & 0x7f);
    if ((x & 0x80) === 0) return [v, i + 1];
  }
  const last = b[at + 8];
  if (last === undefined) throw new Error('truncated varint');
  return [v * 256 + last, 9];
}

/** A signed big-endian integer of `n` bytes (1–8). */
function readInt(b: Uint8Array, at: number, n: number): number {
  if (n <= 6) {
    let u = 0;
    for (let i = 0; i < n; i++) u = u * 256 + b[at + i]!;
    const max = 2 ** (8 * n);
    return u >= max / 2 ? u - max : u;
  }
  return Number(new DataView(b.buffer, b.byteOffset + at, 8).getBigInt64(0));
}

const SIZES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];

/** Bytes a value of serial type `t` takes in the record body. */
export function serialSize(t: number): number {
  if (t < 10) return SIZES[t]!;
  if (t < 12) throw new Error(`reserved serial type ${t}`);
  return Math.floor((t - 12) / 2);
}

/**
 * The values of a record (header of serial types, then the body). Text is decoded with `decode` (UTF-8 for every
 * database we read; the database header names its encoding).
 */
export function decodeRecord(p: Uint8Array, decode: (bytes: Uint8Array) => string): SqlValue[] {
  const [headerSize, n0] = readVarint(p, 0);
  if (headerSize > p.length) throw new Error('record header past its payload');
  const types: number[] = [];
  for (let at = n0; at < headerSize;) {
    const [t, n] = readVarint(p, at);
    types.push(t);
    at += n;
  }
  const out: SqlValue[] = [];
  let at = headerSize;
  for (const t of types) {
    const size = serialSize(t);
    if (at + size > p.length) throw new Error('record value past its payload');
    if (t === 0) out.push(null);
    else if (t <= 6) out.push(readInt(p, at, size));
    else if (t === 7) out.push(new DataView(p.buffer, p.byteOffset + at, 8).getFloat64(0));
    else if (t === 8 || t === 9) out.push(t - 8);
    else if (t % 2 === 0) out.push(p.slice(at, at + size));
    else out.push(decode(p.subarray(at, at + size)));
    at += size;
  }
  return out;
}

export const PAGE_INTERIOR_INDEX = 2;
export const PAGE_INTERIOR_TABLE = 5;
export const PAGE_LEAF_INDEX = 10;
export const PAGE_LEAF_TABLE = 13;

export interface PageHeader {
  readonly type: number;
  readonly cells: number;
  /** Where the cell pointer array starts (after the 8- or 12-byte header). */
  readonly pointers: number;
  /** The right-most child of an interior page. */
  readonly right?: number;
}

/** The b-tree header of a page whose header starts at `at` (100 on page 1, else 0). */
export function pageHeader(page: Uint8Array, at: number): PageHeader {
  const type = page[at]!;
  if (type !== PAGE_INTERIOR_INDEX && type !== PAGE_INTERIOR_TABLE && type !== PAGE_LEAF_INDEX && type !== PAGE_LEAF_TABLE) {
    throw new Error(`not a b-tree page (type ${type})`);
  }
  const cells = readUint(page, at + 3, 2);
  const interior = type === PAGE_INTERIOR_INDEX || type === PAGE_INTERIOR_TABLE;
  const pointers = at + (interior ? 12 : 8);
  // The cell pointer array lies on the page: a larger count is damage, not cells.
  if (pointers + 2 * cells > page.length) throw new Error(`${cells} cells do not fit on a page`);
  return { type, cells, pointers, right: interior ? readUint(page, at + 8, 4) : undefined };
}

/**
 * How much of a payload of `size` bytes sits on the b-tree page itself (the rest is on overflow pages), for a
 * table leaf (`table` true) or an index cell, with `usable` bytes per page.
 */
export function localPayload(size: number, usable: number, table: boolean): number {
  const max = table ? usable - 35 : Math.floor(((usable - 12) * 64) / 255) - 23;
  if (size <= max) return size;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((size - min) % (usable - 4));
  return k <= max ? k : min;
}
