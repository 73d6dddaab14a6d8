// Old tool-call arguments as records: a malformed call whose text sits in an argument's name shrinks too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callRecord } from '../../../src/core/cleanup/argRecords';
import { IdentifierListing } from '../../../src/core/cleanup/listing';
import type { ToolCallBlock } from '../../../src/core/model/transcript';
import { stringifySafe } from '../../../src/core/read/safeJson';
import { estimateTokens } from '../../../src/core/tokens/estimate';

test('callRecord: an argument name of 100,000 characters (a model that broke its JSON, golfiq-0.40.0) is shrunk like a long value', () => {
  // The shape Codex 0.40 recorded: the command's text became a key of the arguments object.
  const key = `-NoLogo -Command "(Get-Content -Raw 'server/services/caddie_core/engine.py').Replace('a','b')" ${'to=functions.shell '.repeat(5000)}`;
  const input = { command: 'powershell.exe', [key]: '' };
  const inputText = stringifySafe(input);
  const call: ToolCallBlock = { type: 'tool_call', id: 'call_1', name: 'shell', input, inputText, ref: { record: 0 }, tokens: estimateTokens(inputText) };
  const r = callRecord(call, { argChars: 160, identifierChars: 4000 }, new IdentifierListing(undefined));
  assert.ok(r, 'a record is made');
  assert.ok(r.inputText.length < 2000, `record is ${r.inputText.length} chars`);
  const names = Object.keys(r.input as Record<string, unknown>);
  assert.equal(names[0], 'command');
  assert.equal((r.input as Record<string, unknown>).command, 'powershell.exe');
  assert.match(names[1]!, /^\[context-compactor: 1 lines of text \(\d+ chars\); first: -NoLogo/);
  // The path the call named is still in the record.
  assert.match(r.inputText, /server\/services\/caddie_core\/engine\.py/);
});

test('callRecord: ordinary argument names stay as they are', () => {
  const input = { file_path: 'src/a.ts', content: 'x\n'.repeat(500) };
  const inputText = stringifySafe(input);
  const call: ToolCallBlock = { type: 'tool_call', id: 'c', name: 'Write', input, inputText, ref: { record: 0 }, tokens: estimateTokens(inputText) };
  const r = callRecord(call, { argChars: 160, identifierChars: 4000 }, new IdentifierListing(undefined));
  assert.deepEqual(Object.keys(r!.input as Record<string, unknown>), ['file_path', 'content']);
});
