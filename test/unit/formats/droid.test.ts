// Factory Droid sessions written by the real CLI 0.215.0 (test/fixtures/droid): messages with calls paired to results,
// the title and model, usage from the .settings.json sidecar, detection that takes no other agent's JSONL, a written
// copy that reads back with fresh ids, Droid's own compaction without an anchor (hand-made; anchored: vendorNewAgents,
// droidCompactionAnchor), store paths.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { agentModule } from '../../../src/core/formats/registry';
import { serializeLines } from '../../../src/core/write/serialize';
import { documentSession, nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, FIXTURES, linesOf } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const ID = 'bf09a340-8bf8-4f81-84fb-4ea7a0f3d05c';
const FILE = path.join(FIXTURES, 'droid', `${ID}.jsonl`);
const events = fs.readFileSync(FILE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const sidecar = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'droid', `${ID}.settings.json`), 'utf8'));
const droid = agentModule('droid');
const ctx = (n = 0) => ({ newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-06T08:00:00Z') });

test('real Droid 0.215.0: every message event is read, calls paired with their results, the context message as harness', async () => {
  const { session } = await readTranscriptFile(FILE);
  assert.equal(session.format, 'droid');
  assert.equal(session.id, ID);
  assert.equal(session.cwd, events[0].cwd);
  assert.equal(session.title, events[0].title);
  assert.deepEqual(session.models, [sidecar.model]);
  assert.deepEqual(session.warnings, []);
  const messageEvents = events.filter((e) => e.type === 'message');
  assert.equal(session.messages.length, messageEvents.length);
  const blocks = session.messages.flatMap((m) => m.blocks);
  const uses = messageEvents.flatMap((e) => e.message.content).filter((c: any) => c.type === 'tool_use');
  assert.equal(uses.length, 14);
  for (const u of uses) {
    const at = session.messages.findIndex((m) => m.blocks.some((b) => b.type === 'tool_call' && b.id === u.id));
    const result = session.messages[at + 1]!.blocks.find((b) => b.type === 'tool_result' && b.id === u.id);
    assert.ok(result, `${u.name} ${u.id} has its result in the next message`);
  }
  assert.deepEqual([...new Set(blocks.flatMap((b) => (b.type === 'tool_call' ? [b.name] : [])))].sort(), ['Create', 'Edit', 'Execute', 'Glob', 'Grep', 'LS', 'Read']);
  assert.ok(blocks.some((b) => b.type === 'tool_result' && b.isError && b.text.includes('build.log')), 'the failed command is an error');
  assert.ok(blocks.some((b) => b.type === 'reasoning' && b.text.includes('layout')));
  // The llm_only context message (tools, skills, system info) is harness, not a prompt.
  assert.ok(session.messages[0]!.blocks.every((b) => b.type === 'meta'));
  const prompts = session.messages.flatMap((m) => (m.role === 'user' ? m.blocks.filter((b) => b.type === 'text') : [])).map((b) => ('text' in b ? b.text : ''));
  assert.deepEqual(prompts.map((p) => p.slice(0, 8)), ['[task 0]', '[task 1]', '[task 2]']);
});

test('usage: the sidecar totals are the spend, its last call the context', async () => {
  const { session } = await readTranscriptFile(FILE);
  const last = sidecar.lastCallTokenUsage;
  assert.equal(session.recordedContext, last.inputTokens + last.cacheReadTokens + (last.cacheCreationTokens ?? 0));
  assert.equal(session.messages.filter((m) => m.usage).length, 1);
  const usage = droid.usage;
  assert.ok(usage.kind === 'from-session' && usage.state);
  const t = sidecar.tokenUsage;
  assert.deepEqual([...usage.state(session).rows.values()].map((r) => r.slice(1, 5)), [[t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens]]);
  assert.ok(t.cacheReadTokens > 0 && t.outputTokens > 0);
});

test('detection: Droid takes its own files by place or first line and no Claude Code session', (t) => {
  assert.ok(documentSession(FILE, nodeFs));
  assert.equal(documentSession(FILE, nodeFsByName), undefined, 'outside the store only the first line tells, which the by-name view does not read');
  assert.equal(documentSession(CLAUDE_SAMPLE, nodeFs), undefined);
  // A Claude Code session named by UUID under ~/.claude/projects is not Droid's; in ~/.factory/sessions it is (by place).
  const home = tmpDir(t);
  const claude = path.join(home, '.claude', 'projects', '-w', `${ID}.jsonl`);
  const store = path.join(home, '.factory', 'sessions', '-w', `${ID}.jsonl`);
  for (const p of [claude, store]) { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.copyFileSync(p === claude ? CLAUDE_SAMPLE : FILE, p); }
  assert.equal(documentSession(claude, nodeFs)?.agent, undefined);
  assert.deepEqual(documentSession(store, nodeFsByName)?.files, [store]);
  assert.deepEqual(droid.reading.kind === 'document' && droid.reading.sessionsUnder(path.join(home, '.factory', 'sessions'), nodeFs), [store]);
});

test('a written copy: a new session_start, fresh ids chained by parentId, the same conversation, no usage', async () => {
  const { session } = await readTranscriptFile(FILE, { keepRaw: true });
  const out = linesOf(droid.write(session, session, ctx()));
  const text = [...serializeLines(out)].join('');
  const recs = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.equal(recs[0].type, 'session_start');
  assert.notEqual(recs[0].id, ID);
  assert.match(recs[0].title, /\(compacted\)$/);
  const msgs = recs.slice(1);
  assert.ok(msgs.every((r, i) => r.type === 'message' && (i === 0 ? r.parentId === undefined : r.parentId === msgs[i - 1].id)));
  assert.deepEqual(msgs.map((r) => r.message.content), events.filter((e) => e.type === 'message').map((e) => e.message.content));
});

test("Droid's own compaction without an anchor (hand-made compaction_state): the summary first, then every message, as Droid 0.215 rebuilds it (anchor index -1)", (t) => {
  const file = path.join(tmpDir(t), `${ID}.jsonl`);
  const cut = events.findIndex((e) => e.type === 'message' && e.message.role === 'user' && JSON.stringify(e.message.content).includes('[task 2]'));
  const state = { type: 'compaction_state', id: 'c1', timestamp: '2026-12-06T07:30:00Z', summaryText: 'Summary: retries raised to 5.', summaryTokens: 9, removedCount: cut - 1 };
  fs.writeFileSync(file, [...events.slice(0, cut), state, ...events.slice(cut)].map((e) => JSON.stringify(e)).join('\n') + '\n');
  const match = documentSession(file, nodeFs)!;
  const session = match.reading.parse([{ path: file, text: fs.readFileSync(file, 'utf8'), bytes: nodeFs.open(file)! }], { keepRaw: false });
  assert.equal(session.messages[0]!.blocks[0]!.type, 'summary');
  assert.equal(session.messages.length, 1 + events.filter((e) => e.type === 'message').length);
  // Written, the summary is the user text the copy starts from.
  const recs = [...serializeLines(linesOf(droid.write({ ...session, records: session.records }, session, ctx())))].join('').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  assert.deepEqual(recs[1].message.content, [{ type: 'text', text: state.summaryText }]);
});

test("Droid's compaction naming an anchor the session does not hold: every message kept, and a warning that says so", (t) => {
  const file = path.join(tmpDir(t), `${ID}.jsonl`);
  const cut = events.findIndex((e) => e.type === 'message' && e.message.role === 'user' && JSON.stringify(e.message.content).includes('[task 2]'));
  const state = { type: 'compaction_state', id: 'c1', timestamp: '2026-12-06T07:30:00Z', summaryText: 'Summary: retries raised to 5.', anchorMessage: { id: 'no-such-message', index: 3 } };
  fs.writeFileSync(file, [...events.slice(0, cut), state, ...events.slice(cut)].map((e) => JSON.stringify(e)).join('\n') + '\n');
  const match = documentSession(file, nodeFs)!;
  const session = match.reading.parse([{ path: file, text: fs.readFileSync(file, 'utf8'), bytes: nodeFs.open(file)! }], { keepRaw: false });
  assert.equal(session.messages.length, 1 + events.filter((e) => e.type === 'message').length);
  assert.equal(session.warnings.filter((w) => /anchor message \(no-such-message\).*every message before it is kept/.test(w)).length, 1, session.warnings.join('\n'));
});

test('store paths: beside the original in its workspace folder, else the cwd slug; resume command', () => {
  const host: HostEnv = { home: '/home/u', vars: {}, platform: 'linux', join: path.posix.join, basename: path.posix.basename };
  const id = '11111111-2222-4333-8444-555555555555';
  assert.equal(droid.storePath(host, id, '/w/shop', new Date(), `/home/u/.factory/sessions/-x-y/${ID}.jsonl`), `/home/u/.factory/sessions/-x-y/${id}.jsonl`);
  assert.equal(droid.storePath(host, id, '/w/shop', new Date()), `/home/u/.factory/sessions/-w-shop/${id}.jsonl`);
  assert.throws(() => droid.storePath(host, id, 'relative', new Date()), /absolute/);
  assert.throws(() => droid.storePath(host, '../x', '/w', new Date()), /session id/);
  assert.equal(droid.resumeCommand(id), `droid --resume ${id}`);
  assert.equal(droid.resumeCommand('-rf'), undefined);
});
