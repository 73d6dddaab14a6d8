// One context window per session, decided in one place and used by the reader (inspect, composition) and status bar.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { contextWindowOf } from '../../../src/core/usage/catalog';
import { compactThreshold, sessionContextWindow } from '../../../src/core/usage/contextWindow';
import type { SessionUsage } from '../../../src/core/usage/types';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { statusOf } from '../../../src/node/sessions/statusModel';
import { buildSessionTree, sessionsOf } from '../../../src/node/sessions/treeModel';
import { scanUsage } from '../../../src/node/usage/scanner';
import { CLAUDE_SAMPLE, FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

test('Claude Code runs at 200k even where the catalog lists a 1M tier; 1M only when asked for or used', () => {
  assert.equal(contextWindowOf('claude-opus-4-6'), 1_000_000, 'the catalog lists the long-context window');
  assert.equal(sessionContextWindow('claude-code', 'claude-opus-4-6'), 200_000);
  assert.equal(sessionContextWindow('claude-code', 'claude-opus-4-6', { peak: 180_000 }), 200_000);
  assert.equal(sessionContextWindow('claude-code', 'claude-opus-4-6', { peak: 240_000 }), 1_000_000);
  assert.equal(sessionContextWindow('claude-code', 'claude-opus-4-6[1m]'), 1_000_000);
  assert.equal(sessionContextWindow('claude-code', 'claude-sonnet-4-5-20250929'), 200_000);
  assert.equal(sessionContextWindow('codex', 'gpt-5-codex', { recorded: 272_000 }), 272_000, "Codex's recorded window wins");
  assert.equal(sessionContextWindow('codex', 'gpt-5-codex'), contextWindowOf('gpt-5-codex'));
  assert.equal(sessionContextWindow('opencode', 'some-new-model'), undefined);
});

test('a Claude Code session on a 1M-catalog model: the reader (inspect, composition header) and the status bar say 200k', async (t) => {
  const file = path.join(tmpDir(t), 's.jsonl');
  fs.writeFileSync(file, fs.readFileSync(CLAUDE_SAMPLE, 'utf8').replace(/"model":"claude-[^"]+"/g, '"model":"claude-opus-4-6"'));
  const { session } = await readTranscriptFile(file);
  assert.deepEqual(session.models, ['claude-opus-4-6']);
  assert.equal(session.contextWindow, 200_000);
  const usage: SessionUsage = {
    file, agent: 'claude-code', sessionId: 'x', models: ['claude-opus-4-6'], compactSoon: false, unknownModels: [], contextTokens: 100_000,
    inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, cost: 0, lastTimestamp: '2026-01-01T00:00:00Z',
  };
  const status = statusOf([usage], 150_000)!;
  assert.match(status.text, /50 % · 100k\/200k$/);
  assert.match(status.tooltip, /of 200,000 \(claude-opus-4-6\)/);
  // The Sessions row and its hover measure against the same window.
  const row = sessionsOf(buildSessionTree([usage], { threshold: 150_000 }))[0]!;
  assert.match(row.description, /^100k · 50 %/);
});

test('a Codex session: the Sessions row and the status bar use the window Codex logged, as inspect does', async (t) => {
  const home = tmpDir(t);
  const real = path.join(FIXTURES, 'real', 'codex', 'golfiq-0.40.0-compacted-no-replacement-history.jsonl');
  const file = path.join(home, '.codex', 'sessions', '2025', '10', '01', 'rollout-2025-10-01T00-00-00-0199a000-0000-7000-8000-000000000001.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(real, file);
  const { session } = await readTranscriptFile(file);
  assert.equal(session.contextWindow, 272_000, 'the reader takes the logged window');
  assert.notEqual(contextWindowOf('gpt-5-codex'), 272_000, "the catalog's differs: the test can tell them apart");
  const { report } = await scanUsage({ env: { HOME: home }, includeDefaults: true, threshold: 150_000, useCache: false });
  const usage = report.sessions.find((s) => s.file === file)!;
  assert.ok(usage.contextTokens, 'the scan has a context');
  const share = `${Math.round((usage.contextTokens! / 272_000) * 100)} %`;
  assert.match(statusOf([usage], 150_000)!.text, new RegExp(`${share} · \\d+k/272k$`));
  assert.match(sessionsOf(buildSessionTree([usage], { threshold: 150_000 }))[0]!.description, new RegExp(`· ${share}`));
});

test('a session whose window is smaller than the threshold is flagged at 80 % of its window, in the tree and the status bar alike', () => {
  assert.equal(compactThreshold(150_000, 128_000), 102_400);
  assert.equal(compactThreshold(150_000, 200_000), 150_000, 'the configured threshold when the window has room for it');
  assert.equal(compactThreshold(150_000, undefined), 150_000);
  const usage: SessionUsage = {
    file: '/s.jsonl', agent: 'aider', sessionId: 'x', models: ['gpt-4o'], compactSoon: false, unknownModels: [], contextTokens: 110_000,
    inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, cost: 0, lastTimestamp: '2026-01-01T00:00:00Z',
  };
  assert.equal(contextWindowOf('gpt-4o'), 128_000);
  const status = statusOf([usage], 150_000)!;
  assert.equal(status.compactSoon, true);
  assert.match(status.tooltip, /At or above 102,400 tokens: compact soon/);
  const row = sessionsOf(buildSessionTree([usage], { threshold: 150_000 }))[0]!;
  assert.equal(row.compactSoon, true);
  assert.equal(buildSessionTree([{ ...usage, contextTokens: 100_000 }], { threshold: 150_000 }).compactSoonCount, 0);
});

test('a real Claude Code 2.1.328 session with the 1M window, compacted after 256k: the reader and the Sessions row say 1M', async (t) => {
  // test/fixtures/claude-code/session-2.1.328-1m/README.md: `--model 'claude-sonnet-4-6[1m]'`, twelve reads up to 256,430
  // tokens, `/compact`, one more request at 25,171. The file names the model without the suffix.
  const real = path.join(FIXTURES, 'claude-code', 'session-2.1.328-1m', '01433b93-10ff-4de5-ad3c-07e205488770.jsonl');
  const { session } = await readTranscriptFile(real);
  assert.deepEqual(session.models, ['claude-sonnet-4-6']);
  assert.ok((session.recordedContext ?? 0) < 200_000, `${session.recordedContext}`);
  assert.equal(session.contextWindow, 1_000_000, 'the largest recorded context, before the compaction, says 1M');
  // The usage scan (Sessions view, status bar) decides the same.
  const home = tmpDir(t);
  const file = path.join(home, '.claude', 'projects', '-tmp-def-gen-repo', path.basename(real));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(real, file);
  const { report } = await scanUsage({ env: { HOME: home }, includeDefaults: true, threshold: 150_000, useCache: false });
  const usage = report.sessions.find((s) => s.file === file)!;
  assert.equal(usage.contextTokens, session.recordedContext);
  assert.match(statusOf([usage], 150_000)!.text, /\/1M$|\/1000k$/);
});

test('a `/model` that chose the 1M context ([1m]) decides it before any request passed 200k; a later /model back ends it', async (t) => {
  // The real session's first request (its lines up to the first response), with Claude Code 1.0.80's answer to
  // `/model sonnet[1m]` as a local command's output before it (the record as Claude Code 2.x writes it).
  const real = path.join(FIXTURES, 'claude-code', 'session-2.1.328-1m', '01433b93-10ff-4de5-ad3c-07e205488770.jsonl');
  const lines = fs.readFileSync(real, 'utf8').split('\n');
  const firstReply = lines.findIndex((l) => l.includes('"type":"assistant"'));
  const first = JSON.parse(lines[0]!) as Record<string, unknown>;
  const setModel = (to: string): string => JSON.stringify({ type: 'system', subtype: 'local_command', content: `<local-command-stdout>Set model to ${to}</local-command-stdout>`, level: 'info', uuid: `0000000${to.length}-0000-4000-8000-000000000000`, parentUuid: null, isSidechain: false, timestamp: first.timestamp, sessionId: first.sessionId });
  const dir = tmpDir(t);
  const oneM = path.join(dir, 'one-m.jsonl'), back = path.join(dir, 'back.jsonl');
  fs.writeFileSync(oneM, [setModel('sonnet[1m] (claude-sonnet-4-6[1m])'), ...lines.slice(0, firstReply + 1)].join('\n') + '\n');
  fs.writeFileSync(back, [setModel('sonnet[1m] (claude-sonnet-4-6[1m])'), setModel('sonnet (claude-sonnet-4-6)'), ...lines.slice(0, firstReply + 1)].join('\n') + '\n');
  assert.equal((await readTranscriptFile(oneM)).session.contextWindow, 1_000_000);
  assert.equal((await readTranscriptFile(back)).session.contextWindow, 200_000);
});

// The records the real Claude Code 2.1.328 wrote for `/model` (test/fixtures/claude-code/model-command-2.1.328): the
// answer names a display name (`Sonnet 5.5`), never `[1m]`; what was asked for is `commandRun.args`.
const MODEL_RECORDS = fs.readFileSync(path.join(FIXTURES, 'claude-code', 'model-command-2.1.328', 'local-commands.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown> & { commandRun: { args: string }; content: string });
const ONE_M = path.join(FIXTURES, 'claude-code', 'session-2.1.328-1m', '01433b93-10ff-4de5-ad3c-07e205488770.jsonl');

/** The 1M session's first request (its lines up to the first response) with `before` records ahead of it, as a file. */
function firstRequestWith(dir: string, name: string, before: readonly unknown[], after: readonly unknown[] = [], whole = false): string {
  const lines = fs.readFileSync(ONE_M, 'utf8').split('\n').filter(Boolean);
  const first = JSON.parse(lines[0]!) as Record<string, unknown>;
  const own = (o: unknown): string => JSON.stringify({ ...(o as object), parentUuid: null, sessionId: first.sessionId, timestamp: first.timestamp });
  const firstReply = lines.findIndex((l) => l.includes('"type":"assistant"'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, [...before.map(own), ...(whole ? lines : lines.slice(0, firstReply + 1)), ...after.map(own)].join('\n') + '\n');
  return file;
}
const modelRecord = (args: string, ok = true) => MODEL_RECORDS.find((r) => r.commandRun.args === args && r.content.includes('Set model to') === ok)!;

test('Claude Code 2.1.328\'s `/model sonnet[1m]` (its answer says `Sonnet 5.5`) chooses the 1M window; `/model sonnet` after it, or a failed `/model …[1m]`, does not', async (t) => {
  const dir = tmpDir(t);
  assert.equal((await readTranscriptFile(firstRequestWith(dir, 'a.jsonl', [modelRecord('sonnet[1m]')]))).session.contextWindow, 1_000_000);
  assert.equal((await readTranscriptFile(firstRequestWith(dir, 'b.jsonl', [modelRecord('sonnet[1m]'), modelRecord('sonnet')]))).session.contextWindow, 200_000);
  assert.equal((await readTranscriptFile(firstRequestWith(dir, 'c.jsonl', [modelRecord('claude-sonnet-4-6[1m]', false)]))).session.contextWindow, 200_000);
});

test('words that quote `/model`\'s answer (a typed prompt, a reply) choose no window', async (t) => {
  const dir = tmpDir(t);
  const said = 'Why did it print "Set model to sonnet[1m] (claude-sonnet-4-6[1m])" when I asked for the 1M context?';
  const typed = { type: 'user', uuid: '00000000-0000-4000-8000-00000000000a', isSidechain: false, message: { role: 'user', content: said } };
  const replied = { type: 'assistant', uuid: '00000000-0000-4000-8000-00000000000b', isSidechain: false, message: { id: 'msg_quote', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: said }] } };
  assert.equal((await readTranscriptFile(firstRequestWith(dir, 'typed.jsonl', [typed]))).session.contextWindow, 200_000);
  assert.equal((await readTranscriptFile(firstRequestWith(dir, 'replied.jsonl', [replied]))).session.contextWindow, 200_000);
});

test('a `/model` back to a 200k model after the session ran past 200k: 200k from then on', async (t) => {
  // The real 1M session (256k, then /compact, then 25k), then `/model sonnet` as Claude Code 2.1.328 records it.
  const file = firstRequestWith(tmpDir(t), 'back.jsonl', [], [modelRecord('sonnet')], true);
  assert.equal((await readTranscriptFile(file)).session.contextWindow, 200_000);
});

test('the usage scan (Sessions view, status bar) reads `/model` as the reader does', async (t) => {
  const home = tmpDir(t);
  const project = path.join(home, '.claude', 'projects', '-tmp-def-gen-repo');
  fs.mkdirSync(project, { recursive: true });
  const oneM = firstRequestWith(project, '00000000-0000-4000-8000-000000000001.jsonl', [modelRecord('sonnet[1m]')]);
  const back = firstRequestWith(project, '00000000-0000-4000-8000-000000000002.jsonl', [], [modelRecord('sonnet')], true);
  const { report } = await scanUsage({ env: { HOME: home }, includeDefaults: true, threshold: 150_000, useCache: false });
  for (const [file, window] of [[oneM, 1_000_000], [back, 200_000]] as const) {
    assert.equal((await readTranscriptFile(file)).session.contextWindow, window);
    const usage = report.sessions.find((s) => s.file === file)!;
    assert.match(statusOf([usage], 150_000)!.text, window === 1_000_000 ? /\/1M$|\/1000k$/ : /\/200k$/, path.basename(file));
  }
});
