// Writers: a compacted transcript is a consistent NEW session in the agent's own format.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { compactFile } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const sha = (p: string): string => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
const lines = (p: string): any[] => fs.readFileSync(p, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));

test('Claude Code: new session id, fresh uuids, one linear parentUuid chain, original untouched', async (t) => {
  const before = sha(CLAUDE_SAMPLE);
  const out = `${tmpDir(t)}/c.jsonl`;
  const report = await compactFile(CLAUDE_SAMPLE, { cleanup: { keepRecentTurns: 6 }, out });
  assert.equal(sha(CLAUDE_SAMPLE), before);
  const recs = lines(out);
  const origIds = new Set(lines(CLAUDE_SAMPLE).map((r) => r.uuid).filter(Boolean));
  assert.ok(recs.every((r) => r.sessionId === report.sessionId && !origIds.has(r.uuid) && r.isSidechain === false));
  assert.equal(recs[0].parentUuid, null);
  recs.forEach((r, i) => { if (i > 0) assert.equal(r.parentUuid, recs[i - 1].uuid); });
  assert.equal(new Set(recs.map((r) => r.uuid)).size, recs.length);
  assert.ok(recs.every((r, i) => i === 0 || r.timestamp >= recs[i - 1].timestamp), 'timestamps never go back');
  assert.ok(recs.every((r) => Object.keys(r)[0] === 'parentUuid'), 'parentUuid first, as Claude Code writes it');
  // Copies carry no billable usage: the original already paid for it.
  assert.ok(recs.filter((r) => r.type === 'assistant').every((r) => r.message.usage.input_tokens === 0 && r.message.usage.output_tokens === 0));
  // Every tool_use is answered later in the file.
  const uses = recs.flatMap((r) => (r.type === 'assistant' ? r.message.content.filter((c: any) => c.type === 'tool_use').map((c: any) => c.id) : []));
  const results = new Set(recs.flatMap((r) => (r.type === 'user' && Array.isArray(r.message.content) ? r.message.content.filter((c: any) => c.type === 'tool_result').map((c: any) => c.tool_use_id) : [])));
  assert.ok(uses.length > 10 && uses.every((id: string) => results.has(id)));
  const { session } = await readTranscriptFile(out);
  assert.equal(session.id, report.sessionId);
  assert.equal(session.messages.length, report.after.messages);
});

test('Codex: session_meta first with the new id, dense ordinals, no stale usage, pairs kept', async (t) => {
  const before = sha(CODEX_SAMPLE);
  const out = `${tmpDir(t)}/x.jsonl`;
  const report = await compactFile(CODEX_SAMPLE, { cleanup: { keepRecentTurns: 6 }, out });
  assert.equal(sha(CODEX_SAMPLE), before);
  const recs = lines(out);
  assert.equal(recs[0].type, 'session_meta');
  assert.equal(recs[0].payload.id, report.sessionId);
  assert.match(report.sessionId, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'UUIDv7 as Codex uses');
  recs.forEach((r, i) => assert.equal(r.ordinal, i));
  assert.ok(!recs.some((r) => r.type === 'token_usage_record' || r.payload?.type === 'token_count'));
  const calls = recs.filter((r) => r.payload?.type === 'function_call').map((r) => r.payload.call_id);
  const outs = new Set(recs.filter((r) => r.payload?.type === 'function_call_output').map((r) => r.payload.call_id));
  assert.ok(calls.length > 10 && calls.every((c) => outs.has(c)));
  assert.ok(recs.some((r) => r.payload?.type === 'user_message' || (r.payload?.type === 'message' && r.payload.role === 'user')));
});

test('refuses to overwrite the original', async () => {
  await assert.rejects(compactFile(CLAUDE_SAMPLE, { cleanup: { keepRecentTurns: 6 }, out: CLAUDE_SAMPLE }), /refusing to overwrite/);
});

test('a compacted Claude Code session reads back with estimated, not zero, context figures', async (t) => {
  const out = `${tmpDir(t)}/c.jsonl`;
  await compactFile(CLAUDE_SAMPLE, { cleanup: { keepRecentTurns: 6 }, out });
  const { session } = await readTranscriptFile(out);
  assert.equal(session.recordedContext, undefined);
  assert.ok(session.turns.every((turn) => turn.recordedContext === undefined));
});
