// The SQLite reader is bounded by what is on disk: hostile copies of a real Goose sessions.db (bytes patched here)
// end in a partial result with warnings, never in millions of rows, huge allocations or an endless chain.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { FileBytes } from '../../../src/core/agents/agent';
import { SqliteDatabase } from '../../../src/core/read/sqlite/database';
import { decodeRecord, localPayload } from '../../../src/core/read/sqlite/record';
import { goose } from '../../../src/core/formats/goose/agent';
import { FIXTURES } from '../../support/fixtures';

const REAL = fs.readFileSync(path.join(FIXTURES, 'goose', 'sessions.db'));
const PAGE = REAL.readUInt16BE(16);
const PAGES = REAL.length / PAGE;
const bytesOf = (b: Buffer): FileBytes => ({ size: b.length, read: (o, n) => b.subarray(o, o + n) });
const page = (b: Buffer, n: number): Buffer => b.subarray((n - 1) * PAGE, n * PAGE);
const realRows = [...SqliteDatabase.open(bytesOf(REAL)).rows('messages')].length;

/** The messages table's root: the file's one interior table page (type 5). */
function interiorPage(b: Buffer): number {
  for (let n = 2; n <= PAGES; n++) if (page(b, n)[0] === 5) return n;
  throw new Error('the fixture has no interior table page');
}

/** A table leaf with one cell whose payload claims `size` bytes and whose overflow chain starts at `overflow`. */
function craftedLeaf(size: number, overflow: number): Buffer {
  const p = Buffer.alloc(PAGE);
  const cell = 1000;
  p[0] = 13;
  p.writeUInt16BE(1, 3);
  p.writeUInt16BE(cell, 5);
  p.writeUInt16BE(cell, 8);
  const varint: number[] = [];
  for (let v = size; ; v = Math.floor(v / 128)) { varint.unshift(v % 128); if (v < 128) break; }
  const head = Buffer.from([...varint.map((x, i) => (i < varint.length - 1 ? x | 0x80 : x)), 100]);
  head.copy(p, cell);
  p.writeUInt32BE(overflow, cell + head.length + localPayload(size, PAGE, true));
  return p;
}

/** An overflow page whose next pointer is itself: a chain that never ends. */
function loopingOverflow(n: number): Buffer {
  const p = Buffer.alloc(PAGE, 0x41);
  p.writeUInt32BE(n, 0);
  return p;
}

/** A WAL (little-endian checksums) holding `frames`, the last one a commit claiming `dbPages`. */
function wal(frames: { n: number; data: Buffer }[], dbPages: number): Buffer {
  const sum = [0, 0];
  const add = (b: Buffer): void => {
    for (let i = 0; i < b.length; i += 8) {
      sum[0] = (sum[0]! + b.readUInt32LE(i) + sum[1]!) >>> 0;
      sum[1] = (sum[1]! + b.readUInt32LE(i + 4) + sum[0]!) >>> 0;
    }
  };
  const head = Buffer.alloc(32);
  head.writeUInt32BE(0x377f0682, 0);
  head.writeUInt32BE(3007000, 4);
  head.writeUInt32BE(PAGE, 8);
  head.writeUInt32BE(0x1234, 16);
  head.writeUInt32BE(0x5678, 20);
  add(head.subarray(0, 24));
  head.writeUInt32BE(sum[0]!, 24);
  head.writeUInt32BE(sum[1]!, 28);
  const out = [head];
  frames.forEach(({ n, data }, i) => {
    const fh = Buffer.alloc(24);
    fh.writeUInt32BE(n, 0);
    fh.writeUInt32BE(i === frames.length - 1 ? dbPages : 0, 4);
    fh.writeUInt32BE(0x1234, 8);
    fh.writeUInt32BE(0x5678, 12);
    add(fh.subarray(0, 8));
    add(data);
    fh.writeUInt32BE(sum[0]!, 16);
    fh.writeUInt32BE(sum[1]!, 20);
    out.push(fh, data);
  });
  return Buffer.concat(out);
}

test('many interior cells pointing at one child: each page is read once, with a warning', () => {
  const b = Buffer.from(REAL);
  const root = interiorPage(b);
  const p = page(b, root);
  const child = p.readUInt32BE(p.readUInt16BE(12));
  // Every cell pointer of the root names one 5-byte cell (child, rowid 127) at the page's end; the right child too.
  const cells = Math.floor((PAGE - 12 - 5) / 2);
  const cell = PAGE - 5;
  p.writeUInt16BE(cells, 3);
  p.writeUInt32BE(child, 8);
  for (let i = 0; i < cells; i++) p.writeUInt16BE(cell, 12 + 2 * i);
  p.writeUInt32BE(child, cell);
  p[cell + 4] = 127;
  const db = SqliteDatabase.open(bytesOf(b));
  const rows = [...db.rows('messages')];
  assert.ok(rows.length > 0 && rows.length < realRows, `${rows.length} rows: the child's rows once, not ${cells + 1} times`);
  assert.equal(new Set(rows.map((r) => r.rowid)).size, rows.length, 'no row repeated');
  assert.ok(db.warnings.some((w) => /reaches a page more than once/.test(w)), db.warnings.join('; '));
});

test('a WAL commit claiming 2^32−1 pages with a looping overflow cell: capped by the files, the row skipped', () => {
  // Page 34 (past the file) is an overflow page pointing at itself; page 33, the messages' right-most leaf, holds
  // one cell claiming 16 MB whose chain starts there.
  const last = PAGES;
  const log = wal([{ n: last + 1, data: loopingOverflow(last + 1) }, { n: last, data: craftedLeaf(1 << 24, last + 1) }], 0xffffffff);
  const db = SqliteDatabase.open(bytesOf(REAL), bytesOf(log));
  const rows = [...db.rows('messages')];
  assert.ok(rows.length < realRows && rows.length > 0, 'the other leaves still read');
  assert.ok(db.warnings.some((w) => w.includes('claims 4294967295 pages') && w.includes(`hold ${last + 1}`)), db.warnings.join('; '));
  assert.ok(db.warnings.some((w) => /larger than the database/.test(w)), db.warnings.join('; '));
  // Through Goose's reader the session reads, and says what it cut.
  assert.equal(goose.reading.kind, 'document');
  const session = goose.reading.kind === 'document'
    ? goose.reading.parse([{ path: '/x/sessions.db', text: '', bytes: bytesOf(REAL) }, { path: '/x/sessions.db-wal', text: '', bytes: bytesOf(log) }], { keepRaw: false, path: '/x/sessions.db#20251201_1' })
    : undefined;
  assert.ok(session?.warnings.some((w) => w.includes('claims 4294967295 pages')), session?.warnings.join('; '));
});

test('a looping overflow chain ends: that row skipped with a warning', () => {
  // Fits the database's size (50,000 bytes < its pages), so only the loop check stops it.
  const b = Buffer.concat([REAL, loopingOverflow(PAGES + 1)]);
  craftedLeaf(50_000, PAGES + 1).copy(b, (PAGES - 1) * PAGE);
  const db = SqliteDatabase.open(bytesOf(b));
  const rows = [...db.rows('messages')];
  assert.ok(rows.every((r) => r.rowid !== 100), 'the looping row is not returned');
  assert.ok(rows.length > 0);
  assert.ok(db.warnings.some((w) => /broken overflow chain/.test(w)), db.warnings.join('; '));
});

test('the bounds cost a sound database nothing: every row, no warning', () => {
  const db = SqliteDatabase.open(bytesOf(REAL));
  assert.equal([...db.rows('messages')].length, realRows);
  assert.deepEqual(db.warnings, [], 'a sound database reads without warnings');
  // OpenCode's store with its WAL (pages past the file's end live in the WAL): whole, no warning either.
  const oc = path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db');
  const withWal = SqliteDatabase.open(bytesOf(fs.readFileSync(oc)), bytesOf(fs.readFileSync(`${oc}-wal`)));
  assert.ok([...withWal.rows('part')].length > 0);
  assert.deepEqual(withWal.warnings, []);
});

test('a work budget: a thousand cells sharing one 100 KB value stop at what the files allow, with a warning', () => {
  // The messages' last leaf holds 1,144 cell pointers to one cell whose 100,000-byte text runs over 24 real
  // overflow pages appended to the file: each row is sound, together they decode 400× the file.
  const size = 100_000;
  const local = localPayload(size, PAGE, true);
  const overflow = Math.ceil((size - local) / (PAGE - 4));
  const chain = Array.from({ length: overflow }, (_, i) => {
    const p = Buffer.alloc(PAGE, 0x61);
    p.writeUInt32BE(i === overflow - 1 ? 0 : PAGES + i + 2, 0);
    return p;
  });
  const b = Buffer.concat([REAL, ...chain]);
  const leaf = page(b, PAGES);
  leaf.fill(0);
  // A 5-byte record header (its size; NULL for the id, the rowid's alias; a 3-byte serial type), then session_id's text.
  const text = size - 5;
  const serial = 13 + 2 * text;
  const varint3 = (v: number): number[] => [0x80 | (v >> 14), 0x80 | ((v >> 7) & 0x7f), v & 0x7f];
  const cellBytes = Buffer.concat([Buffer.from([...varint3(size), 100, 5, 0, ...varint3(serial)]), Buffer.alloc(local - 5, 0x61), Buffer.alloc(4)]);
  cellBytes.writeUInt32BE(PAGES + 1, cellBytes.length - 4);
  const cell = PAGE - cellBytes.length;
  cellBytes.copy(leaf, cell);
  const cells = Math.floor((cell - 8) / 2);
  leaf[0] = 13;
  leaf.writeUInt16BE(cells, 3);
  leaf.writeUInt16BE(cell, 5);
  for (let i = 0; i < cells; i++) leaf.writeUInt16BE(cell, 8 + 2 * i);
  const db = SqliteDatabase.open(bytesOf(b));
  const rows = [...db.rows('messages')];
  const shared = rows.filter((r) => r.rowid === 100);
  assert.ok(shared.length > 0, 'the crafted cell reads');
  assert.equal(shared[0]!.session_id, 'a'.repeat(text), 'its value whole, from the overflow chain');
  assert.ok(shared.length < cells, `${shared.length} of ${cells} copies decoded`);
  assert.ok(db.warnings.some((w) => /^stopped reading after \d+ MB of decoding/.test(w)), db.warnings.join('; '));
});

test('an index whose interior cells all point at one leaf: each message once, with a warning', () => {
  // Page 7 is idx_messages_session's root (a leaf in the fixture's sqlite_schema): it moves to a new page 34, and
  // page 7 becomes an interior index page whose 1,000 cells all name it, each carrying the leaf's first entry.
  const INDEX_ROOT = 7;
  const leafCopy = Buffer.from(page(REAL, INDEX_ROOT));
  assert.equal(leafCopy[0], 10, 'the fixture keeps idx_messages_session in one leaf');
  const b = Buffer.concat([REAL, leafCopy]);
  const root = page(b, INDEX_ROOT);
  // An entry of the session looked up, the index's last key (short: a one-byte size varint): the leaf holds nothing
  // past it, so the lookup goes on through every cell.
  const entries = Array.from({ length: leafCopy.readUInt16BE(3) }, (_, i) => leafCopy.readUInt16BE(8 + 2 * i));
  const first = entries.find((at) => decodeRecord(leafCopy.subarray(at + 1, at + 1 + leafCopy[at]!), (x) => Buffer.from(x).toString())[0] === '20251202_1')!;
  const payload = leafCopy[first]!;
  const cellBytes = Buffer.concat([Buffer.alloc(4), leafCopy.subarray(first, first + 1 + payload)]);
  cellBytes.writeUInt32BE(PAGES + 1, 0);
  root.fill(0);
  const cell = PAGE - cellBytes.length;
  cellBytes.copy(root, cell);
  const cells = 1000;
  root[0] = 2;
  root.writeUInt16BE(cells, 3);
  root.writeUInt16BE(cell, 5);
  root.writeUInt32BE(PAGES + 1, 8);
  for (let i = 0; i < cells; i++) root.writeUInt16BE(cell, 12 + 2 * i);
  const db = SqliteDatabase.open(bytesOf(b));
  const rows = db.rowsWhere('messages', 'session_id', '20251202_1');
  assert.equal(rows.length, 20, 'the session\'s 20 messages, once each');
  assert.equal(new Set(rows.map((r) => r.rowid)).size, 20);
  assert.ok(db.warnings.some((w) => /an index b-tree reaches a page more than once/.test(w)), db.warnings.join('; '));
});
