// Kilo CLI 7.7.7 (an OpenCode fork) sessions from the real CLI: kilo.db and `kilo export` read alike through the
// OpenCode module's code as Kilo's, with the usage each step recorded; OpenCode's files stay OpenCode's and Kilo's
// Kilo's; a written copy is export JSON for `kilo import` in Kilo's own folder.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { agentModule } from '../../../src/core/formats/registry';
import { stateFromSession } from '../../../src/core/usage/rows';
import { documentSession, nodeFs } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES, linesOf } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const DIR = path.join(FIXTURES, 'kilo');
const DB = path.join(DIR, 'kilo-7.7.7.db');
const EXPORT = path.join(DIR, 'export-7.7.7.json');
const raw = JSON.parse(fs.readFileSync(EXPORT, 'utf8'));
const kilo = agentModule('kilo');
const shape = (s: Awaited<ReturnType<typeof readTranscriptFile>>['session']) =>
  s.messages.map((m) => [m.role, m.blocks.map((b) => [b.type, 'text' in b ? b.text : '', 'id' in b ? b.id : ''])]);

test('real Kilo 7.7.7: kilo.db, <db>#<id> and the export read the same, as Kilo CLI sessions', async () => {
  const fromDb = (await readTranscriptFile(DB)).session;
  const named = (await readTranscriptFile(`${DB}#${raw.info.id}`)).session;
  const exported = (await readTranscriptFile(EXPORT)).session;
  for (const s of [fromDb, named, exported]) {
    assert.equal(s.format, 'kilo');
    assert.equal(s.id, raw.info.id);
    assert.equal(s.cwd, raw.info.directory);
    assert.deepEqual(s.warnings, []);
  }
  assert.deepEqual(shape(fromDb), shape(exported));
  assert.deepEqual(shape(named), shape(exported));
  // Calls paired with results; the prompts of the four tasks in order.
  const blocks = fromDb.messages.flatMap((m) => m.blocks);
  const calls = blocks.filter((b) => b.type === 'tool_call').map((b) => ('id' in b ? b.id : ''));
  const results = blocks.filter((b) => b.type === 'tool_result').map((b) => ('id' in b ? b.id : ''));
  assert.ok(calls.length >= 15);
  assert.deepEqual(results.sort(), calls.sort());
  const prompts = fromDb.messages.filter((m) => m.role === 'user').flatMap((m) => m.blocks).flatMap((b) => (b.type === 'text' && /^\[task \d\]/.test(b.text) ? [b.text.slice(0, 8)] : []));
  assert.deepEqual(prompts, ['[task 0]', '[task 1]', '[task 2]', '[task 3]']);
});

test('usage: each step Kilo recorded is a row; their sum is what Kilo counted for the session', async () => {
  const { session } = await readTranscriptFile(DB);
  const rows = [...stateFromSession(session).rows.values()];
  assert.ok(rows.length >= 15);
  const sum = (i: number) => rows.reduce((n, r) => n + (r[i] as number), 0);
  assert.deepEqual([sum(1), sum(2), sum(4)], [raw.info.tokens.input, raw.info.tokens.output, raw.info.tokens.cache.read]);
  assert.equal(session.contextWindow, 200_000);
});

test("OpenCode's files stay OpenCode's and Kilo's Kilo's", (t) => {
  const home = tmpDir(t);
  const oc = path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db');
  assert.equal(documentSession(oc, nodeFs)?.agent, 'opencode');
  assert.equal(documentSession(DB, nodeFs)?.agent, 'kilo');
  // Exports have one shape: Kilo's by its agent (code, not OpenCode's build) anywhere, or in a folder named kilo.
  const ocExport = path.join(FIXTURES, 'opencode', 'export-1.18.33.json');
  const copies: [string, string, string][] = [
    [ocExport, path.join(home, 'opencode', 'compacted', 'a.json'), 'opencode'], [EXPORT, path.join(home, 'elsewhere', 'b.json'), 'kilo'],
    [ocExport, path.join(home, 'kilo', 'compacted', 'c.json'), 'kilo'], [EXPORT, path.join(home, 'opencode', 'compacted', 'd.json'), 'kilo'],
  ];
  for (const [from, to, agent] of copies) {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    assert.equal(documentSession(to, nodeFs)?.agent, agent, to);
  }
  assert.deepEqual(kilo.reading.kind === 'document' && kilo.reading.sessionsUnder(DIR, nodeFs), [`${DB}#${raw.info.id}`]);
});

test("a written copy goes to Kilo's folder as export JSON for `kilo import`, and reads back as Kilo's", async (t) => {
  const host: HostEnv = { home: '/home/u', vars: {}, platform: 'linux', join: path.posix.join, basename: path.posix.basename };
  assert.deepEqual(kilo.roots(host), ['/home/u/.local/share/kilo']);
  assert.deepEqual(kilo.roots({ ...host, vars: { XDG_DATA_HOME: '/x' } }), ['/x/kilo']);
  const { session } = await readTranscriptFile(DB, { keepRaw: true });
  let n = 0;
  const w = kilo.write(session, session, { newId: () => `0190aaaa-bbbb-7ccc-8ddd-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-06T08:00:00Z') });
  const json = JSON.parse(linesOf(w).map((l) => ('raw' in l ? l.raw : JSON.stringify(l.value))).join('\n'));
  const out = path.join(tmpDir(t), 'kilo', 'compacted', `${w.sessionId}.json`);
  assert.equal(kilo.storePath(host, w.sessionId, undefined, new Date()), `/home/u/.local/share/kilo/compacted/${w.sessionId}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(json));
  const back = (await readTranscriptFile(out)).session;
  assert.equal(back.format, 'kilo');
  assert.deepEqual(shape(back), shape(session));
  assert.equal(kilo.resumeCommand(w.sessionId, out), `kilo import ${out} && kilo --session ${w.sessionId}`);
});
