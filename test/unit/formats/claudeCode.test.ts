// Claude Code reader on a real transcript written by Claude Code 2.1.328.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE } from '../../support/fixtures';

const lines = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, any>);

test('reads the session identity from the records', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  assert.equal(session.format, 'claude-code');
  assert.equal(session.id, lines.find((l) => l.sessionId)!.sessionId);
  assert.equal(session.cwd, lines.find((l) => l.cwd)!.cwd);
  assert.match(session.title ?? '', /^Task 1: investigate/);
  assert.deepEqual(session.models, ['claude-opus-5-5']);
  assert.deepEqual(session.warnings, []);
});

test('keeps every record, including types the model does not know', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  assert.equal(session.records.length, lines.length);
  const kinds = new Set(session.records.map((r) => r.kind));
  for (const k of ['queue-operation', 'api-request', 'last-prompt', 'atis-latch', 'mode']) assert.ok(kinds.has(k), k);
  // Bookkeeping records never count as context.
  session.records.forEach((r, i) => { if (!['user', 'assistant', 'system'].includes(lines[i]!.type) && lines[i]!.type !== 'attachment') assert.equal(r.inContext, false, `line ${i + 1}`); });
});

test('groups one API response split over several records into one message, usage counted once', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  const assistantIds = new Set(lines.filter((l) => l.type === 'assistant').map((l) => l.message.id));
  const assistants = session.messages.filter((m) => m.role === 'assistant');
  assert.equal(assistants.length, assistantIds.size);
  assert.ok(assistants.some((m) => m.records.length > 1), 'some response spans several records');
  for (const m of assistants) assert.ok(m.usage, `usage on ${m.apiId}`);
});

test('links every tool call to its result', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  const calls = session.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_call').map((b) => (b as { id: string }).id));
  const results = new Set(session.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_result').map((b) => (b as { id: string }).id)));
  assert.ok(calls.length >= 20);
  for (const id of calls) assert.ok(results.has(id), `result for ${id}`);
});

test('marks spilled outputs and every block points back at its record', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  const results = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result');
  assert.ok(results.some((b) => b.type === 'tool_result' && b.persisted));
  for (const m of session.messages) for (const b of m.blocks) assert.ok(m.records.includes(b.ref.record));
});

test('model turns carry the recorded context of their request', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  const model = session.turns.filter((t) => t.kind === 'model');
  assert.ok(model.length > 10);
  const last = [...lines].reverse().find((l) => l.type === 'assistant')!.message.usage;
  assert.equal(session.recordedContext, last.input_tokens + last.cache_read_input_tokens + last.cache_creation_input_tokens);
  assert.equal(session.turns.filter((t) => t.kind === 'user').length, lines.filter((l) => l.type === 'user' && typeof l.message.content === 'string').length);
});
