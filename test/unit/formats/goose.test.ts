// Goose sessions: sessions.db and `goose session export` JSON from the real CLI 1.37.0 read alike with the usage Goose
// recorded; the hand-made legacy JSONL and multi-session database; a written copy is import JSON that reads back the same.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { gooseSessionsDir } from '../../../src/core/formats/goose/agent';
import { agentModule } from '../../../src/core/formats/registry';
import { costOf } from '../../../src/core/usage/pricing';
import { stateFromSession } from '../../../src/core/usage/rows';
import { nodeFs } from '../../../src/node/documentSessions';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { FIXTURES, linesOf } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const DIR = path.join(FIXTURES, 'goose');
const DB = path.join(DIR, 'sessions-1.37.0', 'sessions.db');
const EXPORT = path.join(DIR, 'export-1.37.0.json');
const HANDMADE_DB = path.join(DIR, 'sessions.db');
const JSONL = path.join(DIR, '20251201_101500-handmade.jsonl');
const raw = JSON.parse(fs.readFileSync(EXPORT, 'utf8'));

type S = Awaited<ReturnType<typeof readTranscriptFile>>['session'];
const shape = (s: S) => s.messages.map((m) => [m.role, m.blocks.map((b) => [b.type, 'text' in b ? b.text : '', 'id' in b ? b.id : ''])]);
const items = (conv: any[]) => conv.flatMap((m) => m.content);

test('real Goose 1.37.0: the database, <db>#<id> and the export of one session read the same', async () => {
  const fromDb = (await readTranscriptFile(DB)).session;
  const named = (await readTranscriptFile(`${DB}#${raw.id}`)).session;
  const exported = (await readTranscriptFile(EXPORT)).session;
  for (const s of [fromDb, named, exported]) {
    assert.equal(s.format, 'goose');
    assert.equal(s.id, raw.id);
    assert.equal(s.cwd, raw.working_dir);
    assert.deepEqual(s.models, [raw.model_config.model_name]);
    assert.equal(s.title, raw.name);
    assert.deepEqual(s.warnings, []);
  }
  assert.equal(exported.messages.length, raw.conversation.length);
  assert.deepEqual(shape(fromDb), shape(exported));
  assert.deepEqual(shape(named), shape(exported));
});

test('tool requests become calls answered by the next user message; a failed command stays an error', async () => {
  const { session } = await readTranscriptFile(EXPORT);
  const responses = items(raw.conversation).filter((c: any) => c.type === 'toolResponse');
  assert.equal(responses.length, 10);
  for (const r of responses) {
    const at = session.messages.findIndex((m) => m.blocks.some((b) => b.type === 'tool_call' && b.id === r.id));
    const next = session.messages[at + 1]!;
    const result = next.blocks.find((b) => b.type === 'tool_result' && b.id === r.id);
    assert.ok(next.toolResultsOnly && result && 'text' in result, r.id);
    assert.equal(result.text, r.toolResult.value.content.map((c: any) => c.text).join(''));
  }
  const calls = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_call');
  assert.deepEqual([...new Set(calls.map((b) => ('name' in b ? b.name : '')))].sort(), ['edit', 'shell', 'tree', 'write']);
  const failed = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result' && b.isError);
  assert.deepEqual(failed.map((b) => ('text' in b ? b.text : '')).filter((t) => t.includes('build.log')).length, 1, 'cat build.log failed');
});

test('usage: the last request Goose recorded is the context; the accumulated totals are the spend', async () => {
  for (const file of [DB, EXPORT]) {
    const { session } = await readTranscriptFile(file);
    const withUsage = session.messages.filter((m) => m.usage);
    assert.equal(withUsage.length, 1, file);
    assert.equal(withUsage[0], session.messages.filter((m) => m.role === 'assistant').at(-1));
    assert.deepEqual(withUsage[0]!.usage, { inputTokens: raw.input_tokens, outputTokens: raw.output_tokens, cacheReadTokens: 0, cacheCreationTokens: 0 });
    assert.equal(session.recordedContext, raw.input_tokens);
    assert.equal(session.contextWindow, 200_000);
    assert.deepEqual([...stateFromSession(session).rows.values()].map((r) => [r[1], r[2]]), [[raw.input_tokens, raw.output_tokens]]);
    // Spend (`usage`, the Sessions view): the totals Goose accumulated over every request, priced like Goose did.
    const usage = agentModule('goose').usage;
    assert.ok(usage.kind === 'from-session' && usage.state);
    const rows = [...usage.state(session).rows.values()];
    assert.deepEqual(rows.map((r) => [r[1], r[2], r[3], r[4]]), [[raw.accumulated_input_tokens, raw.accumulated_output_tokens, 0, 0]]);
    const cost = costOf('claude-sonnet-4-5', { inputTokens: rows[0]![1], outputTokens: rows[0]![2], cacheCreationTokens: 0, cacheReadTokens: 0 })!;
    assert.ok(Math.abs(cost - raw.accumulated_cost) < 0.01, `${cost} vs Goose's ${raw.accumulated_cost}`);
  }
  // The legacy era kept the same totals on its first line.
  const { session: legacy } = await readTranscriptFile(JSONL);
  const u = agentModule('goose').usage;
  assert.ok(u.kind === 'from-session' && u.state);
  assert.deepEqual([...u.state(legacy).rows.values()].map((r) => [r[1], r[2]]), [[139_800, 1_400]]);
});

test('usage: impossible figures (2^53+1 cache reads, 1e400 accumulated output) drop their record with a warning, never count as 0', async (t) => {
  const file = path.join(tmpDir(t), 'export.json');
  const text = JSON.stringify({ ...raw, cache_read_input_tokens: '<read>', accumulated_output_tokens: '<output>' });
  fs.writeFileSync(file, text.replace('"<read>"', '9007199254740993').replace('"<output>"', '1e400'));
  const { session } = await readTranscriptFile(file);
  assert.equal(session.messages.filter((m) => m.usage).length, 0, 'the last request is not counted with 0 cache reads');
  assert.equal(session.recordedContext, undefined);
  assert.deepEqual(session.warnings, ['1 usage record(s) with impossible token counts (not whole numbers from 0 to 2^40) were ignored']);
  const usage = agentModule('goose').usage;
  assert.ok(usage.kind === 'from-session' && usage.state);
  const state = usage.state(session);
  // Neither the accumulated totals nor the last request count, and no estimate stands in for them.
  assert.deepEqual([...state.rows.values()], []);
  assert.equal(state.estimated, undefined);
  assert.equal(state.absurdUsage, 2);
});

test('hand-made legacy JSONL and a multi-session database: compaction-hidden messages left out, newest session by default', async () => {
  const legacy = (await readTranscriptFile(JSONL)).session;
  assert.equal(legacy.format, 'goose');
  assert.ok(legacy.messages.length > 10 && legacy.recordedContext! > 0);
  const newest = (await readTranscriptFile(HANDMADE_DB)).session;
  assert.equal(newest.id, '20251202_1');
  assert.match(newest.warnings.join('\n'), /holds 2 sessions; this is the newest, 20251202_1/);
  assert.match(newest.warnings.join('\n'), /hidden by its compaction/);
  // Goose's own compaction: the agent-only user text is the summary the model continues from.
  assert.equal(newest.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'summary').length, 1);
  const older = (await readTranscriptFile(`${HANDMADE_DB}#20251201_1`)).session;
  // The same hand-made conversation in both (tool ids differ by source: toolu_db1_N, toolu_legacy_N).
  const same = (x: S): string => JSON.stringify(shape(x)).replace(/toolu_(db1|legacy)_/g, 'toolu_');
  assert.equal(same(older), same(legacy), 'the database session reads like the legacy file');
});

test('round trip: written unchanged, the copy is import JSON with a new id and the same conversation', async (t) => {
  for (const file of [DB, EXPORT, JSONL]) {
    const { session } = await readTranscriptFile(file, { keepRaw: true });
    const ctx = { newId: () => '0190aaaa-bbbb-7ccc-8ddd-000000000123', now: () => new Date('2026-12-01T00:00:00.123Z') };
    const written = agentModule('goose').write(session, session, ctx);
    const lines = linesOf(written);
    assert.equal(lines.length, 1);
    const out = JSON.parse('raw' in lines[0]! ? lines[0].raw : '');
    assert.match(written.sessionId, /^20261201_\d+$/);
    assert.notEqual(written.sessionId, session.id);
    assert.equal(out.id, written.sessionId);
    assert.equal(out.created_at, '2026-12-01T00:00:00Z');
    assert.equal(out.message_count, out.conversation.length);
    assert.equal(out.accumulated_cost, null, 'the copy carries no usage');
    if (file !== JSONL) assert.deepEqual(out.conversation, raw.conversation, `${file}: messages copied unchanged`);
    const copy = path.join(tmpDir(t), 'copy.json');
    fs.writeFileSync(copy, lines.map((l) => ('raw' in l ? l.raw : '')).join('\n'));
    const back = (await readTranscriptFile(copy)).session;
    assert.deepEqual(shape(back), shape(session), file);
    const usage = agentModule('goose').usage;
    assert.ok(usage.kind === 'from-session' && usage.state);
    // The copy records no usage (the original was billed once): its rows are estimates, never the original's totals.
    const rows = [...usage.state(back).rows];
    assert.ok(rows.every(([k]) => k.startsWith('est:')), `${file}: only estimated rows`);
    assert.ok(rows.every(([, r]) => r[1] < 20_000), `${file}: no recorded totals carried over`);
  }
});

const win: HostEnv = { home: 'C:\\Users\\u', vars: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, platform: 'win32', join: path.win32.join, basename: path.win32.basename };
const unix = (platform: string, vars: Record<string, string> = {}): HostEnv => ({ home: '/home/u', vars, platform, join: path.posix.join, basename: path.posix.basename });

test('locations: XDG data on Linux and macOS, %APPDATA%\\Block\\goose on Windows, GOOSE_PATH_ROOT first', () => {
  assert.equal(gooseSessionsDir(unix('linux')), '/home/u/.local/share/goose/sessions');
  assert.equal(gooseSessionsDir(unix('darwin')), '/home/u/.local/share/goose/sessions');
  assert.equal(gooseSessionsDir(unix('linux', { XDG_DATA_HOME: '/x' })), '/x/goose/sessions');
  assert.equal(gooseSessionsDir(win), 'C:\\Users\\u\\AppData\\Roaming\\Block\\goose\\data\\sessions');
  assert.equal(gooseSessionsDir(unix('linux', { GOOSE_PATH_ROOT: '/g' })), '/g/data/sessions');
  assert.deepEqual(agentModule('goose').roots(win), [gooseSessionsDir(win)]);
});

test('sessions under the folder: each database session once, legacy files it did not import, resume commands quoted', (t) => {
  const root = tmpDir(t);
  fs.copyFileSync(HANDMADE_DB, path.join(root, 'sessions.db'));
  fs.copyFileSync(JSONL, path.join(root, '20251201_1.jsonl')); // imported into the database: listed from there
  fs.copyFileSync(JSONL, path.join(root, '20251130_7.jsonl'));
  fs.writeFileSync(path.join(root, 'notes.jsonl'), '{"hello":1}\n');
  const reading = agentModule('goose').reading;
  assert.equal(reading.kind, 'document');
  if (reading.kind !== 'document') return;
  const listed = reading.sessionsUnder(root, nodeFs).map((p) => path.basename(p));
  assert.deepEqual(listed, ['sessions.db#20251202_1', 'sessions.db#20251201_1', '20251130_7.jsonl']);
  const m = agentModule('goose');
  assert.equal(m.resumeCommand('20251202_1'), 'goose session --resume --session-id 20251202_1');
  assert.equal(m.resumeCommand('x; rm -rf ~'), undefined);
  assert.equal(m.resumeCommand('20251202_1', "/tmp/it's.json"), "goose session import '/tmp/it'\\''s.json' && goose session --resume");
});

test('bad input: JSON that is no Goose session, an unknown session id, a damaged database → one-line errors', async (t) => {
  const dir = tmpDir(t);
  const rejects = (p: Promise<unknown>, re: RegExp) => assert.rejects(p, (e: unknown) => e instanceof TranscriptError && re.test(e.message) && !e.message.includes('\n'));
  const half = path.join(dir, 'half.json');
  fs.writeFileSync(half, fs.readFileSync(EXPORT, 'utf8').slice(0, 5000));
  await rejects(readTranscriptFile(half), /not valid JSON/);
  await rejects(readTranscriptFile(`${DB}#20990101_1`), /no session 20990101_1/);
  const broken = path.join(dir, 'sessions.db');
  fs.writeFileSync(broken, fs.readFileSync(HANDMADE_DB).subarray(0, 8192));
  await rejects(readTranscriptFile(broken), /cannot read/);
});

test('an export (real Goose 1.37.0) or our one-line import JSON saved under a .jsonl name is read as the export it is', async (t) => {
  const dir = tmpDir(t);
  const pretty = path.join(dir, 'exported.jsonl'), oneLine = path.join(dir, 'one-line.jsonl');
  fs.copyFileSync(EXPORT, pretty);
  fs.writeFileSync(oneLine, `${JSON.stringify(raw)}\n`);
  const expected = (await readTranscriptFile(EXPORT)).session;
  for (const file of [pretty, oneLine]) {
    const { session } = await readTranscriptFile(file);
    assert.equal(session.format, 'goose', file);
    assert.equal(session.id, raw.id);
    assert.deepEqual(shape(session), shape(expected));
  }
  // The legacy JSONL (metadata line, then messages) is still read as JSONL.
  assert.equal((await readTranscriptFile(JSONL)).session.id, '20251201_101500-handmade');
});
