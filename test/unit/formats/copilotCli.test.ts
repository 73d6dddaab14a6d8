// GitHub Copilot CLI: the real event log (made by the real CLI offline, test/fixtures/copilot-cli) read, paired and
// priced per request; detection; the Markdown handoff; usage and places.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { copilotCli } from '../../../src/core/formats/copilot-cli/agent';
import type { Session } from '../../../src/core/model/transcript';
import { documentSession, nodeFs } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { scanUsage } from '../../../src/node/usage/scanner';
import { CLAUDE_SAMPLE, CODEX_SAMPLE, FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

type Obj = Record<string, any>;
const DIR = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102');
const SESSION = fs.readdirSync(DIR).find((f) => /^[0-9a-f-]{36}$/.test(f))!;
const FIXTURE = path.join(DIR, SESSION, 'events.jsonl');
const raw = (): Obj[] => fs.readFileSync(FIXTURE, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Obj);
const read = async (file = FIXTURE): Promise<Session> => (await readTranscriptFile(file, { keepRaw: true })).session;
const ids = (s: Session, type: 'tool_call' | 'tool_result'): string[] => s.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === type ? [b.id] : [])));
const host = (home: string, vars: Record<string, string> = {}): HostEnv => ({ home, vars, platform: 'linux', join: (...p) => path.posix.join(...p), basename: path.posix.basename });

describe('copilot-cli reader', () => {
  it("its own compactions: each applied one replaces the history with its summary; without a summary it is kept whole and said", async (t) => {
    const from = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102-compact');
    const id = fs.readdirSync(from).find((f) => /^[0-9a-f-]{36}$/.test(f))!;
    const events = fs.readFileSync(path.join(from, id, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Obj);
    const at = events.findIndex((e) => e.type === 'session.compaction_complete');
    const copy = (changed: Obj[]): string => {
      const dir = path.join(tmpDir(t), id);
      fs.mkdirSync(dir);
      fs.copyFileSync(path.join(from, id, 'workspace.yaml'), path.join(dir, 'workspace.yaml'));
      fs.writeFileSync(path.join(dir, 'events.jsonl'), changed.map((e) => JSON.stringify(e)).join('\n') + '\n');
      return path.join(dir, 'events.jsonl');
    };
    const whole = await read(copy(events.map((e, i) => (i === at ? { ...e, data: { ...e.data, summaryContent: undefined } } : e))));
    assert.ok(whole.warnings.some((w) => /1 compaction\(s\) by Copilot CLI without their summary; the history before them is shown whole/.test(w)), whole.warnings.join('\n'));
    assert.ok(whole.messages.filter((m) => m.role === 'user').length > 2);
    assert.ok(!whole.messages.some((m) => m.blocks.some((b) => b.type === 'summary')));
    // An earlier applied compaction and a failed one: the last applied summary alone stands for what came before it.
    const earlier = { ...events[at], data: { ...events[at]!.data, summaryContent: 'An earlier summary.' } };
    const failed = { ...events[at], data: { ...events[at]!.data, success: false, summaryContent: 'A failed one.' } };
    const two = await read(copy([...events.slice(0, 5), earlier, ...events.slice(5, at + 1), failed, ...events.slice(at + 1)]));
    const once = await read(path.join(from, id, 'events.jsonl'));
    assert.deepEqual(two.messages.map((m) => m.blocks.map((b) => b.type)), once.messages.map((m) => m.blocks.map((b) => b.type)));
    assert.equal(two.messages.filter((m) => m.blocks.some((b) => b.type === 'summary')).length, 1);
    assert.ok(!two.warnings.some((w) => /compaction/.test(w)), two.warnings.join('\n'));
  });

  it('reads the real log: system prompt, prompts as the model got them, replies, every call answered', async () => {
    const events = raw();
    const s = await read();
    assert.equal(s.format, 'copilot-cli');
    assert.equal(s.id, SESSION);
    assert.equal(s.cwd, events[0]!.data.context.cwd);
    assert.equal(s.title, 'What does price.js compute?');
    assert.deepEqual(s.models, ['gpt-4.1']);
    assert.equal(s.messages[0]!.role, 'system');
    const calls = events.filter((e) => e.type === 'assistant.message').flatMap((e) => e.data.toolRequests).map((t: Obj) => t.toolCallId);
    assert.equal(calls.length, 5);
    assert.deepEqual(ids(s, 'tool_call'), calls);
    assert.deepEqual(ids(s, 'tool_result'), calls);
    const failed = s.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_result' && b.id === calls.at(-1));
    assert.ok(failed?.type === 'tool_result' && failed.isError && failed.text === 'Path does not exist');
    const prompts = events.filter((e) => e.type === 'user.message').map((e) => e.data.transformedContent);
    assert.deepEqual(s.messages.filter((m) => m.role === 'user' && !m.toolResultsOnly).map((m) => (m.blocks[0] as { text: string }).text), prompts);
    assert.deepEqual(s.warnings, []);
  });

  it('gives each reply the usage of its own request (apiCallId) and the window the CLI used', async () => {
    const events = raw();
    const s = await read();
    const records = events.filter((e) => e.type === 'session.usage_record').map((e) => e.data.usage);
    const replies = s.messages.filter((m) => m.role === 'assistant');
    assert.equal(replies.length, records.length);
    replies.forEach((m) => {
      const r = records.find((u: Obj) => u.apiCallId === m.apiId)!;
      assert.deepEqual(m.usage, { inputTokens: r.inputTokens - r.cacheReadTokens, outputTokens: r.outputTokens, cacheCreationTokens: r.cacheWriteTokens, cacheReadTokens: r.cacheReadTokens });
    });
    assert.equal(s.recordedContext, records.at(-1).inputTokens);
    assert.equal(s.contextWindow, records.at(-1).maxPromptTokens);
  });

  it('takes its session folders and logs, and no other agent\'s files', () => {
    assert.equal(documentSession(FIXTURE)?.agent, 'copilot-cli');
    assert.deepEqual(documentSession(path.dirname(FIXTURE))?.files, [FIXTURE]);
    for (const other of [CLAUDE_SAMPLE, CODEX_SAMPLE]) assert.equal(copilotCli.reading.kind === 'document' && copilotCli.reading.select(other, nodeFs), undefined);
    // The fixture folder holds a session folder and a VERSION file: only the session is listed.
    assert.deepEqual(copilotCli.reading.kind === 'document' && copilotCli.reading.sessionsUnder(DIR, nodeFs), [FIXTURE]);
  });
});

const ctx = (): { newId: () => string; now: () => Date } => {
  let n = 0;
  return { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-06T10:20:30Z') };
};
const eventsOf = (w: ReturnType<typeof copilotCli.write>): Obj[] => {
  assert.equal(w.kind, 'files');
  const file = w.kind === 'files' ? w.files.find((f) => f.path === 'events.jsonl')! : undefined;
  return file!.text.trim().split('\n').map((l) => JSON.parse(l) as Obj);
};

describe('copilot-cli writer', () => {
  it('writes a new session folder: session.start with the new id, then the same prompts, replies and results', async (t) => {
    const s = await read();
    const events = eventsOf(copilotCli.write(s, s, ctx()));
    const id = '00000000-0000-4000-8000-000000000001';
    assert.equal(events[0]!.type, 'session.start');
    assert.equal(events[0]!.data.sessionId, id);
    events.forEach((e, i) => assert.equal(e.parentId, i === 0 ? null : events[i - 1]!.id));
    // Unchanged events are copied whole (the system prompt first); telemetry, usage and turn markers are not.
    assert.deepEqual([events[1]!.type, events[1]!.data], ['system.message', raw().find((e) => e.type === 'system.message')!.data]);
    const kept = new Set(['user.message', 'assistant.message', 'tool.execution_complete']);
    assert.deepEqual(events.slice(2).map((e) => JSON.stringify([e.type, e.data])), raw().filter((e) => kept.has(e.type)).map((e) => JSON.stringify([e.type, e.data])));
    // Read back from its folder, it is the same conversation.
    const dir = path.join(tmpDir(t), id);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'events.jsonl'), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const back = await read(path.join(dir, 'events.jsonl'));
    assert.equal(back.id, id);
    assert.deepEqual(ids(back, 'tool_call'), ids(s, 'tool_call'));
    assert.deepEqual(ids(back, 'tool_result'), ids(s, 'tool_result'));
  });

  it('rebuilds a changed result and puts the summary as a prompt before the kept part', async () => {
    const s = await read();
    const second = s.messages.findIndex((m) => m.role === 'user' && !m.toolResultsOnly && (m.blocks[0] as { text: string }).text.includes('Raise the rate'));
    const kept = s.messages.slice(second).map((m) => (m.toolResultsOnly ? { ...m, blocks: m.blocks.map((b) => (b.type === 'tool_result' ? { ...b, text: '[context-compactor: shortened]' } : b)) } : m));
    const events = eventsOf(copilotCli.write(s, { ...s, messages: kept }, ctx(), { beforeRecord: s.messages[second]!.records[0]!, text: 'Summary: rate TAX-4417' }));
    assert.deepEqual(events.slice(0, 3).map((e) => e.type), ['session.start', 'user.message', 'user.message']);
    assert.equal(events[1]!.data.content, 'Summary: rate TAX-4417');
    const results = events.filter((e) => e.type === 'tool.execution_complete');
    assert.equal(results.length, 3);
    assert.ok(results.every((e) => JSON.stringify(e.data).includes('[context-compactor: shortened]')));
    assert.deepEqual(results.map((e) => e.data.success), [true, true, false]);
  });
});

describe('copilot-cli places and usage', () => {
  it('finds sessions under COPILOT_HOME (default ~/.copilot)/session-state and counts each request once', async (t) => {
    assert.deepEqual(copilotCli.roots(host('/h')), ['/h/.copilot/session-state']);
    assert.deepEqual(copilotCli.roots(host('/h', { COPILOT_HOME: '/c' })), ['/c/session-state']);
    const home = tmpDir(t);
    const dir = path.join(home, '.copilot', 'session-state', SESSION);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(FIXTURE, path.join(dir, 'events.jsonl'));
    const { report } = await scanUsage({ env: { HOME: home }, useCache: false });
    const c = report.sessions.filter((x) => x.agent === 'copilot-cli');
    assert.equal(c.length, 1);
    const usage = raw().filter((e) => e.type === 'session.usage_record').map((e) => e.data.usage);
    assert.equal(c[0]!.inputTokens, usage.reduce((a: number, u: Obj) => a + u.inputTokens - u.cacheReadTokens, 0));
    assert.equal(c[0]!.cacheReadTokens, usage.reduce((a: number, u: Obj) => a + u.cacheReadTokens, 0));
    assert.equal(c[0]!.outputTokens, usage.reduce((a: number, u: Obj) => a + u.outputTokens, 0));
    assert.equal(c[0]!.sessionId, SESSION);
    assert.equal(c[0]!.title, 'What does price.js compute?');
    assert.equal(report.sessions.length, 1);
  });
});
