// Parsing and dedupe on real Claude Code 2.1.328 and Codex 0.169 transcripts (trimmed at line boundaries).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLAUDE_DIR, CLAUDE_FILE, CODEX_DIR, CODEX_FILE, fixtureLines, scanDirs, tempDir, totalsOf } from './helpers';

type Rec = { type?: string; isSidechain?: boolean; requestId?: string; message?: { id?: string; model?: string; usage?: Record<string, number> } };

test('Claude session: metadata, title, context and deduped totals', async () => {
  const { report } = await scanDirs([CLAUDE_DIR]);
  assert.equal(report.sessions.length, 1);
  const s = report.sessions[0];
  assert.equal(s.agent, 'claude-code');
  assert.equal(s.sessionId, 'ab9a2988-b392-46b5-a150-6191e63efe31');
  assert.equal(s.project, '/tmp/tmp.SqKaBIBLXl/repo'); // from `cwd`, not the folder name
  assert.equal(s.title, 'Task 1: investigate how npm handles "workspace", reproduce the missing-module e…');
  assert.deepEqual(s.models, ['claude-opus-5-5']);
  assert.equal(s.firstTimestamp, '2026-12-02T15:47:43.878Z'); // the queue-operation that opened the session
  assert.equal(s.lastTimestamp, '2026-12-02T15:47:45.537Z');
  // Last main-chain response: input 3 + cache read 26864 + cache_creation_input_tokens 2000.
  assert.equal(s.contextTokens, 28867);
  assert.equal(s.compactSoon, false);
  assert.deepEqual(totalsOf({ report } as never), [12, 340, 0, 66210]);
  // claude-opus-5-5 per the catalog: $4 in, $20 out, $0.20 cache read per million.
  assert.ok(Math.abs((s.cost ?? NaN) - (12 * 4 + 340 * 20 + 66210 * 0.2) / 1e6) < 1e-12, String(s.cost));
  assert.deepEqual(report.unknownModels, []);
});

test('a response split into one record per block is counted once', async () => {
  const recs = fixtureLines(CLAUDE_FILE).map((l) => JSON.parse(l) as Rec).filter((r) => r.type === 'assistant');
  const ids = new Set(recs.map((r) => r.message?.id));
  assert.ok(recs.length > ids.size, 'fixture has block-split responses');
  const sum = (rs: Rec[]): number => rs.reduce((n, r) => n + (r.message?.usage?.cache_read_input_tokens ?? 0), 0);
  const lastPerId = new Map(recs.map((r) => [r.message?.id, r]));
  const { report } = await scanDirs([CLAUDE_DIR]);
  assert.notEqual(report.totals.cacheReadTokens, sum(recs));
  assert.equal(report.totals.cacheReadTokens, sum([...lastPerId.values()]));
});

test('the fullest row wins whatever the order, sidechain replays and <synthetic> rows are dropped', async (t) => {
  const dir = tempDir(t);
  const lines = fixtureLines(CLAUDE_FILE);
  // Shrink the output of every assistant record except each group's last one, then reverse the order:
  // keeping "first seen" or "last seen" would both be wrong; only "fullest" gives the original total.
  const recs = lines.map((l) => JSON.parse(l) as Rec);
  const lastIndex = new Map<string, number>();
  recs.forEach((r, i) => r.type === 'assistant' && lastIndex.set(r.message?.id as string, i));
  const shrunk = recs.map((r, i) => {
    if (r.type !== 'assistant' || lastIndex.get(r.message?.id as string) === i) return r;
    const c = structuredClone(r);
    (c.message?.usage as Record<string, number>).output_tokens = 1;
    return c;
  });
  const assistants = shrunk.filter((r) => r.type === 'assistant').reverse();
  const main = [...shrunk.filter((r) => r.type !== 'assistant'), ...assistants];
  const synthetic = structuredClone(recs.find((r) => r.type === 'assistant') as Rec);
  synthetic.message = { ...synthetic.message, id: 'msg_synthetic', model: '<synthetic>', usage: { input_tokens: 999, output_tokens: 999 } };
  main.push(synthetic);
  mkdirSync(join(dir, 'p', 'sess', 'subagents'), { recursive: true });
  writeFileSync(join(dir, 'p', 'sess.jsonl'), main.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // A /btw-style side file replaying the parent's messages under new request ids.
  const replay = recs.filter((r) => r.type === 'assistant').map((r) => ({ ...r, isSidechain: true, requestId: 'req_side' }));
  writeFileSync(join(dir, 'p', 'sess', 'subagents', 'agent-a1.jsonl'), replay.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const result = await scanDirs([dir]);
  assert.deepEqual(totalsOf(result), [12, 340, 0, 66210]);
  assert.ok(!result.report.sessions.some((s) => s.models.includes('<synthetic>')));
});

test('Codex rollout: both token_usage_record and token_count are read, each request counted once', async () => {
  const { report } = await scanDirs([CODEX_DIR]);
  assert.equal(report.sessions.length, 1);
  const s = report.sessions[0];
  assert.equal(s.agent, 'codex');
  assert.equal(s.sessionId, '01a23770-bb97-7083-97f3-a496988e50fc');
  assert.equal(s.project, '/tmp/tmp.USjQqTv2c5/repo');
  assert.equal(s.title, 'Task 1: investigate how npm handles "workspace", reproduce the missing-module e…');
  assert.deepEqual(s.models, ['gpt-5.5']);
  // The trimmed file ends on a token_usage_record whose token_count twin was cut off: its
  // thread_token_usage is the truth (input 100301 of which 90301 cached, output 410).
  assert.deepEqual([s.inputTokens, s.outputTokens, s.cacheCreationTokens, s.cacheReadTokens], [10000, 410, 0, 90301]);
  assert.equal(s.contextTokens, 38022);
});

test('Codex: token_count emitted twice (older builds) is not double counted', async (t) => {
  const dir = tempDir(t);
  const doubled = fixtureLines(CODEX_FILE).flatMap((l) => (l.includes('"token_count"') ? [l, l] : [l]));
  const withoutRecords = doubled.filter((l) => !l.includes('"type":"token_usage_record"'));
  writeFileSync(join(dir, 'rollout-2026-12-02T15-47-44-aaaaaaaa-bb97-7083-97f3-a496988e50fc.jsonl'), withoutRecords.join('\n') + '\n');
  const { report } = await scanDirs([dir]);
  // Without the last record, the last token_count total is 62279 input (54279 cached), 340 output.
  assert.deepEqual(totalsOf({ report } as never), [8000, 340, 0, 54279]);
});

test('all sessions: report totals are the sum of the session rows', async () => {
  const { report } = await scanDirs([CLAUDE_DIR, CODEX_DIR], { threshold: 30000 });
  assert.equal(report.sessions.length, 2);
  const sum = report.sessions.reduce((n, s) => n + s.cacheReadTokens, 0);
  assert.equal(report.totals.cacheReadTokens, sum);
  assert.deepEqual(report.sessions.map((s) => s.compactSoon).sort(), [false, true]);
});
