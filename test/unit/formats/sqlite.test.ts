// The pure-TypeScript SQLite reader on databases real programs wrote: OpenCode's opencode.db with its WAL, and a
// sessions.db in Goose's schema; damaged files give one-line errors.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { SqliteDatabase } from '../../../src/core/read/sqlite/database';
import { indexColumns, tableColumns } from '../../../src/core/read/sqlite/schema';
import { nodeFs } from '../../../src/node/documentSessions';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const DB = path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db');
const EXPORT = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'opencode', 'export-1.18.33.json'), 'utf8'));
/** `wal` null: the database file alone. */
const open = (db: string, wal: string | null = `${db}-wal`): SqliteDatabase => SqliteDatabase.open(nodeFs.open(db)!, wal ? nodeFs.open(wal) : undefined);

test('opencode.db with its WAL holds exactly the session `opencode export` printed', () => {
  const d = open(DB);
  const sessions = [...d.rows('session')];
  assert.deepEqual(sessions.map((s) => s.id), [EXPORT.info.id]);
  const messages = d.rowsWhere('message', 'session_id', EXPORT.info.id);
  assert.deepEqual(messages.map((m) => m.id).sort(), EXPORT.messages.map((m: any) => m.info.id).sort());
  const parts = d.rowsWhere('part', 'session_id', EXPORT.info.id);
  assert.equal(parts.length, EXPORT.messages.reduce((n: number, m: any) => n + m.parts.length, 0));
  // Values decode to what OpenCode stored: a part's JSON data, its text, the session's real-valued cost.
  const tool = EXPORT.messages.flatMap((m: any) => m.parts).find((p: any) => p.type === 'tool' && p.state.output.length > 10_000);
  const row = parts.find((p) => p.id === tool.id)!;
  assert.equal(JSON.parse(String(row.data)).state.output, tool.state.output, 'a value spread over overflow pages reads whole');
  assert.equal(sessions[0]!.cost, EXPORT.info.cost);
  // The index lookup and a full scan agree.
  assert.deepEqual(parts.map((p) => p.id).sort(), [...d.rows('part')].filter((p) => p.session_id === EXPORT.info.id).map((p) => p.id).sort());
});

test('committed WAL frames win over the database file: the copy OpenCode touched last is read', () => {
  // OpenCode updated its project row after the session's last change; only the WAL has that newest copy.
  const updated = (d: SqliteDatabase, table: string): number => Number([...d.rows(table)][0]!.time_updated);
  const withWal = open(DB);
  const fileOnly = open(DB, null);
  assert.ok(updated(withWal, 'project') >= updated(withWal, 'session'), 'with the WAL: the project was touched last');
  assert.ok(updated(fileOnly, 'project') < updated(withWal, 'project'), 'the database file alone has an older copy of that page');
});

test('schema parsing: quoted names, constraints, an INTEGER PRIMARY KEY alias, index columns', () => {
  const t = tableColumns('CREATE TABLE `m` (\n `id` integer PRIMARY KEY AUTOINCREMENT, "a b" text, [c] int DEFAULT (1), CONSTRAINT fk FOREIGN KEY (c) REFERENCES x(y))');
  assert.deepEqual(t, { columns: ['id', 'a b', 'c'], rowidColumn: 0, withoutRowid: false });
  assert.equal(tableColumns('CREATE TABLE t (k TEXT PRIMARY KEY, v) WITHOUT ROWID')!.withoutRowid, true);
  assert.deepEqual(indexColumns('CREATE INDEX `i` ON `part` (`session_id`, time_created DESC)'), ['session_id', 'time_created']);
});

test('an INTEGER PRIMARY KEY column reads as the rowid (Goose messages.id)', () => {
  const d = open(path.join(FIXTURES, 'goose', 'sessions.db'), null);
  const rows = d.rowsWhere('messages', 'session_id', '20251201_1');
  assert.equal(rows.length, 14);
  assert.deepEqual(rows.map((r) => r.id), rows.map((r) => r.rowid));
  assert.ok(rows.every((r) => typeof r.id === 'number' && r.id > 0));
});

test('damaged databases fail with one line', (t) => {
  const dir = tmpDir(t);
  const bytes = fs.readFileSync(path.join(FIXTURES, 'goose', 'sessions.db'));
  const cases: [string, Buffer, RegExp][] = [
    ['not SQLite', Buffer.from('hello world'.repeat(100)), /not a SQLite database/],
    ['bad page size', Buffer.concat([bytes.subarray(0, 16), Buffer.from([0, 3]), bytes.subarray(18)]), /page size/],
    ['truncated', bytes.subarray(0, 4096 + 100), /out of range|truncated|not a b-tree/],
  ];
  for (const [name, data, re] of cases) {
    const file = path.join(dir, `${name}.db`);
    fs.writeFileSync(file, data);
    assert.throws(() => { const d = open(file, null); for (const _ of d.rows('messages')) { /* read all */ } }, (e: Error) => re.test(e.message) && !e.message.includes('\n'), name);
  }
});
