// The server strategy's requests in the providers' own shapes, from every real transcript, and what comes back:
// Anthropic's summary written back and measured, OpenAI's encrypted item measured by size only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toAnthropicMessages, toResponsesInput } from '../../../src/core/eval/wireMessages';
import { extractProbes } from '../../../src/core/probes/extract';
import { readRawSource } from '../../../src/node/eval/rawSource';
import { serverStrategy } from '../../../src/node/eval/serverStrategy';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { startFakeOpenAI } from '../../support/fakeOpenAI';

test('every real transcript becomes a valid Messages conversation and valid Responses input', async () => {
  for (const f of realTranscripts()) {
    const { session } = await readTranscriptFile(f.file);
    const msgs = toAnthropicMessages(session.messages);
    assert.equal(msgs[0]!.role, 'user', f.label);
    msgs.forEach((m, i) => {
      if (i > 0) assert.notEqual(m.role, msgs[i - 1]!.role, `${f.label}: two ${m.role} messages in a row at ${i}`);
      const uses = m.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
      const next = msgs[i + 1]?.content ?? [];
      const results = next.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id);
      for (const id of uses) assert.ok(results.includes(id), `${f.label}: tool_use ${id} unanswered`);
      const firstText = m.content.findIndex((b) => b.type !== 'tool_result');
      const lastResult = m.content.map((b) => b.type).lastIndexOf('tool_result');
      if (m.role === 'user' && firstText >= 0 && lastResult >= 0) assert.ok(lastResult < firstText, `${f.label}: tool results must lead message ${i}`);
    });
    const called = new Set<string>();
    for (const item of toResponsesInput(session.messages)) {
      if (item.type === 'function_call') called.add(item.call_id);
      if (item.type === 'function_call_output') assert.ok(called.has(item.call_id), `${f.label}: output before its call ${item.call_id}`);
    }
  }
});

const file = (key: string): string => realTranscripts().find((f) => f.file.includes(key))!.file;
const config = (provider: 'anthropic' | 'openai', baseUrl: string, apiKey: string) =>
  ({ provider, model: provider === 'openai' ? 'gpt-5-mini' : 'claude-sonnet-4-5', baseUrl, apiKey, timeoutSeconds: 30, maxOutputTokens: 4000, maxInputTokens: 150_000 });

test('Anthropic: the compaction block\'s summary replaces the history and is measured like ours', async (t) => {
  const fake = await startFakeAnthropic('k-a');
  t.after(() => fake.close());
  fake.script({ kind: 'ok', text: 'Goal: finish the poker MVP. Files: apps/api/src/ws/tableHub.ts. Next: run pnpm test.' });
  const f = file('specify-poker');
  const row = await serverStrategy(f, config('anthropic', fake.url, 'k-a'), (s) => extractProbes(readRawSource(f, s)), new AbortController().signal);
  assert.equal(row.status, 'ok', row.failure);
  assert.equal(row.modelCalls, 1);
  assert.ok(row.historyReduction! > 0.9, `history cut ${row.historyReduction}`);
  assert.ok(row.probesKept! > 0 && row.probesKept! < 0.5, `probes ${row.probesKept}`);
  // The file the summary names is a probe it keeps; what it does not name is lost.
  assert.ok(row.probes.files!.kept >= 1 && row.lost.length > 0, JSON.stringify(row.probes.files));
  const sent = fake.requests[0]!.body as { messages: { role: string }[] };
  assert.equal(sent.messages[0]!.role, 'user');
});

test('OpenAI: responses.compact keeps the user messages and an encrypted item — sizes only, no probes or recall', async (t) => {
  const fake = await startFakeOpenAI('k-o');
  t.after(() => fake.close());
  const f = file('ocodex-0.2x');
  // Only the host rule (an OpenAI key goes to api.openai.com alone) is lifted, so the loopback can stand in.
  const row = await serverStrategy(f, config('openai', `${fake.url}/v1`, 'k-o'), (s) => extractProbes(readRawSource(f, s)), new AbortController().signal, () => undefined);
  assert.equal(row.status, 'ok', row.failure);
  assert.equal(fake.requests[0]!.path, '/v1/responses/compact');
  assert.equal(row.probesKept, null);
  assert.equal(row.identifierRecall, null);
  assert.ok(row.historyReduction! > 0 && row.historyReduction! < 1);
  assert.match(row.notes!.join(' '), /encrypted/);
});

test('an OpenAI-compatible server has no compaction endpoint: the row is skipped with the reason', async () => {
  const row = await serverStrategy(file('ocodex-0.2x'), { ...config('openai', 'http://127.0.0.1:9/v1', 'k'), provider: 'openai-compatible' }, (s) => extractProbes(readRawSource(file('ocodex-0.2x'), s)), new AbortController().signal);
  assert.equal(row.status, 'skipped');
  assert.match(row.skipped!, /no compaction endpoint/);
});
