// A read-only SQLite reader in pure TypeScript: tables scanned or looked up through an index, pages read on demand
// from the database file and its write-ahead log. No native build, no WASM; enough for agents that keep their
// sessions in SQLite (OpenCode's opencode.db, Goose's sessions.db).
import type { FileBytes } from '../../agents/agent';
import {
  decodeRecord, localPayload, pageHeader, readUint, readVarint, PAGE_INTERIOR_INDEX, PAGE_INTERIOR_TABLE, PAGE_LEAF_INDEX, PAGE_LEAF_TABLE,
  type SqlValue,
} from './record';
import { ReadBudget } from './budget';
import { indexColumns, tableColumns, type TableColumns } from './schema';
import { readWal, type WalPages } from './wal';

export type { SqlValue } from './record';
export type Row = Readonly<Record<string, SqlValue>> & { readonly rowid: number };

interface Table extends TableColumns { readonly name: string; readonly root: number }
interface Index { readonly name: string; readonly table: string; readonly root: number; readonly columns: string[] }

const MAX_DEPTH = 40;
const CACHE_PAGES = 2048;

export class SqliteDatabase {
  private readonly cache = new Map<number, Uint8Array>();
  private readonly tables = new Map<string, Table>();
  private readonly indexes: Index[] = [];
  private readonly decode: (bytes: Uint8Array) => string;
  private readonly pageCount: number;
  private readonly budget: ReadBudget;

  private constructor(private readonly db: FileBytes, private readonly wal: WalPages, private readonly walFile: FileBytes | undefined,
    readonly pageSize: number, private readonly usable: number, encoding: number) {
    const decoder = new TextDecoder(encoding === 2 ? 'utf-16le' : encoding === 3 ? 'utf-16be' : 'utf-8');
    this.decode = (b) => decoder.decode(b);
    // The page count a WAL commit claims is trusted only as far as the files hold pages: past the database file's
    // end, a page exists only as a WAL frame.
    const filePages = Math.floor(db.size / pageSize);
    let walTop = 0;
    for (const n of wal.pages.keys()) walTop = Math.max(walTop, n);
    const onDisk = Math.max(filePages, walTop);
    const claimed = wal.dbPages || filePages;
    this.pageCount = Math.min(claimed, onDisk);
    this.budget = new ReadBudget(db.size + (walFile?.size ?? 0), this.pageCount, pageSize);
    if (claimed > onDisk) this.budget.warn(`the WAL claims ${claimed} pages, the files hold ${onDisk}: read as ${onDisk}`);
    const autoIndexes: { name: string; table: string; root: number }[] = [];
    for (const row of this.scanRoot(1, ['type', 'name', 'tbl_name', 'rootpage', 'sql'])) {
      const sql = typeof row.sql === 'string' ? row.sql : '';
      const root = typeof row.rootpage === 'number' ? row.rootpage : 0;
      if (row.type === 'table' && sql && root > 0) {
        const cols = tableColumns(sql);
        if (cols) this.tables.set(String(row.name), { name: String(row.name), root, ...cols });
      } else if (row.type === 'index' && sql && root > 0) {
        this.indexes.push({ name: String(row.name), table: String(row.tbl_name), root, columns: indexColumns(sql) });
      } else if (row.type === 'index' && root > 0 && row.name === `sqlite_autoindex_${String(row.tbl_name)}_1`) {
        // A PRIMARY KEY / UNIQUE column's index: without it each Goose session read scanned every session (n²).
        autoIndexes.push({ name: row.name, table: String(row.tbl_name), root });
      }
    }
    for (const a of autoIndexes) {
      const column = this.tables.get(a.table)?.autoIndexColumn;
      if (column !== undefined) this.indexes.push({ ...a, columns: [column] });
    }
  }

  /** Opens a database (and its WAL, when one exists beside it); throws a one-line Error when it is not SQLite. */
  static open(db: FileBytes, wal?: FileBytes): SqliteDatabase {
    if (db.size < 512) throw new Error('not a SQLite database (too small)');
    const h = db.read(0, 100);
    if (new TextDecoder().decode(h.subarray(0, 15)) !== 'SQLite format 3') throw new Error('not a SQLite database');
    const raw = readUint(h, 16, 2);
    const pageSize = raw === 1 ? 65536 : raw;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new Error(`bad SQLite page size ${raw}`);
    // SQLite requires at least 480 usable bytes a page; fewer would make the payload arithmetic meaningless.
    if (pageSize - h[20]! < 480) throw new Error(`bad SQLite reserved space ${h[20]}`);
    return new SqliteDatabase(db, readWal(wal, pageSize), wal, pageSize, pageSize - h[20]!, readUint(h, 56, 4));
  }

  /** What reading skipped or cut short (a damaged file): one line each, for the session's warnings. */
  get warnings(): readonly string[] {
    return this.budget.warnings;
  }

  hasTable(name: string): boolean {
    return this.tables.has(name);
  }

  /** Column names of a table ([] when there is no such table). */
  columns(name: string): readonly string[] {
    return this.tables.get(name)?.columns ?? [];
  }

  /** Every row of a table, in rowid order. */
  *rows(name: string): Generator<Row> {
    const t = this.table(name);
    yield* this.scanRoot(t.root, t.columns, t.rowidColumn, name);
  }

  /** The rows whose `column` equals `value`, through an index that starts with that column when there is one. */
  rowsWhere(name: string, column: string, value: string): Row[] {
    const t = this.table(name);
    const index = this.indexes.find((i) => i.table === name && i.columns[0] === column);
    if (!index) return [...this.rows(name)].filter((r) => r[column] === value);
    const out: Row[] = [];
    for (const rowid of this.indexLookup(index.root, value)) {
      if (this.budget.exhausted || !this.budget.row()) break;
      try {
        const row = this.rowById(t, rowid);
        if (row && row[column] === value) out.push(row);
      } catch (e) {
        this.badRow(name, e);
      }
    }
    return out;
  }

  private table(name: string): Table {
    const t = this.tables.get(name);
    if (!t) throw new Error(`no table ${name}`);
    if (t.withoutRowid) throw new Error(`table ${name} is WITHOUT ROWID, which is not read`);
    return t;
  }

  private page(n: number): Uint8Array {
    if (!Number.isInteger(n) || n < 1 || n > this.pageCount) throw new Error(`page ${n} is out of range`);
    let p = this.cache.get(n);
    if (!p) {
      const inWal = this.wal.pages.get(n);
      p = inWal !== undefined && this.walFile ? this.walFile.read(inWal, this.pageSize) : this.db.read((n - 1) * this.pageSize, this.pageSize);
      if (p.length < this.pageSize) throw new Error(`page ${n} is truncated`);
      if (this.cache.size >= CACHE_PAGES) this.cache.clear();
      this.cache.set(n, p);
    }
    return p;
  }

  /** A cell's whole payload: its local part plus its overflow chain. */
  private payload(page: Uint8Array, at: number, size: number, table: boolean): Uint8Array {
    const local = localPayload(size, this.usable, table);
    if (at + local > page.length) throw new Error('cell past its page');
    if (local === size) return page.subarray(at, at + size);
    // Never allocate more than the files can hold: each overflow page carries usable − 4 bytes.
    if (size - local > this.pageCount * (this.usable - 4)) throw new Error(`a value of ${size} bytes is larger than the database`);
    if (!this.budget.spend(size)) throw new Error('read budget spent');
    const out = new Uint8Array(size);
    out.set(page.subarray(at, at + local), 0);
    let filled = local;
    let next = readUint(page, at + local, 4);
    const seen = new Set<number>();
    while (filled < size) {
      if (next === 0 || seen.has(next)) throw new Error('broken overflow chain');
      seen.add(next);
      const o = this.page(next);
      const take = Math.min(size - filled, this.usable - 4);
      out.set(o.subarray(4, 4 + take), filled);
      filled += take;
      next = readUint(o, 0, 4);
    }
    return out;
  }

  private row(columns: readonly string[], rowidColumn: number | undefined, rowid: number, payload: Uint8Array): Row {
    const values = decodeRecord(payload, this.decode);
    const row: Record<string, SqlValue> & { rowid: number } = { rowid };
    columns.forEach((c, i) => { row[c] = i === rowidColumn ? rowid : (values[i] ?? null); });
    return row;
  }

  /** One warning per table and reason for a row that could not be decoded (it is skipped). */
  private badRow(table: string, e: unknown): void {
    if (!this.budget.exhausted) this.budget.warn(`rows of ${table} could not be read and were skipped (${(e as Error).message})`);
  }

  private *scanRoot(root: number, columns: readonly string[], rowidColumn?: number, table = 'sqlite_schema'): Generator<Row> {
    const stack: [number, number][] = [[root, 0]];
    // Each page at most once per scan: cells pointing at one child (or back up the tree) would otherwise repeat its
    // rows without end.
    const visited = new Set<number>();
    while (stack.length > 0 && !this.budget.exhausted) {
      const [n, depth] = stack.pop()!;
      if (depth > MAX_DEPTH) throw new Error('b-tree too deep (corrupt database?)');
      if (visited.has(n)) {
        this.budget.warn(`the b-tree of ${table} reaches a page more than once (damaged?); each page was read once`);
        continue;
      }
      visited.add(n);
      if (!this.budget.spend(this.pageSize)) return;
      const page = this.page(n);
      const h = pageHeader(page, n === 1 ? 100 : 0);
      if (h.type === PAGE_INTERIOR_TABLE) {
        // Children pushed right to left, so they are visited in rowid order.
        stack.push([h.right!, depth + 1]);
        for (let i = h.cells - 1; i >= 0; i--) stack.push([readUint(page, readUint(page, h.pointers + 2 * i, 2), 4), depth + 1]);
      } else if (h.type === PAGE_LEAF_TABLE) {
        for (let i = 0; i < h.cells; i++) {
          if (!this.budget.row()) return;
          let row: Row;
          try {
            let at = readUint(page, h.pointers + 2 * i, 2);
            const [size, a] = readVarint(page, at);
            const [rowid, b] = readVarint(page, at + a);
            at += a + b;
            row = this.row(columns, rowidColumn, rowid, this.payload(page, at, size, true));
          } catch (e) {
            if (this.budget.exhausted) return;
            this.badRow(table, e);
            continue;
          }
          yield row;
        }
      } else {
        throw new Error('an index page inside a table b-tree (corrupt database?)');
      }
    }
  }

  private rowById(t: Table, rowid: number): Row | undefined {
    let n = t.root;
    for (let depth = 0; depth <= MAX_DEPTH; depth++) {
      const page = this.page(n);
      const h = pageHeader(page, n === 1 ? 100 : 0);
      if (h.type === PAGE_INTERIOR_TABLE) {
        let child = h.right!;
        for (let i = 0; i < h.cells; i++) {
          const at = readUint(page, h.pointers + 2 * i, 2);
          if (rowid <= readVarint(page, at + 4)[0]) { child = readUint(page, at, 4); break; }
        }
        n = child;
        continue;
      }
      if (h.type !== PAGE_LEAF_TABLE) throw new Error('an index page inside a table b-tree (corrupt database?)');
      for (let i = 0; i < h.cells; i++) {
        let at = readUint(page, h.pointers + 2 * i, 2);
        const [size, a] = readVarint(page, at);
        const [id, b] = readVarint(page, at + a);
        if (id !== rowid) continue;
        at += a + b;
        return this.row(t.columns, t.rowidColumn, rowid, this.payload(page, at, size, true));
      }
      return undefined;
    }
    throw new Error('b-tree too deep (corrupt database?)');
  }

  /** Rowids of the index entries whose first column equals `key` (a text key, compared as SQLite's BINARY collation). */
  private indexLookup(root: number, key: string): number[] {
    const out: number[] = [];
    const want = new TextEncoder().encode(key);
    const cmp = (v: SqlValue | undefined): number => {
      if (typeof v !== 'string') return v instanceof Uint8Array ? 1 : -1; // NULL and numbers sort before text, blobs after
      const b = new TextEncoder().encode(v);
      for (let i = 0; i < Math.min(b.length, want.length); i++) if (b[i] !== want[i]) return b[i]! - want[i]!;
      return b.length - want.length;
    };
    const entry = (page: Uint8Array, at: number): SqlValue[] => {
      const [size, a] = readVarint(page, at);
      return decodeRecord(this.payload(page, at + a, size, false), this.decode);
    };
    // Each rowid once: an index entry's key ends in its rowid, so a sound index never repeats one; a damaged one would
    // make one row many.
    const seen = new Set<number>();
    const emit = (values: SqlValue[]): void => { const r = values[values.length - 1]; if (typeof r === 'number' && !seen.has(r)) { seen.add(r); out.push(r); } };
    // Each page at most once per lookup (see scanRoot).
    const visited = new Set<number>();
    // Returns false once a key past `key` was seen (or the budget is spent): nothing further right can match.
    const visit = (n: number, depth: number): boolean => {
      if (depth > MAX_DEPTH) throw new Error('b-tree too deep (corrupt database?)');
      if (visited.has(n)) {
        this.budget.warn('an index b-tree reaches a page more than once (damaged?); each page was read once');
        return true;
      }
      visited.add(n);
      if (!this.budget.spend(this.pageSize)) return false;
      const page = this.page(n);
      const h = pageHeader(page, n === 1 ? 100 : 0);
      if (h.type === PAGE_LEAF_INDEX) {
        for (let i = 0; i < h.cells; i++) {
          const values = entry(page, readUint(page, h.pointers + 2 * i, 2));
          const c = cmp(values[0]);
          if (c > 0) return false;
          if (c === 0) emit(values);
        }
        return true;
      }
      if (h.type !== PAGE_INTERIOR_INDEX) throw new Error('a table page inside an index b-tree (corrupt database?)');
      for (let i = 0; i < h.cells; i++) {
        const at = readUint(page, h.pointers + 2 * i, 2);
        const values = entry(page, at + 4);
        const c = cmp(values[0]);
        if (c < 0) continue; // everything left of this entry sorts before the key
        if (!visit(readUint(page, at, 4), depth + 1)) return false;
        if (c > 0) return false;
        emit(values);
      }
      return visit(h.right!, depth + 1);
    };
    try {
      visit(root, 0);
    } catch (e) {
      if (!this.budget.exhausted) throw e; // spent: the entries found so far, with the budget's warning
    }
    return out;
  }
}
