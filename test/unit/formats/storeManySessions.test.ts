// Reading one named session of a Goose or OpenCode store looks it up through the session table's primary-key index
// (SQLite's sqlite_autoindex_<table>_1, which has no SQL of its own): listing every session for each one read made
// reading a store's n sessions n² work (`usage` over a 1,000-session store: Goose 25 s → 1.6 s, OpenCode 27 s → 1.9 s).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { FileBytes } from '../../../src/core/agents/agent';
import { goose } from '../../../src/core/formats/goose/agent';
import { opencode } from '../../../src/core/formats/opencode/agent';
import { SqliteDatabase } from '../../../src/core/read/sqlite/database';
import { tableColumns } from '../../../src/core/read/sqlite/schema';
import { FIXTURES } from '../../support/fixtures';

/** 400 sessions added to the hand-made sessions.db by Python's sqlite3 (see test/fixtures/goose/README.md). */
const DB = fs.readFileSync(path.join(FIXTURES, 'goose', 'many-sessions', 'sessions.db'));
/** The real OpenCode 1.18.33 store plus 300 copies of its session row (see test/fixtures/opencode/README.md). */
const OC_DB = fs.readFileSync(path.join(FIXTURES, 'opencode', 'many-sessions', 'opencode.db'));

/** The file's bytes, remembering which pages were read. */
function counted(DB: Buffer): { bytes: FileBytes; pages: Set<number> } {
  const PAGE = DB.readUInt16BE(16);
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
  const scan = counted(DB);
  const all = [...SqliteDatabase.open(scan.bytes).rows('sessions')];
  assert.equal(all.length, 402);
  const one = counted(DB);
  assert.equal(goose.reading.kind, 'document');
  if (goose.reading.kind !== 'document') return;
  const session = goose.reading.parse([{ path: '/x/sessions.db', text: '', bytes: one.bytes }], { keepRaw: false, path: '/x/sessions.db#20251203_377' });
  assert.ok(session.messages.some((m) => JSON.stringify(m).includes('hello 376')), 'the session named, with its message');
  assert.ok(one.pages.size < scan.pages.size, `one session read ${one.pages.size} pages; the sessions table alone is ${scan.pages.size}`);
});

test('a named session of a 301-session OpenCode store is read without scanning the session table', () => {
  const scan = counted(OC_DB);
  assert.equal([...SqliteDatabase.open(scan.bytes).rows('session')].length, 301);
  const one = counted(OC_DB);
  assert.equal(opencode.reading.kind, 'document');
  if (opencode.reading.kind !== 'document') return;
  const session = opencode.reading.parse([{ path: '/x/opencode.db', text: '', bytes: one.bytes }], { keepRaw: false, path: '/x/opencode.db#ses_dc49ba2e2ffe9iG509fRmhaJGA' });
  assert.ok(session.messages.length > 0, 'the real session, with its messages');
  assert.ok(one.pages.size < scan.pages.size, `one session read ${one.pages.size} pages; the session table alone is ${scan.pages.size}`);
});

test('the automatic index is used only when one column is the table\'s one PRIMARY KEY or UNIQUE', () => {
  assert.equal(tableColumns("CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL)")?.autoIndexColumn, 'id');
  assert.equal(tableColumns('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT UNIQUE)')?.autoIndexColumn, 'b');
  assert.equal(tableColumns('CREATE TABLE t (a TEXT UNIQUE, b TEXT UNIQUE)')?.autoIndexColumn, undefined);
  assert.equal(tableColumns('CREATE TABLE t (a TEXT, b TEXT, PRIMARY KEY (a, b))')?.autoIndexColumn, undefined);
  assert.equal(tableColumns("CREATE TABLE t (a TEXT DEFAULT 'unique', b TEXT)")?.autoIndexColumn, undefined);
  assert.equal(tableColumns('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)')?.autoIndexColumn, undefined);
  // OpenCode's tables: a FOREIGN KEY constraint makes no index of its own.
  assert.equal(tableColumns('CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, CONSTRAINT `fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE)')?.autoIndexColumn, 'id');
  assert.equal(tableColumns('CREATE TABLE t (a TEXT PRIMARY KEY, b TEXT, CONSTRAINT u UNIQUE (b))')?.autoIndexColumn, undefined);
});
