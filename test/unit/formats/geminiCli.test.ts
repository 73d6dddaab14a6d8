// Gemini CLI: both eras read from real files, the JSONL replay rules, the writer (round trip, summary), usage, places.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { geminiCli, geminiFileName } from '../../../src/core/formats/gemini-cli/agent';
import type { Session } from '../../../src/core/model/transcript';
import { serializeLines } from '../../../src/core/write/serialize';
import { documentSession, nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES, linesOf } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real', 'gemini-cli');
const LEGACY = path.join(REAL, 'idaho-nover-session-summary-toolcalls.json');
const JSONL = path.join(REAL, 'ticketing-nover-jsonl-format-windows.jsonl');
const GENERATED = path.join(FIXTURES, 'gemini-cli', fs.readdirSync(path.join(FIXTURES, 'gemini-cli'))[0]!);

const ctx = (): { newId: () => string; now: () => Date } => {
  let n = 0;
  return { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-03T10:20:30Z') };
};
const read = async (file: string): Promise<Session> => (await readTranscriptFile(file, { keepRaw: true })).session;
const written = (s: Session, cleaned = s, insert?: { beforeRecord: number; text: string }): Record<string, unknown>[] =>
  [...serializeLines(linesOf(geminiCli.write(s, cleaned, ctx(), insert)))].join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const raw = (file: string): Record<string, unknown>[] => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const toolIds = (s: Session, type: 'tool_call' | 'tool_result'): string[] => s.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === type ? [b.id] : [])));

describe('gemini-cli reader', () => {
  it('reads the legacy JSON document: every message, every call answered, usage and title as recorded', async () => {
    const doc = JSON.parse(fs.readFileSync(LEGACY, 'utf8')) as { sessionId: string; summary: string; messages: { type: string; toolCalls?: unknown[]; tokens?: { input: number; cached: number; tool?: number } }[] };
    const s = await read(LEGACY);
    assert.equal(s.format, 'gemini-cli');
    assert.equal(s.id, doc.sessionId);
    assert.equal(s.title, doc.summary);
    const calls = doc.messages.flatMap((m) => m.toolCalls ?? []).length;
    assert.equal(toolIds(s, 'tool_call').length, calls);
    assert.deepEqual(toolIds(s, 'tool_result').sort(), toolIds(s, 'tool_call').sort());
    assert.equal(s.messages.filter((m) => m.role === 'user' && !m.toolResultsOnly).length, doc.messages.filter((m) => m.type === 'user').length);
    // Each model message's recorded prompt, split into uncached and cached input as the API bills it.
    const recorded = doc.messages.filter((m) => m.tokens).map((m) => m.tokens!.input + (m.tokens!.tool ?? 0));
    const read_ = s.messages.filter((m) => m.usage).map((m) => m.usage!.inputTokens + m.usage!.cacheReadTokens);
    assert.deepEqual(read_, recorded);
    assert.deepEqual(s.warnings, []);
  });

  it('reads the JSONL log: a re-appended id is one message, its last version, in its first place', async () => {
    const lines = raw(JSONL);
    const s = await read(JSONL);
    const ids = lines.filter((l) => typeof l.id === 'string').map((l) => l.id as string);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    assert.ok(repeated.length > 0, 'the real file re-appends updated messages');
    const id = repeated[0]!;
    const last = lines.filter((l) => l.id === id).at(-1) as { toolCalls?: { id: string }[] };
    for (const tc of last.toolCalls ?? []) assert.ok(toolIds(s, 'tool_call').includes(tc.id), `the last version's call ${tc.id} is read`);
    assert.equal(new Set(toolIds(s, 'tool_call')).size, toolIds(s, 'tool_call').length, 'no call read twice');
    assert.equal(s.cwd, 'C:\\Beta-Project\\Vibe Engineering\\ticketing-VC');
    assert.ok(s.contextWindow && s.contextWindow >= 1_000_000, 'window from the catalog');
  });

  it('reads a chat of the real CLI 0.61: checkpoints replace the history, a response recorded twice is read once', async () => {
    const s = await read(GENERATED);
    assert.deepEqual(s.warnings, []);
    assert.ok(raw(GENERATED).some((l) => Array.isArray((l.$set as { messages?: unknown } | undefined)?.messages)), 'the file has $set.messages checkpoints');
    assert.deepEqual(toolIds(s, 'tool_result').sort(), toolIds(s, 'tool_call').sort());
    assert.equal(s.messages.filter((m) => m.role === 'user' && !m.toolResultsOnly && m.blocks.some((b) => b.type === 'text')).length, 5, 'five typed prompts');
    // Thought summaries are shown, never sent back to the model.
    assert.ok(s.messages.some((m) => m.blocks.some((b) => b.type === 'reasoning')));
    assert.ok(s.messages.every((m) => m.blocks.every((b) => b.type !== 'reasoning' || b.tokens === 0)));
  });

  // Hand-made (marked): no public file has a /rewind; the shapes are those of the real files above.
  it('applies $rewindTo and $set.messages in order (hand-made log)', async (t) => {
    const file = path.join(tmpDir(t), 'session-2026-01-01T00-00-abcdef12.jsonl');
    const msg = (id: string, text: string): string => JSON.stringify({ id, timestamp: '2026-01-01T00:00:00Z', type: 'user', content: [{ text }] });
    fs.writeFileSync(file, [
      JSON.stringify({ sessionId: 'abcdef12-0000-4000-8000-000000000000', projectHash: 'ab'.repeat(32), startTime: '2026-01-01T00:00:00Z', lastUpdated: '2026-01-01T00:00:00Z', kind: 'main' }),
      msg('a', 'first'), msg('b', 'second'), msg('c', 'third'), JSON.stringify({ $rewindTo: 'b' }), msg('d', 'fourth'), msg('a', 'first, edited'),
      'not json', '',
    ].join('\n'));
    const s = await read(file);
    assert.deepEqual(s.messages.map((m) => (m.blocks[0] as { text: string }).text), ['first, edited', 'fourth']);
    assert.ok(s.warnings.some((w) => /not valid JSON/.test(w)) && s.warnings.some((w) => /rewind/.test(w)));
    fs.appendFileSync(file, `${JSON.stringify({ $set: { messages: [JSON.parse(msg('e', 'checkpoint'))] } })}\n${JSON.stringify({ $rewindTo: 'zz' })}\n${msg('f', 'after')}\n`);
    assert.deepEqual((await read(file)).messages.map((m) => (m.blocks[0] as { text: string }).text), ['after'], 'an unknown rewind id clears all');
  });

  it('refuses what is not a chat with one line', async (t) => {
    const file = path.join(tmpDir(t), 'session-x.json');
    fs.writeFileSync(file, '{"sessionId":"a","projectHash":"b","messages":[{"id":');
    await assert.rejects(readTranscriptFile(file), (e: Error) => /not a Gemini CLI chat/.test(e.message) && !e.message.includes('\n'));
  });
});

describe('gemini-cli writer', () => {
  for (const file of [LEGACY, JSONL, GENERATED]) {
    it(`round trip: ${path.basename(file)} written unchanged reads back as the same history`, async (t) => {
      const s = await read(file);
      const out = written(s);
      assert.deepEqual(Object.keys(out[0]!).slice(0, 5), ['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'kind']);
      assert.equal(out[0]!.sessionId, '00000000-0000-4000-8000-000000000001');
      assert.equal(out[0]!.kind, 'main');
      assert.ok(out.slice(1).every((m) => typeof m.id === 'string' && !('tokens' in m)), 'new ids, no usage on copies');
      const back = path.join(tmpDir(t), geminiFileName(out[0]!.sessionId as string, new Date()));
      fs.writeFileSync(back, out.map((o) => JSON.stringify(o)).join('\n') + '\n');
      const again = await read(back);
      const shape = (x: Session): unknown[] => x.messages.map((m) => [m.role, m.blocks.map((b) => [b.type, 'text' in b ? b.text : '', 'id' in b ? b.id : ''])]);
      assert.deepEqual(shape(again), shape(s));
    });
  }

  it('puts a summary before the kept part, as a user message the reader knows', async () => {
    const s = await read(GENERATED);
    const keptFrom = 40;
    const summary = { role: 'user' as const, records: [], blocks: [{ type: 'summary' as const, text: '[context-compactor] This session continues … Snapshot', origin: 'context-compactor' as const, ref: { record: -1 }, tokens: 10 }] };
    const cleaned: Session = { ...s, messages: [s.messages[0]!, summary, ...s.messages.slice(keptFrom)] };
    const out = written(s, cleaned, { beforeRecord: s.messages[keptFrom]!.records[0]!, text: summary.blocks[0].text });
    const at = out.findIndex((m) => JSON.stringify(m.content ?? '').includes('[context-compactor] This session continues'));
    assert.ok(at > 1, 'the summary follows the first message');
    const next = out[at + 1]!;
    assert.equal(next.timestamp, out[at]!.timestamp);
  });
});

describe('gemini-cli places and usage', () => {
  const host = (vars: Record<string, string> = {}): HostEnv => ({ home: '/home/u', vars, platform: 'linux', join: path.posix.join, basename: path.posix.basename });

  it('knows where the CLI keeps chats and how it names and resumes them', () => {
    assert.deepEqual(geminiCli.roots(host()), ['/home/u/.gemini/tmp']);
    assert.deepEqual(geminiCli.roots(host({ GEMINI_CLI_HOME: '/data/g' })), ['/data/g/.gemini/tmp']);
    const id = '0061450c-2bd5-45d1-b22f-54e067083996';
    assert.equal(geminiFileName(id, new Date('2026-12-03T09:56:07Z')), 'session-2026-12-03T09-56-0061450c.jsonl');
    assert.equal(geminiCli.storePath(host(), id, 'C:\\Work\\My App', new Date('2026-12-03T09:56:07Z')), '/home/u/.gemini/tmp/my-app/chats/session-2026-12-03T09-56-0061450c.jsonl');
    assert.throws(() => geminiCli.storePath(host(), id, undefined, new Date()), /project folder/);
    // Compacted from Gemini's store: its project's folder, whatever the recorded cwd would guess (the registry gave
    // "my-app-1" because another "my-app" came first), even when the chat records no cwd.
    const at = new Date('2026-12-03T09:56:07Z');
    const stored = '/home/u/.gemini/tmp/my-app-1/chats/session-2026-12-01T10-00-aaaaaaaa.json';
    assert.equal(geminiCli.storePath(host(), id, '/work/my-app', at, stored), '/home/u/.gemini/tmp/my-app-1/chats/session-2026-12-03T09-56-0061450c.jsonl');
    assert.equal(geminiCli.storePath(host(), id, undefined, at, stored), '/home/u/.gemini/tmp/my-app-1/chats/session-2026-12-03T09-56-0061450c.jsonl');
    // Anywhere else (another home, a subagent folder, a copy elsewhere, `..`): the guess from the cwd.
    for (const elsewhere of ['/home/v/.gemini/tmp/x/chats/s.json', '/home/u/.gemini/tmp/x/chats/sub/s.json', '/tmp/s.json', '/home/u/.gemini/tmpx/y/chats/s.json', '/home/u/.gemini/tmp/../chats/s.json']) {
      assert.equal(geminiCli.storePath(host(), id, '/work/my-app', at, elsewhere), '/home/u/.gemini/tmp/my-app/chats/session-2026-12-03T09-56-0061450c.jsonl', elsewhere);
    }
    assert.equal(geminiCli.resumeCommand(id), `gemini --resume ${id}`);
    assert.equal(geminiCli.resumeCommand('x; rm -rf ~'), undefined);
  });

  it('recognises chats by name and place, or by content, and leaves other agents\' files alone', (t) => {
    const chats = path.join(tmpDir(t), 'p', 'chats');
    fs.mkdirSync(chats, { recursive: true });
    const named = path.join(chats, 'session-2026-01-01T00-00-abcdef12.jsonl');
    fs.writeFileSync(named, '');
    assert.equal(documentSession(named, nodeFsByName)?.agent, 'gemini-cli');
    assert.equal(documentSession(JSONL, nodeFsByName), undefined, 'an unusual name needs the content');
    assert.equal(documentSession(JSONL, nodeFs)?.agent, 'gemini-cli');
    assert.equal(documentSession(LEGACY, nodeFs)?.agent, 'gemini-cli');
    assert.equal(documentSession(path.join(FIXTURES, 'claude-code', 'sample.jsonl'), nodeFs), undefined);
  });

  it('the usage scan finds chats under GEMINI_CLI_HOME, prices them, and counts a converted legacy chat once', async (t) => {
    const home = tmpDir(t);
    const chats = path.join(home, '.gemini', 'tmp', 'idaho-vault', 'chats');
    fs.mkdirSync(chats, { recursive: true });
    fs.copyFileSync(LEGACY, path.join(chats, 'session-2026-03-31T01-22-8bb72f01.json'));
    const env = { HOME: path.join(home, 'nohome'), GEMINI_CLI_HOME: home };
    const one = await scanUsage({ env, useCache: false });
    const g = one.report.sessions.filter((x) => x.agent === 'gemini-cli');
    assert.equal(g.length, 1);
    assert.deepEqual(g[0]!.models.sort(), ['gemini-2.5-flash', 'gemini-2.5-pro']);
    assert.ok(g[0]!.cost !== undefined && g[0]!.cost > 0, 'priced from the catalog');
    // Resuming a legacy chat makes the CLI write it again as `<name>.jsonl`: the same session, not a second one.
    const s = await read(LEGACY);
    fs.writeFileSync(path.join(chats, 'session-2026-03-31T01-22-8bb72f01.jsonl'), [JSON.stringify({ ...(s.extra.meta as object) }), ...(s.extra.entries as { message: unknown }[]).map((e) => JSON.stringify(e.message))].join('\n') + '\n');
    const two = await scanUsage({ env, useCache: false });
    const g2 = two.report.sessions.filter((x) => x.agent === 'gemini-cli');
    assert.equal(g2.length, 1);
    assert.equal(g2[0]!.inputTokens, g[0]!.inputTokens);
  });
});
