// The protocol guards: what the host accepts from the webview, and what the serializer restores.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isFromWebview, isWebviewState } from '../../../src/protocol/messages';

const accepted = [
  { type: 'ready' },
  { type: 'reload' },
  { type: 'requestItems', sessionId: 's#1', requestId: 3, filter: { by: 'kind', value: 'tool_result' }, offset: 0, limit: 200 },
  { type: 'requestItems', sessionId: 's#1', requestId: 0, filter: { by: 'tool', value: 'Read' }, offset: 400, limit: 1 },
  { type: 'jumpToSource', sessionId: 's#1', line: 44 },
] as const;

const rejected = [
  null, undefined, 'ready', 42, [], [{ type: 'ready' }], {},
  { type: 'readyy' },
  { type: 'sessionLoaded', sessionId: 's', view: {} }, // a host → webview message
  { type: 'jumpToSource', sessionId: 's#1', line: 0 },
  { type: 'jumpToSource', sessionId: 's#1', line: 1.5 },
  { type: 'jumpToSource', sessionId: 's#1', line: '44' },
  { type: 'jumpToSource', line: 44 },
  { type: 'jumpToSource', sessionId: '', line: 44 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'kind', value: 'user' }, offset: -1, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'kind', value: 'user' }, offset: 0, limit: Infinity },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'line', value: 'user' }, offset: 0, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'tool', value: 7 }, offset: 0, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: null, offset: 0, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', filter: { by: 'tool', value: 'Read' }, offset: 0, limit: 10 },
] as const;

for (const m of accepted) test(`isFromWebview accepts ${JSON.stringify(m)}`, () => assert.equal(isFromWebview(m), true));
for (const m of rejected) test(`isFromWebview rejects ${JSON.stringify(m)}`, () => assert.equal(isFromWebview(m), false));

test('isWebviewState needs a non-empty file path', () => {
  assert.equal(isWebviewState({ file: '/home/u/.claude/projects/x/s.jsonl' }), true);
  assert.equal(isWebviewState({ file: '' }), false);
  assert.equal(isWebviewState({}), false);
  assert.equal(isWebviewState(undefined), false);
  assert.equal(isWebviewState('/x.jsonl'), false);
});

test('isWebviewState checks a saved selection too', () => {
  assert.equal(isWebviewState({ file: '/s.jsonl', selected: { by: 'tool', value: 'Bash' } }), true);
  assert.equal(isWebviewState({ file: '/s.jsonl', selected: { by: 'kind', value: 'tool_result' } }), true);
  assert.equal(isWebviewState({ file: '/s.jsonl', selected: { by: 'turn', value: '3' } }), false);
  assert.equal(isWebviewState({ file: '/s.jsonl', selected: 'Bash' }), false);
});
