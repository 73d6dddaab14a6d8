// Records that lost a repeated tool call or result when read: what is left of them is written as it was read.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { agentModule } from '../../../src/core/formats/registry';
import { serializeLines } from '../../../src/core/write/serialize';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

/** Reads `file` and writes it back unchanged by cleanup (the writer alone), as text. */
async function writeBack(file: string): Promise<{ warnings: string[]; out: string }> {
  const { session } = await readTranscriptFile(file, { keepRaw: true, lineStore: 'strings' });
  let n = 0;
  const ctx = { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-05T00:00:00Z') };
  const written = agentModule(session.format).write(session, session, ctx) as { kind: string; lines?: Parameters<typeof serializeLines>[0]; files?: { text: string }[] };
  const out = written.kind === 'lines' ? [...serializeLines(written.lines!)].join('') : (written.files ?? []).map((f) => f.text).join('\n');
  return { warnings: session.warnings, out };
}

test('Codex compacted history with a repeated call: the repeat goes, every other item (an image, a structured output) stays as it was', async (t) => {
  const dir = join(tmpDir(t), 'codex');
  mkdirSync(dir);
  const img = `data:image/png;base64,${'A'.repeat(40)}`;
  const output = '{"output":"boom","metadata":{"exit_code":1,"duration_seconds":0.1}}';
  const call = { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_X' };
  const result = { type: 'function_call_output', call_id: 'call_X', output };
  const history = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'look at this' }, { type: 'input_image', image_url: img }] },
    call, result, call, result,
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] },
  ];
  const file = join(dir, CODEX_SAMPLE.replace(/^.*\//, ''));
  writeFileSync(file, `${[
    readFileSync(CODEX_SAMPLE, 'utf8').split('\n')[0],
    JSON.stringify({ timestamp: '2026-12-02T15:48:00.000Z', type: 'compacted', payload: { message: '', replacement_history: history } }),
    JSON.stringify({ timestamp: '2026-12-02T15:49:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'next' }] } }),
  ].join('\n')}\n`);
  const { warnings, out } = await writeBack(file);
  assert.ok(warnings.some((w) => /repeated tool call/.test(w)), JSON.stringify(warnings));
  const line = out.split('\n').find((l) => l.includes('"type":"compacted"'))!;
  const written = (JSON.parse(line) as { payload: { replacement_history: unknown[] } }).payload.replacement_history;
  assert.deepEqual(written, [history[0], call, result, history[5]]);
});

test('Goose: a message that also repeats a call keeps its other tool items whole (error status, image, structuredContent)', async (t) => {
  const dir = join(tmpDir(t), 'goose');
  mkdirSync(dir);
  const V = { userVisible: true, agentVisible: true };
  const callX = { type: 'toolRequest', id: 'X', toolCall: { status: 'success', value: { name: 'dev__shell', arguments: { command: 'ls' } } } };
  const resultX = { type: 'toolResponse', id: 'X', toolResult: { status: 'success', value: { content: [{ type: 'text', text: 'a b' }], isError: false } } };
  const callZ = { type: 'toolRequest', id: 'Z', toolCall: { status: 'error', error: 'unknown tool' } };
  const resultZ = { type: 'toolResponse', id: 'Z', toolResult: { status: 'success', value: { content: [{ type: 'text', text: 'pic' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }], structuredContent: { ok: true }, isError: false } } };
  const lines = [
    { working_dir: '/w', description: 'repeat', message_count: 6 },
    { role: 'user', created: 1, content: [{ type: 'text', text: 'go' }], metadata: V },
    { role: 'assistant', created: 2, content: [callX], metadata: V },
    { role: 'user', created: 3, content: [resultX], metadata: V },
    { role: 'assistant', created: 4, content: [{ type: 'text', text: 'again' }, callX, callZ], metadata: V },
    { role: 'user', created: 5, content: [resultX, resultZ], metadata: V },
    { role: 'assistant', created: 6, content: [{ type: 'text', text: 'ok' }], metadata: V },
  ];
  const file = join(dir, '20251201_101500-repeat.jsonl');
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const { warnings, out } = await writeBack(file);
  assert.ok(warnings.some((w) => /repeated tool call/.test(w)), JSON.stringify(warnings));
  const conversation = (JSON.parse(out) as { conversation: { content: unknown[] }[] }).conversation;
  assert.deepEqual(conversation.map((m) => m.content), [lines[1]!.content, [callX], [resultX], [{ type: 'text', text: 'again' }, callZ], [resultZ], lines[6]!.content]);
});
