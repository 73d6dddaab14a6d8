// GitHub Copilot CLI: the real event log (made by the real CLI offline, test/fixtures/copilot-cli) read, paired and
// priced per request; detection; the Markdown handoff; usage and places.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { copilotCli } from '../../../src/core/formats/copilot-cli/agent';
import { copilotCliClaims, detectCopilotCli } from '../../../src/core/formats/copilot-cli/detect';
import type { Session } from '../../../src/core/model/transcript';
import { detectAgent } from '../../../src/core/usage/lineFilter';
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

  it('claims its logs and no other agent\'s', () => {
    const head = (f: string): string => fs.readFileSync(f, 'utf8').slice(0, 4096);
    const first = (f: string): unknown[] => fs.readFileSync(f, 'utf8').trim().split('\n').slice(0, 5).map((l) => JSON.parse(l) as unknown);
    assert.equal(copilotCliClaims('events.jsonl', head(FIXTURE)), 'yes');
    assert.equal(detectAgent('events.jsonl', head(FIXTURE)), 'copilot-cli');
    for (const other of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
      assert.equal(copilotCliClaims(path.basename(other), head(other)), 'no');
      assert.equal(detectCopilotCli(first(other)), false);
    }
  });
});

describe('copilot-cli handoff, places and usage', () => {
  it('writes a Markdown handoff with the latest prompt and without the old system prompt', async () => {
    const s = await read();
    const w = copilotCli.write(s, s, { newId: () => '00000000-0000-4000-8000-000000000001', now: () => new Date('2026-12-06T10:00:00Z') });
    assert.equal(w.kind, 'handoff');
    assert.ok(w.kind === 'handoff' && w.markdown.includes('Raise the rate to 8 percent.'));
    assert.ok(w.kind === 'handoff' && !w.markdown.includes('You are the GitHub Copilot CLI'));
    assert.equal(copilotCli.handoff, true);
    assert.equal(copilotCli.resumeCommand(SESSION), undefined);
  });

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
