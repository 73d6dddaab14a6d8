// Writers: a compacted transcript is a consistent NEW session in the agent's own format.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { serializeLines } from '../../../src/core/write/serialize';
import { compactFile, prepareCompaction } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE, linesOf } from '../../support/fixtures';
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
  // The oldest calls became the state snapshot; the middle band and the recent part keep theirs, each answered.
  assert.ok(uses.length >= 5 && uses.every((id: string) => results.has(id)));
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
  assert.ok(calls.length >= 5 && calls.every((c) => outs.has(c)));
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

test('Codex: a CRLF rollout with a padded line and a stray array line gives LF-only JSON lines, ordinals dense', async (t) => {
  const dir = tmpDir(t);
  const src = fs.readFileSync(CODEX_SAMPLE, 'utf8').trimEnd().split('\n');
  // One kept line padded with a no-break space (JSON.parse would refuse it as is), and an array line.
  const padded = src.findIndex((l, i) => i > 3 && l.includes('"type":"event_msg"') && !l.includes('token_count'));
  const { ordinal: _o, ...paddedRec } = JSON.parse(src[padded]!);
  src[padded] = `\u00a0${src[padded]}`;
  src.splice(5, 0, '[1,2,3]');
  const input = `${dir}/rollout-crlf.jsonl`;
  fs.writeFileSync(input, src.join('\r\n') + '\r\n');
  const out = `${dir}/out.jsonl`;
  await compactFile(input, { cleanup: { keepRecentTurns: 6 }, out });
  const text = fs.readFileSync(out, 'utf8');
  assert.ok(!text.includes('\r'), 'no CR left');
  const recs = text.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.ok(recs.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r)), 'every line is one JSON object');
  recs.forEach((r, i) => assert.equal(r.ordinal, i));
  assert.ok(recs.some(({ ordinal: _r, ...r }) => JSON.stringify(r) === JSON.stringify(paddedRec)), 'the padded line is written, re-serialized');
});

test('line texts kept as bytes or as strings compact to the same output', async () => {
  for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
    const a = await prepareCompaction(file, { keepRecentTurns: 6 });
    const b = await prepareCompaction(file, { keepRecentTurns: 6 }, { lineStore: 'strings' });
    assert.ok(a.original.rawLines && !b.original.rawLines, 'one read kept the Buffer, the other strings');
    const norm = (p: typeof a): string => [...serializeLines(linesOf(p.outcome.written))].join('').replaceAll(p.outcome.sessionId, 'SID').replace(/"uuid":"[^"]+"|"parentUuid":"[^"]+"|"sourceToolAssistantUUID":"[^"]+"/g, 'U');
    assert.equal(norm(a), norm(b), file);
  }
});
