// Crush sessions: a real public .crush/crush.db (+ WAL) committed by a project (Crush of September 2025), and a
// hand-made database in the current schema (Crush's summary message, a sub-agent session); discovery through
// projects.json; a compacted session is a Markdown handoff.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { crushData } from '../../../src/core/formats/crush/agent';
import { agentModule } from '../../../src/core/formats/registry';
import { stateFromSession } from '../../../src/core/usage/rows';
import { documentSession, nodeFs } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'crush', 'chex-mix-timer', '.crush', 'crush.db');
const HAND = path.join(FIXTURES, 'crush', 'handmade', '.crush', 'crush.db');
const crush = agentModule('crush');
/** What sqlite3 itself reads from a copy of the database (the fixture is never opened by SQLite: it would checkpoint). */
function sqlite(db: string, t: import('node:test').TestContext, sql: string): string {
  const dir = tmpDir(t);
  for (const f of fs.readdirSync(path.dirname(db)).filter((f) => f.startsWith('crush.db'))) fs.copyFileSync(path.join(path.dirname(db), f), path.join(dir, f));
  return execFileSync('sqlite3', [path.join(dir, 'crush.db'), sql], { encoding: 'utf8' }).trim();
}

test('real crush.db: every message row in order, calls paired with their results, the project as cwd', async (t) => {
  const { session } = await readTranscriptFile(REAL);
  assert.equal(session.format, 'crush');
  assert.equal(session.id, '1c9c4c9c-6cdf-4c79-aed5-99c25ca9b8ec');
  assert.equal(session.title, 'Unsubscribe Push Notifications Button');
  assert.equal(session.cwd, path.dirname(path.dirname(REAL)));
  assert.deepEqual(session.models, ['openrouter/sonoma-sky-alpha']);
  assert.deepEqual(session.warnings, []);
  assert.equal(session.messages.length, Number(sqlite(REAL, t, 'select count(*) from messages')));
  const blocks = session.messages.flatMap((m) => m.blocks);
  const calls = blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : []));
  assert.equal(calls.length, Number(sqlite(REAL, t, "select count(*) from messages, json_each(messages.parts) where json_extract(value, '$.type') = 'tool_call'")));
  assert.deepEqual(blocks.flatMap((b) => (b.type === 'tool_result' ? [b.id] : [])).sort(), [...calls].sort());
  for (const m of session.messages) if (m.toolResultsOnly) assert.equal(m.role, 'user');
  // Crush's last request: prompt tokens (input and cache reads) as recorded on the session row.
  assert.equal(session.recordedContext, 140580);
  // No message holds usage: the spend is estimated per reply.
  const state = stateFromSession(session);
  assert.ok(state.estimated && state.rows.size === session.messages.filter((m) => m.role === 'assistant').length);
});

test("hand-made current schema: from Crush's summary message on, as the user's; sub-agent sessions not listed", async () => {
  const { session } = await readTranscriptFile(HAND);
  assert.equal(session.title, 'Fix the coupon total');
  const first = session.messages[0]!;
  assert.equal(first.role, 'user');
  assert.equal(first.blocks[0]!.type, 'summary');
  assert.match(session.warnings.join('\n'), /4 message\(s\) before Crush's latest summary/);
  assert.match(session.warnings.join('\n'), /the database holds 2 sessions; this is the newest/);
  const blocks = session.messages.flatMap((m) => m.blocks);
  assert.ok(!blocks.some((b) => b.type === 'tool_result' && b.text.includes('request=1005')), 'the log read before the summary is not sent');
  assert.ok(blocks.some((b) => b.type === 'tool_result' && b.isError && b.text.includes('file not found')));
  assert.deepEqual(blocks.flatMap((b) => (b.type === 'tool_call' ? [b.name] : [])), ['view', 'agent', 'edit']);
  const listed = crush.reading.kind === 'document' ? crush.reading.sessionsUnder(path.dirname(path.dirname(HAND)), nodeFs) : [];
  assert.deepEqual(listed.map((p) => p.split('#')[1]), ['0a1b2c3d-0000-4000-8000-000000000002', '0a1b2c3d-0000-4000-8000-000000000001']);
  const old = (await readTranscriptFile(`${HAND}#0a1b2c3d-0000-4000-8000-000000000001`)).session;
  assert.equal(old.title, 'Old question');
  assert.deepEqual(old.warnings, []);
});

test("discovery: projects.json in Crush's data folder names each project's database", (t) => {
  const data = tmpDir(t);
  fs.writeFileSync(path.join(data, 'projects.json'), JSON.stringify({ projects: [{ path: '/p', data_dir: path.dirname(REAL), last_accessed: '2026-12-01T00:00:00Z' }, { path: '/gone', data_dir: '/nowhere/.crush' }] }));
  assert.deepEqual(crush.reading.kind === 'document' && crush.reading.sessionsUnder(data, nodeFs), [`${REAL}#1c9c4c9c-6cdf-4c79-aed5-99c25ca9b8ec`]);
  const host: HostEnv = { home: '/home/u', vars: {}, platform: 'linux', join: path.posix.join, basename: path.posix.basename };
  assert.equal(crushData(host), '/home/u/.local/share/crush');
  assert.equal(crushData({ ...host, vars: { XDG_DATA_HOME: '/x' } }), '/x/crush');
  assert.equal(crushData({ ...host, vars: { CRUSH_GLOBAL_DATA: '/c' } }), '/c');
  // Other agents' databases are not Crush's, and Crush's is no one else's.
  assert.equal(documentSession(path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db'), nodeFs)?.agent, 'opencode');
  assert.equal(documentSession(REAL, nodeFs)?.agent, 'crush');
});

test('a compacted Crush session is a Markdown handoff that holds the latest request', async () => {
  const { session } = await readTranscriptFile(HAND);
  const w = crush.write(session, session, { newId: () => '11111111-2222-4333-8444-555555555555', now: () => new Date('2026-12-06T08:00:00Z') });
  assert.equal(w.kind, 'handoff');
  assert.ok(w.kind === 'handoff' && w.markdown.includes('Now fix applyCoupon.') && w.markdown.includes('Crush'));
  assert.equal(crush.resumeCommand('x'), undefined);
  assert.equal(crush.handoff, true);
});
