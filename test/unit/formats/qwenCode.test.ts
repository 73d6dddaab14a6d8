// Qwen Code: the real session (made by the real CLI offline, test/fixtures/qwen-code) read, paired and priced; its
// compressed history; detection that leaves Claude Code's files alone; the writer's round trip; usage and places.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { detectClaudeCode } from '../../../src/core/formats/claude-code/detect';
import { qwenCode } from '../../../src/core/formats/qwen-code/agent';
import { detectQwen, qwenClaims } from '../../../src/core/formats/qwen-code/detect';
import type { Session } from '../../../src/core/model/transcript';
import { detectAgent } from '../../../src/core/usage/lineFilter';
import { serializeLines } from '../../../src/core/write/serialize';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { scanUsage } from '../../../src/node/usage/scanner';
import { CLAUDE_SAMPLE, FIXTURES, linesOf } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

type Obj = Record<string, any>;
const DIR = path.join(FIXTURES, 'qwen-code', 'session-0.24.4');
const FIXTURE = path.join(DIR, fs.readdirSync(DIR).find((f) => f.endsWith('.jsonl'))!);
const raw = (file = FIXTURE): Obj[] => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Obj);
const read = async (file = FIXTURE): Promise<Session> => (await readTranscriptFile(file, { keepRaw: true })).session;
const ids = (s: Session, type: 'tool_call' | 'tool_result'): string[] => s.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === type ? [b.id] : [])));
const ctx = (): { newId: () => string; now: () => Date } => {
  let n = 0;
  return { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-06T10:20:30Z') };
};
const written = (s: Session, cleaned = s, insert?: { beforeRecord: number; text: string }): Obj[] =>
  [...serializeLines(linesOf(qwenCode.write(s, cleaned, ctx(), insert)))].join('').trim().split('\n').map((l) => JSON.parse(l) as Obj);
const host = (home: string, vars: Record<string, string> = {}): HostEnv => ({ home, vars, platform: 'linux', join: (...p) => path.posix.join(...p), basename: path.posix.basename });

describe('qwen-code reader', () => {
  it('reads the real session as the CLI resumes it: prompts, replies, every call answered, usage per request', async () => {
    const records = raw();
    const s = await read();
    assert.equal(s.format, 'qwen-code');
    assert.equal(s.id, records[0]!.sessionId);
    assert.equal(s.cwd, records[0]!.cwd);
    assert.equal(s.title, 'What does price.js compute?');
    assert.deepEqual(s.models, ['qwen3-coder-plus']);
    const calls = records.filter((r) => r.type === 'assistant').flatMap((r) => r.message.parts).filter((p: Obj) => p.functionCall).map((p: Obj) => p.functionCall.id);
    assert.equal(calls.length, 5);
    assert.deepEqual(ids(s, 'tool_call'), calls);
    assert.deepEqual(ids(s, 'tool_result'), calls);
    const failed = s.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_result' && b.id === calls.at(-1));
    assert.ok(failed?.type === 'tool_result' && failed.isError && failed.text.includes("required property 'file_path'"));
    assert.deepEqual(s.messages.filter((m) => m.role === 'user' && !m.toolResultsOnly).map((m) => (m.blocks[0] as { text: string }).text), ['What does price.js compute?', 'Raise the rate to 8 percent.']);
    // Usage as Gemini counts it: the prompt includes its cached part.
    const last = records.filter((r) => r.type === 'assistant').at(-1)!.usageMetadata;
    const u = s.messages.at(-1)!.usage!;
    assert.deepEqual([u.inputTokens, u.cacheReadTokens, u.outputTokens], [last.promptTokenCount - last.cachedContentTokenCount, last.cachedContentTokenCount, last.candidatesTokenCount]);
    assert.equal(s.recordedContext, last.promptTokenCount);
    assert.equal(s.contextWindow, 1_000_000);
    assert.deepEqual(s.warnings, []);
  });

  it('starts from a chat_compression record\'s compressed history, as `qwen --resume` does', async (t) => {
    const records = raw();
    const tail = records.at(-1)!;
    // Appended by hand in the shape ChatRecordingService.recordChatCompression writes (no real compression offline).
    const compression = { ...tail, uuid: 'c0000000-0000-4000-8000-000000000001', parentUuid: tail.uuid, type: 'system', subtype: 'chat_compression', message: undefined, usageMetadata: undefined,
      systemPayload: { info: { originalTokenCount: 20000, newTokenCount: 300 }, compressedHistory: [{ role: 'user', parts: [{ text: '<state_snapshot>rate is 0.08 (TAX-4417)</state_snapshot>' }] }, { role: 'model', parts: [{ text: 'Got it.' }] }] } };
    const next = { ...records[0]!, uuid: 'c0000000-0000-4000-8000-000000000002', parentUuid: compression.uuid, message: { role: 'user', parts: [{ text: 'And now?' }] } };
    const file = path.join(tmpDir(t), 'compressed.jsonl');
    fs.writeFileSync(file, [...records, compression, next].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const s = await read(file);
    assert.deepEqual(s.messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(s.messages[0]!.blocks[0]!.type, 'summary');
    assert.equal(ids(s, 'tool_call').length, 0);
    // Written back, the compressed history becomes plain records the CLI loads.
    const out = written(s);
    assert.deepEqual(out.map((r) => r.type), ['user', 'assistant', 'user']);
    assert.equal(out[0]!.message.parts[0].text, '<state_snapshot>rate is 0.08 (TAX-4417)</state_snapshot>');
  });

  it('is told apart from Claude Code by content, both ways', async () => {
    const qwenRecords = raw().slice(0, 5);
    const claudeRecords = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').trim().split('\n').slice(0, 5).map((l) => JSON.parse(l) as unknown);
    assert.equal(detectQwen(qwenRecords), true);
    assert.equal(detectClaudeCode(qwenRecords), false);
    assert.equal(detectQwen(claudeRecords), false);
    assert.equal(detectClaudeCode(claudeRecords), true);
    const head = (f: string): string => fs.readFileSync(f, 'utf8').slice(0, 4096);
    assert.equal(qwenClaims('x.jsonl', head(FIXTURE)), 'yes');
    assert.equal(qwenClaims('x.jsonl', head(CLAUDE_SAMPLE)), 'no');
    assert.equal(detectAgent(path.basename(FIXTURE), head(FIXTURE)), 'qwen-code');
    assert.equal(detectAgent(path.basename(CLAUDE_SAMPLE), head(CLAUDE_SAMPLE)), 'claude-code');
    assert.equal((await read(CLAUDE_SAMPLE)).format, 'claude-code');
  });
});

describe('qwen-code writer', () => {
  it('writes a new chain (new session id and uuids) that reads back as the same conversation, without usage', async () => {
    const s = await read();
    const out = written(s);
    assert.ok(out.every((r) => r.sessionId === '00000000-0000-4000-8000-000000000001' && !('usageMetadata' in r)));
    out.forEach((r, i) => assert.equal(r.parentUuid, i === 0 ? null : out[i - 1]!.uuid));
    // Unchanged parts are copied whole (a function response keeps its name and output).
    const original = raw().filter((r) => r.message).map((r) => JSON.stringify(r.message));
    assert.deepEqual(out.map((r) => JSON.stringify(r.message)), original);
  });

  it('puts the summary as a user record before the kept part', async () => {
    const s = await read();
    const second = s.messages.findIndex((m) => m.role === 'user' && !m.toolResultsOnly && m !== s.messages[0]);
    const cleaned: Session = { ...s, messages: s.messages.slice(second) };
    const out = written(s, cleaned, { beforeRecord: s.messages[second]!.records[0]!, text: '[context-compactor] summary: rate TAX-4417' });
    assert.equal(out[0]!.type, 'user');
    assert.equal(out[0]!.message.parts[0].text, '[context-compactor] summary: rate TAX-4417');
    assert.equal(out[1]!.message.parts[0].text, 'Raise the rate to 8 percent.');
    assert.equal(out.length, cleaned.messages.length + 1);
  });
});

describe('qwen-code places and usage', () => {
  it('keeps sessions under the runtime folder: QWEN_RUNTIME_DIR, else QWEN_HOME, else ~/.qwen', () => {
    assert.deepEqual(qwenCode.roots(host('/h')), ['/h/.qwen/projects', '/h/.qwen/tmp']);
    assert.deepEqual(qwenCode.roots(host('/h', { QWEN_HOME: '/q' })), ['/q/projects', '/q/tmp']);
    assert.deepEqual(qwenCode.roots(host('/h', { QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '~/rt' })), ['/h/rt/projects', '/h/rt/tmp']);
    const id = '11111111-2222-4333-8444-555555555555';
    assert.equal(qwenCode.storePath(host('/h'), id, '/work/my app', new Date()), `/h/.qwen/projects/-work-my-app/chats/${id}.jsonl`);
    assert.throws(() => qwenCode.storePath(host('/h'), '../x', '/w', new Date()));
    assert.throws(() => qwenCode.storePath(host('/h'), id, 'relative/path', new Date()));
    assert.equal(qwenCode.resumeCommand(id), `qwen --resume ${id}`);
  });

  it('counts each request once in `usage`, with the title and project', async (t) => {
    const home = tmpDir(t);
    const chats = path.join(home, '.qwen', 'projects', '-tmp-x', 'chats');
    fs.mkdirSync(chats, { recursive: true });
    fs.copyFileSync(FIXTURE, path.join(chats, path.basename(FIXTURE)));
    const { report } = await scanUsage({ env: { HOME: home }, useCache: false });
    const q = report.sessions.filter((x) => x.agent === 'qwen-code');
    assert.equal(q.length, 1);
    const usage = raw().filter((r) => r.type === 'assistant').map((r) => r.usageMetadata);
    assert.equal(q[0]!.inputTokens, usage.reduce((a, u) => a + u.promptTokenCount - u.cachedContentTokenCount, 0));
    assert.equal(q[0]!.cacheReadTokens, usage.reduce((a, u) => a + u.cachedContentTokenCount, 0));
    assert.equal(q[0]!.outputTokens, usage.reduce((a, u) => a + u.candidatesTokenCount, 0));
    assert.equal(q[0]!.title, 'What does price.js compute?');
    assert.equal(q[0]!.project, raw()[0]!.cwd);
    assert.equal(report.sessions.filter((x) => x.agent === 'claude-code').length, 0);
  });
});
