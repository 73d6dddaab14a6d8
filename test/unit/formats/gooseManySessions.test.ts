// Reading one named session of a Goose store looks it up through the sessions table's primary-key index (SQLite's
// sqlite_autoindex_sessions_1, which has no SQL of its own): listing every session for each one read made reading a
// store's n sessions n² work (`usage` over a 1,000-session store took 25 s, 1.6 s after).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { FileBytes } from '../../../src/core/agents/agent';
import { goose } from '../../../src/core/formats/goose/agent';
import { SqliteDatabase } from '../../../src/core/read/sqlite/database';
import { tableColumns } from '../../../src/core/read/sqlite/schema';
import { FIXTURES } from '../../support/fixtures';

/** 400 sessions added to the hand-made sessions.db by Python's sqlite3 (see test/fixtures/goose/README.md). */
const DB = fs.readFileSync(path.join(FIXTURES, 'goose', 'many-sessions', 'sessions.db'));
const PAGE = DB.readUInt16BE(16);

/** The file's bytes, remembering which pages were read. */
function counted(): { bytes: FileBytes; pages: Set<number> } {
  const pages = new Set<number>();
  const bytes: FileBytes = {
    size: DB.length,
    read: (o, n) => {
      for (let p = Math.floor(o / PAGE); p * PAGE < o + n; p++) pages.add(p);
      return DB.subarray(o, o + n);
    },
  };
  return { bytes, pages };
}

test('a named session of a 400-session Goose store is read without scanning the sessions table', () => {
  const scan = counted();
  const all = [...SqliteDatabase.open(scan.bytes).rows('sessions')];
  assert.equal(all.length, 402);
  const one = counted();
  assert.equal(goose.reading.kind, 'document');
  if (goose.reading.kind !== 'document') return;
  const session = goose.reading.parse([{ path: '/x/sessions.db', text: '', bytes: one.bytes }], { keepRaw: false, path: '/x/sessions.db#20251203_377' });
  assert.ok(session.messages.some((m) => JSON.stringify(m).includes('hello 376')), 'the session named, with its message');
  assert.ok(one.pages.size < scan.pages.size, `one session read ${one.pages.size} pages; the sessions table alone is ${scan.pages.size}`);
});

test('the automatic index is used only when one column is the table\'s one PRIMARY KEY or UNIQUE', () => {
  assert.equal(tableColumns("CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL)")?.autoIndexColumn, 'id');
  assert.equal(tableColumns('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE)')?.autoIndexColumn, 'b');
  assert.equal(tableColumns('CREATE TABLE t (a TEXT UNIQUE, b TEXT UNIQUE)')?.autoIndexColumn, undefined);
  assert.equal(tableColumns('CREATE TABLE t (a TEXT, b TEXT, PRIMARY KEY (a, b))')?.autoIndexColumn, undefined);
  assert.equal(tableColumns("CREATE TABLE t (a TEXT DEFAULT 'unique', b TEXT)")?.autoIndexColumn, undefined);
  assert.equal(tableColumns('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)')?.autoIndexColumn, undefined);
});
