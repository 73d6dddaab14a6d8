// With a summary, the verbatim recent part drops the thinking of settled turns (the API takes them without it) but
// keeps the last assistant message's when the part ends inside a tool loop; free reasoning (0 tokens) is left alone.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { withoutSettledReasoning } from '../../../src/core/compact/compactSession';
import type { Block, Message } from '../../../src/core/model/transcript';
import { main } from '../../../src/cli/main';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const ref = { record: 0 };
const think = (tokens: number): Block => ({ type: 'reasoning', text: 'why '.repeat(tokens), ref, tokens, opaqueBytes: 0 });
const say = (t: string): Block => ({ type: 'text', text: t, ref, tokens: 1 });
const call = (id: string): Block => ({ type: 'tool_call', id, name: 'Bash', input: {}, inputText: '{}', ref, tokens: 8 });
const result = (id: string): Block => ({ type: 'tool_result', id, text: 'ok', isError: false, mediaCount: 0, persisted: false, ref, tokens: 4 });
const msg = (role: Message['role'], ...blocks: Block[]): Message => ({ role, blocks, records: [0] });
const reasoning = (ms: readonly Message[]): number[] => ms.flatMap((m) => m.blocks.filter((b) => b.type === 'reasoning').map((b) => b.tokens));

test('a settled recent part loses its thinking; a thinking-only message goes', () => {
  const recent = [msg('user', say('fix it')), msg('assistant', think(50), call('a')), msg('user', result('a')), msg('assistant', think(30)), msg('assistant', say('done'))];
  const out = withoutSettledReasoning(recent);
  assert.deepEqual(reasoning(out.messages), []);
  assert.equal(out.messages.length, 4);
  assert.deepEqual(out.dropped.map((b) => b.tokens), [50, 30]);
});

test('inside a tool loop the last assistant message keeps its thinking; free reasoning stays', () => {
  const recent = [msg('user', say('fix it')), msg('assistant', think(50), call('a')), msg('user', result('a')), msg('assistant', think(0), think(40), call('b')), msg('user', result('b'))];
  const out = withoutSettledReasoning(recent);
  assert.deepEqual(reasoning(out.messages), [0, 40]);
  assert.deepEqual(out.dropped.map((b) => b.tokens), [50]);
});

test('real Claude Code session with a summary: no thinking of its settled recent turns is written', async (t) => {
  const KEY = 'sk-ant-test-recent-reasoning';
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  fake.fallback = { kind: 'ok', text: '## Goal\n- go on' };
  const dir = tmpDir(t);
  // pai-2.0.71-small: a public session (test/fixtures/real/SOURCES.tsv) whose last turns think, then answer.
  const input = `${FIXTURES}/real/corpus/claude-code/pai-2.0.71-small.jsonl`;
  const out = `${dir}/out.jsonl`;
  let stderr = '';
  const code = await main(['compact', input, '--out', out, '--provider', 'anthropic', '--model', 'claude-test', '--base-url', fake.url, '--json'], { stdout: () => {}, stderr: (s) => { stderr += s; }, env: { ANTHROPIC_API_KEY: KEY } });
  assert.equal(code, 0, stderr);
  const { session } = await readTranscriptFile(out);
  const at = session.messages.findIndex((m) => m.blocks.some((b) => b.type === 'summary'));
  assert.ok(at >= 0, 'the summary is written');
  assert.ok(session.messages.slice(at).some((m) => m.role === 'assistant'), 'recent turns are kept');
  assert.deepEqual(reasoning(session.messages.slice(at)), []);
  assert.ok(fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).every((l) => !l.includes('"type":"thinking"')));
});
