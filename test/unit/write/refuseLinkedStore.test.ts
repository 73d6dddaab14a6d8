// A database reached through a symbolic link to the file itself (SQLite resolves it: its -wal and -journal are those
// beside the real file): writes refuse the real file's companions too, not only those beside the link's name.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { sessionFiles } from '../../../src/node/write/sessionFiles';
import { assertOneLineFailure, cliInProcess } from '../../support/cliProcess';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

/** goose/sessions.db keeps its sessions in the main file (no WAL needed), so it reads through a link alone. */
const GOOSE_DB = path.join(FIXTURES, 'goose', 'sessions.db');
const GOOSE_ID = '20251202_1';
const REFUSED = /^context-compactor: refusing to overwrite the original transcript/;

function linkedStore(root: string): { real: string; link: string } {
  fs.mkdirSync(path.join(root, 'store'));
  fs.mkdirSync(path.join(root, 'elsewhere'));
  const real = path.join(root, 'store', 'sessions.db');
  fs.copyFileSync(GOOSE_DB, real);
  fs.writeFileSync(`${real}-wal`, 'the store\'s write-ahead log');
  const link = path.join(root, 'elsewhere', 'sessions.db');
  fs.symlinkSync(real, link);
  return { real, link };
}

test('sessionFiles of a symlinked database names the real file\'s -wal, -shm and -journal', (t) => {
  const { real, link } = linkedStore(tmpDir(t));
  const files = sessionFiles(`${link}#${GOOSE_ID}`);
  const realDir = fs.realpathSync(path.dirname(real));
  for (const c of ['-wal', '-shm', '-journal']) assert.ok(files.includes(path.join(realDir, `sessions.db${c}`)), `${c} of the real file`);
});

test('compact / export / eval through a symlinked database: --out the real file\'s -wal or -journal is refused, nothing changed', async (t) => {
  const root = tmpDir(t);
  const { real, link } = linkedStore(root);
  const input = `${link}#${GOOSE_ID}`;
  const runs: string[][] = [
    ['compact', input, '--out', `${real}-wal`],
    ['compact', input, '--out', `${real}-journal`],
    ['export', input, '--markdown', '--out', `${real}-wal`],
    ['eval', path.dirname(link), '--strategies', 'cleanup', '--jobs', '1', '--markdown', `${real}-wal`],
  ];
  for (const args of runs) {
    assertOneLineFailure(await cliInProcess({}, ...args), REFUSED);
    assert.equal(fs.readFileSync(`${real}-wal`, 'utf8'), 'the store\'s write-ahead log', args.join(' '));
    assert.ok(!fs.existsSync(`${real}-journal`), `${args.join(' ')} created a -journal`);
  }
});

test('compact TASK --out a hard link to one of its members: refused, named as a file of the session (not its folder)', async (t) => {
  const root = tmpDir(t);
  const task = path.join(root, 'task');
  fs.cpSync(path.join(FIXTURES, 'cline', 'cli-2.18.0-4turns', 'tasks', '1796291786979'), task, { recursive: true });
  const hard = path.join(root, 'out');
  fs.linkSync(path.join(task, 'ui_messages.json'), hard);
  const before = fs.readFileSync(hard);
  const r = await cliInProcess({}, 'compact', task, '--out', hard);
  assertOneLineFailure(r, /^context-compactor: refusing to write the new session into .*ui_messages\.json, a file of the session read/);
  assert.deepEqual(fs.readFileSync(path.join(task, 'ui_messages.json')), before);
});
