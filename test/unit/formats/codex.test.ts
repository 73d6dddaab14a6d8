// Codex reader on a real rollout written by Codex 0.169.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const lines = fs.readFileSync(CODEX_SAMPLE, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, any>);

test('reads identity, model and window from session_meta, turn_context and token_count', async () => {
  const { session } = await readTranscriptFile(CODEX_SAMPLE);
  assert.equal(session.format, 'codex');
  assert.equal(session.id, lines[0]!.payload.id);
  assert.equal(session.cwd, lines[0]!.payload.cwd);
  assert.deepEqual(session.models, ['gpt-5.5']);
  assert.ok((session.contextWindow ?? 0) > 100_000);
});

test('context comes from response items only, event_msg and 0.169 records are kept but not counted', async () => {
  const { session } = await readTranscriptFile(CODEX_SAMPLE);
  assert.equal(session.records.length, lines.length);
  session.records.forEach((r, i) => { if (lines[i]!.type !== 'response_item' && lines[i]!.type !== 'session_meta') assert.equal(r.inContext, false); });
  assert.ok(session.records.some((r) => r.kind === 'world_state'));
  assert.ok(session.records.some((r) => r.kind === 'token_usage_record'));
});

test('links function calls to outputs by call_id', async () => {
  const { session } = await readTranscriptFile(CODEX_SAMPLE);
  const calls = lines.filter((l) => l.type === 'response_item' && l.payload.type === 'function_call').map((l) => l.payload.call_id as string);
  const results = new Map(session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result').map((b) => [(b as { id: string }).id, b]));
  assert.equal(calls.length, results.size);
  for (const id of calls) assert.ok(results.has(id));
  assert.ok([...results.values()].some((b) => b.type === 'tool_result' && b.isError), 'the failing command is an error');
});

test('token_count emitted twice per request is counted once', async () => {
  const { session } = await readTranscriptFile(CODEX_SAMPLE);
  const totals = lines.filter((l) => l.type === 'event_msg' && l.payload.type === 'token_count' && l.payload.info).map((l) => l.payload.info.total_token_usage.total_tokens as number);
  const distinct = totals.filter((t, i) => i === 0 || t !== totals[i - 1]).length;
  const withUsage = session.messages.filter((m) => m.usage).length;
  assert.ok(withUsage > 0 && withUsage <= distinct);
  const lastInfo = [...lines].reverse().find((l) => l.payload?.type === 'token_count' && l.payload.info)!.payload.info;
  assert.equal(session.recordedContext, lastInfo.last_token_usage.input_tokens);
});

test('a compacted record with replacement_history replaces the history', async (t) => {
  const dir = tmpDir(t);
  const file = `${dir}/rollout.jsonl`;
  const meta = lines[0]!;
  const compacted = { timestamp: meta.timestamp, type: 'compacted', payload: { message: 'SUMMARY-TEXT', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'kept prompt' }] }] } };
  fs.writeFileSync(file, [...lines, compacted].map((l) => JSON.stringify(l)).join('\n') + '\n');
  const { session } = await readTranscriptFile(file);
  const texts = session.messages.flatMap((m) => m.blocks).map((b) => ('text' in b ? b.text : ''));
  assert.ok(texts.includes('kept prompt'));
  assert.ok(texts.includes('SUMMARY-TEXT'));
  assert.ok(!session.messages.some((m) => m.blocks.some((b) => b.type === 'tool_result')), 'old tool results are gone');
});
