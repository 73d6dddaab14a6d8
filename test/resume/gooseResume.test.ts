// The real Goose CLI (npm @aaif/goose-binary-*), offline against a loopback Messages API, imports and continues our
// compacted session: the original is Goose's own sessions.db, compacted from <db>#<id>, the copy `goose session import`ed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SqliteDatabase } from '../../src/core/read/sqlite/database';
import { nodeFs } from '../../src/node/documentSessions';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import { FIXTURES } from '../support/fixtures';
import { describeRun, gooseLoopbackHome, NEW_PROMPT } from './harness';
import { KEY, pickFacts, resumeSuite, type Located } from './resumeSuite';
import { messagesApi } from './wire';

const DIR = path.join(FIXTURES, 'goose', 'sessions-1.37.0');
const DB = path.join(DIR, 'sessions.db');
type Obj = Record<string, any>;
const exported = (): Obj => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'goose', 'export-1.37.0.json'), 'utf8'));
const SESSION = exported().id as string;

/** The original session's message rows (Goose writes other sessions and its own bookkeeping into the same file). */
function fingerprint(file: string): string {
  const db = file.includes('#') ? file.slice(0, file.lastIndexOf('#')) : file;
  const d = SqliteDatabase.open(nodeFs.open(db)!, nodeFs.open(`${db}-wal`));
  const rows = d.rowsWhere('messages', 'session_id', SESSION).sort((a, b) => a.rowid - b.rowid).map((r) => [r.message_id, r.role, r.content_json]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

const text = (r: Obj): string => (r.status === 'success' ? (r.value?.content ?? []).map((c: Obj) => c.text ?? '').join('') : String(r.error ?? ''));

/** Tool requests and responses of a Goose import/export JSON file. */
function toolIds(file: string): { calls: string[]; results: string[] } {
  const items = (JSON.parse(fs.readFileSync(file, 'utf8')).conversation as Obj[]).flatMap((m) => m.content as Obj[]);
  return { calls: items.filter((c) => c.type === 'toolRequest').map((c) => c.id), results: items.filter((c) => c.type === 'toolResponse').map((c) => c.id) };
}

resumeSuite({
  agent: 'goose',
  title: 'Goose imports and continues a compacted session (real CLI, loopback API)',
  fixture: DB,
  unit: 'messages',
  startFake: startFakeAnthropic,
  fingerprint,
  facts: () => {
    const prompts: Located[] = [];
    const results: (Located & { id: string })[] = [];
    (exported().conversation as Obj[]).forEach((m, at) => {
      for (const c of m.content as Obj[]) {
        if (m.role === 'user' && c.type === 'text') prompts.push({ at, text: c.text });
        if (c.type === 'toolResponse' && c.toolResult?.status === 'success') results.push({ at, id: c.id, text: text(c.toolResult) });
      }
    });
    return pickFacts(SESSION, prompts, results);
  },
  prepare: (root, fake) => {
    const { cwd, home, env } = gooseLoopbackHome(root, fake.url, KEY);
    const sessions = path.join(home, '.local', 'share', 'goose', 'sessions');
    fs.mkdirSync(sessions, { recursive: true });
    // The store as Goose left it, where a user's sessions are.
    for (const f of fs.readdirSync(DIR)) fs.copyFileSync(path.join(DIR, f), path.join(sessions, f));
    return { env, cwd, stored: `${path.join(sessions, 'sessions.db')}#${SESSION}` };
  },
  // Beside the database, as the JSON `goose session import` reads.
  expectedOutput: (report) => path.join(path.dirname(report.input.replace(/#[^#]*$/, '')), `goose-${report.sessionId}.json`),
  beforeResume: async (report, run) => {
    assert.match(report.resumeCommand, /^goose session import .+ && goose session --resume$/);
    const imported = await run(['session', 'import', report.output!]);
    assert.equal(imported.code, 0, describeRun(imported));
    const id = /^Session imported:\s*\n(\S+) - /m.exec(imported.stdout)?.[1];
    assert.ok(id && id !== SESSION, `import named no new session: ${imported.stdout}`);
    const listed = await run(['session', 'list']);
    assert.ok(listed.stdout.includes(`${id} - `), `Goose does not list the compacted session: ${listed.stdout}`);
    return id;
  },
  resumeArgs: (id) => ['run', '--with-builtin', 'developer', '--resume', '--session-id', id, '-t', NEW_PROMPT],
  ...messagesApi,
  fileToolIds: toolIds,
});
