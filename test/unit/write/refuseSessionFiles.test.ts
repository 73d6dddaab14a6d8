// Every write refuses every file of the input session (a task's members and folder, a store's database and its
// -wal/-shm/-journal, an OpenCode storage tree), by any path: exit 2, one line, every byte of the input unchanged.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { sessionFiles } from '../../../src/node/write/sessionFiles';
import { assertOneLineFailure, cliInProcess, sha256 } from '../../support/cliProcess';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL_CLINE = path.join(FIXTURES, 'real', 'cline', 'online-card-3.51.0-vscode');
const CLI_CLINE = path.join(FIXTURES, 'cline', 'cli-2.18.0-4turns', 'tasks', '1796291786979');
const GOOSE_STORE = path.join(FIXTURES, 'goose', 'sessions-1.37.0');
const GOOSE_ID = '20261203_1';
const OPENCODE_DB = path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db');
const OPENCODE_STORAGE = path.join(FIXTURES, 'opencode', 'storage-1.1.65');
const OPENCODE_SESSION = path.join('session', 'd1975c55b47a7f13ccb02d610bd3485f333138e9', 'ses_dc49ba276ffe6O5BcCqDG8JqpD.json');

/** Every file under dir with its checksum (names sorted): what "nothing changed" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })).sort()) {
    const p = path.join(dir, rel);
    const st = fs.lstatSync(p);
    out[rel] = st.isFile() ? sha256(p) : st.isSymbolicLink() ? `-> ${fs.readlinkSync(p)}` : 'folder';
  }
  return out;
}

/** A copy of `source` (a folder, or files) in a fresh temporary folder. */
function copyOf(t: TestContext, source: string, name = path.basename(source)): { root: string; at: string } {
  const root = tmpDir(t);
  const at = path.join(root, name);
  fs.cpSync(source, at, { recursive: true });
  return { root, at };
}

const REFUSED = /^context-compactor: refusing to (overwrite the original transcript|write the new session into)/;

async function refuses(root: string, ...args: string[]): Promise<void> {
  const before = snapshot(root);
  assertOneLineFailure(await cliInProcess({}, ...args), REFUSED);
  assert.deepEqual(snapshot(root), before, `${args.join(' ')} changed the input folder`);
}

for (const [name, source] of [['real Cline 3.51 task', REAL_CLINE], ['Cline CLI 2.18 task', CLI_CLINE]] as const) {
  test(`${name}: compact TASK --out TASK, through a symlinked alias, or as TASK/ is refused; nothing changed`, async (t) => {
    const { root, at } = copyOf(t, source, 'task');
    fs.symlinkSync(at, path.join(root, 'alias'));
    await refuses(root, 'compact', at, '--out', at);
    await refuses(root, 'compact', at, '--out', path.join(root, 'alias'));
    await refuses(root, 'compact', path.join(at, 'api_conversation_history.json'), '--out', `${at}${path.sep}`);
    await refuses(root, 'compact', path.join(root, 'alias'), '--out', at);
  });
}

test('Cline: eval --markdown on a member, or a hard link to a member is refused', async (t) => {
  const { root, at } = copyOf(t, REAL_CLINE, 'task');
  const hard = path.join(root, 'report.md');
  fs.linkSync(path.join(at, 'ui_messages.json'), hard);
  await refuses(root, 'eval', at, '--strategies', 'cleanup', '--jobs', '1', '--markdown', path.join(at, 'api_conversation_history.json'));
  await refuses(root, 'eval', at, '--strategies', 'cleanup', '--jobs', '1', '--markdown', hard);
});

test('Goose: compact db#id --out the database, its -wal, a missing -shm / -journal, a hard link or an alias of them: refused', async (t) => {
  const { root, at } = copyOf(t, GOOSE_STORE, 'store');
  const db = path.join(at, 'sessions.db');
  fs.symlinkSync(at, path.join(root, 'alias'));
  fs.linkSync(`${db}-wal`, path.join(root, 'hard.jsonl'));
  const input = `${db}#${GOOSE_ID}`;
  for (const out of [db, `${db}-wal`, `${db}-shm`, `${db}-journal`, path.join(root, 'alias', 'sessions.db-shm'), path.join(root, 'alias', 'sessions.db'), path.join(root, 'hard.jsonl')]) {
    await refuses(root, 'compact', input, '--out', out);
  }
  assert.deepEqual(fs.readdirSync(at).sort(), ['sessions.db', 'sessions.db-wal'], 'no -shm or -journal was created');
});

test('Goose: eval DIR --markdown DIR/sessions.db (or its -wal) is refused; the store stays a database', async (t) => {
  const { root, at } = copyOf(t, GOOSE_STORE, 'store');
  for (const out of ['sessions.db', 'sessions.db-wal', 'sessions.db-shm']) {
    await refuses(root, 'eval', at, '--strategies', 'cleanup', '--jobs', '1', '--markdown', path.join(at, out));
  }
  assert.equal(fs.readFileSync(path.join(at, 'sessions.db')).subarray(0, 15).toString(), 'SQLite format 3');
});

test('OpenCode: compact opencode.db --out its -wal, -shm or the database itself, export --out its -wal: refused; the WAL keeps its bytes', async (t) => {
  const root = tmpDir(t);
  const db = path.join(root, path.basename(OPENCODE_DB));
  fs.copyFileSync(OPENCODE_DB, db);
  fs.copyFileSync(`${OPENCODE_DB}-wal`, `${db}-wal`);
  for (const out of [`${db}-wal`, `${db}-shm`, db]) await refuses(root, 'compact', db, '--out', out);
  await refuses(root, 'export', db, '--markdown', '--out', `${db}-wal`);
});

test('OpenCode storage tree: --out one of the session\'s message or part files is refused', async (t) => {
  const { root, at } = copyOf(t, OPENCODE_STORAGE, 'storage');
  const session = path.join(at, OPENCODE_SESSION);
  const members = sessionFiles(session);
  const message = members.find((f) => f.includes(`${path.sep}message${path.sep}`));
  const part = members.find((f) => f.includes(`${path.sep}part${path.sep}`));
  assert.ok(message && part, 'the session lists its message and part files');
  for (const out of [session, message, part]) await refuses(root, 'compact', session, '--out', out);
});

test('sessionFiles names a task\'s members and folder, and a database\'s companions whether they exist or not', (t) => {
  const { at } = copyOf(t, REAL_CLINE, 'task');
  const task = sessionFiles(path.join(at, 'ui_messages.json')).map((f) => path.relative(at, f)).sort();
  assert.deepEqual(task, ['', 'api_conversation_history.json', 'task_metadata.json', 'ui_messages.json']);
  const db = path.join(GOOSE_STORE, 'sessions.db');
  assert.deepEqual(sessionFiles(`${db}#${GOOSE_ID}`).sort(), [db, `${db}-journal`, `${db}-shm`, `${db}-wal`].sort());
});

test('writes the refuse-list does not concern still go through: a new session beside the task, into the store folder', async (t) => {
  const { at } = copyOf(t, GOOSE_STORE, 'store');
  const out = path.join(at, 'compacted.json');
  const r = await cliInProcess({}, 'compact', `${path.join(at, 'sessions.db')}#${GOOSE_ID}`, '--out', out, '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.ok(fs.statSync(out).size > 0);
  const cline = copyOf(t, REAL_CLINE, 'task');
  const r2 = await cliInProcess({}, 'compact', cline.at, '--out', path.join(cline.root, 'new-task'), '--json');
  assert.equal(r2.code, 0, r2.stderr);
  assert.ok(fs.existsSync(path.join(cline.root, 'new-task', 'api_conversation_history.json')));
});
