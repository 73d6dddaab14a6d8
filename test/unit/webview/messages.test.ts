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
  { type: 'simulate', sessionId: 's#1', requestId: 0 },
  // Out-of-range numbers pass the guard: the host clamps them (limits.ts).
  { type: 'simulate', sessionId: 's#1', requestId: 2, policy: { threshold: 5, keepRecentTurns: -3, summary: false, summaryTokens: 1e9 } },
  { type: 'previewCleanup', sessionId: 's#1', requestId: 1 },
  { type: 'previewCleanup', sessionId: 's#1', requestId: 1, options: { keepRecentTurns: 6, keepRecentTokens: 0, rules: { 'tool-records': false, unknown: true } } },
  { type: 'openDiff', sessionId: 's#1', options: { keepRecentTurns: 6, keepRecentTokens: 20_000, rules: {} } },
  { type: 'focusShown', sessionId: 's#1', message: 0 },
  { type: 'openDiff', sessionId: 's#1', options: { keepRecentTurns: 6, keepRecentTokens: 20_000, rules: {} }, continueIn: true },
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
  { type: 'focusShown', sessionId: 's#1', message: -1 },
  { type: 'focusShown', sessionId: 's#1', message: '3' },
  { type: 'focusShown', message: 3 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'kind', value: 'user' }, offset: -1, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'kind', value: 'user' }, offset: 0, limit: Infinity },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'line', value: 'user' }, offset: 0, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: { by: 'tool', value: 7 }, offset: 0, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', requestId: 1, filter: null, offset: 0, limit: 10 },
  { type: 'requestItems', sessionId: 's#1', filter: { by: 'tool', value: 'Read' }, offset: 0, limit: 10 },
  { type: 'simulate', sessionId: 's#1' },
  { type: 'simulate', sessionId: 's#1', requestId: -1 },
  { type: 'simulate', requestId: 1 },
  { type: 'simulate', sessionId: 's#1', requestId: 1, policy: { threshold: Infinity, keepRecentTurns: 6, summary: true, summaryTokens: 0 } },
  { type: 'simulate', sessionId: 's#1', requestId: 1, policy: { threshold: '50000', keepRecentTurns: 6, summary: true, summaryTokens: 0 } },
  { type: 'simulate', sessionId: 's#1', requestId: 1, policy: { threshold: 50_000, keepRecentTurns: 6, summary: 'yes', summaryTokens: 0 } },
  { type: 'simulate', sessionId: 's#1', requestId: 1, policy: null },
  { type: 'previewCleanup', sessionId: 's#1', requestId: 1, options: { keepRecentTurns: 6, keepRecentTokens: 0, rules: { 'tool-records': 'off' } } },
  { type: 'previewCleanup', sessionId: 's#1', requestId: 1, options: { keepRecentTurns: 6, rules: {} } },
  { type: 'previewCleanup', sessionId: 's#1', requestId: 1, options: { keepRecentTurns: 6, keepRecentTokens: 0, rules: [] } },
  { type: 'openDiff', sessionId: 's#1' },
  { type: 'openDiff', sessionId: 's#1', options: { keepRecentTurns: 6, keepRecentTokens: 0, rules: {} }, continueIn: 'yes' },
  { type: 'openDiff', sessionId: 's#1', options: { keepRecentTurns: NaN, keepRecentTokens: 0, rules: {} } },
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

test('isWebviewState checks the saved tab and controls', () => {
  const policy = { threshold: 50_000, keepRecentTurns: 4, summary: true, summaryTokens: 2_000 };
  const cleanup = { keepRecentTurns: 6, keepRecentTokens: 0, rules: { 'tool-records': false } };
  assert.equal(isWebviewState({ file: '/s.jsonl', tab: 'simulator', policy, cleanup }), true);
  assert.equal(isWebviewState({ file: '/s.jsonl', tab: 'cleanup' }), true);
  assert.equal(isWebviewState({ file: '/s.jsonl', tab: 'settings' }), false);
  assert.equal(isWebviewState({ file: '/s.jsonl', policy: { ...policy, threshold: null } }), false);
  assert.equal(isWebviewState({ file: '/s.jsonl', cleanup: { ...cleanup, rules: { 'tool-records': 1 } } }), false);
});
