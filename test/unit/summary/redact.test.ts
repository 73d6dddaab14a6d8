// redact(), oneLine(), parseRetryAfter() and ProviderError's message hygiene.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oneLine, redact } from '../../../src/core/summary/redact.js';
import { parseRetryAfter } from '../../../src/core/summary/retryAfter.js';
import { ProviderError } from '../../../src/core/summary/provider.js';

test('redact removes every occurrence, including the URL-encoded form', () => {
  const key = 'sk-a/b+c=d-123456';
  const text = `bad key ${key}, again ${key}, encoded ${encodeURIComponent(key)}`;
  const out = redact(text, [key]);
  assert.equal(out.includes(key), false);
  assert.equal(out.includes(encodeURIComponent(key)), false);
  assert.equal(out.match(/\[REDACTED\]/g)?.length, 3);
});

test('redact ignores missing and too-short secrets', () => {
  assert.equal(redact('a b c', [undefined, '', 'b']), 'a b c');
});

test('oneLine flattens newlines and caps the length', () => {
  assert.equal(oneLine('a\n  b\r\n\tc'), 'a b c');
  const long = oneLine('x'.repeat(1000));
  assert.equal(long.length, 300);
  assert.ok(long.endsWith('…'));
});

test('ProviderError messages are one line', () => {
  const e = new ProviderError('server', 'line one\nline two', { status: 500 });
  assert.equal(e.message, 'line one line two');
  assert.equal(e.kind, 'server');
  assert.equal(e.status, 500);
  assert.equal(e.retryAfterMs, undefined);
});

test('parseRetryAfter reads seconds, HTTP dates and retry-after-ms', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const h = (map: Record<string, string>) => (name: string) => map[name];
  assert.equal(parseRetryAfter(h({ 'retry-after': '2' }), now), 2000);
  assert.equal(parseRetryAfter(h({ 'retry-after': '1.5' }), now), 1500);
  assert.equal(parseRetryAfter(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now), 3000);
  assert.equal(parseRetryAfter(h({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), now), 0);
  assert.equal(parseRetryAfter(h({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
  assert.equal(parseRetryAfter(h({ 'retry-after': 'soon' }), now), undefined);
  assert.equal(parseRetryAfter(h({}), now), undefined);
});
