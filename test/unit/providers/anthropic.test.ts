// The Anthropic summarizer, through the real SDK, against the loopback fake Messages API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAnthropicSummarizer } from '../../../src/node/providers/anthropic.js';
import { DEFAULT_TEXT, type Fault, type FakeServer } from '../../support/fakeHttp.js';
import { startFakeAnthropic } from '../../support/fakeAnthropic.js';
import { assertNoSecret, KEY, never, rejectsWithKind } from '../../support/providerAsserts.js';
import { WAIT_MS } from '../../support/waits.js';

let fake: FakeServer;
before(async () => { fake = await startFakeAnthropic(KEY); });
after(() => fake.close());

const req = { system: 'You summarize.', prompt: 'The transcript text.', maxOutputTokens: 512 };
const make = (stream: boolean, extra: { apiKey?: string; timeoutMs?: number } = {}) =>
  createAnthropicSummarizer({ model: 'claude-test', apiKey: extra.apiKey ?? KEY, baseUrl: fake.url, timeoutMs: extra.timeoutMs ?? 5000, stream });

for (const stream of [true, false]) {
  const mode = stream ? 'stream' : 'json';

  test(`${mode}: success returns text, usage, stop reason and model; the key goes in Authorization`, async () => {
    const before = fake.requests.length;
    const result = await make(stream).summarize(req, never());
    assert.equal(result.text, DEFAULT_TEXT);
    assert.equal(result.model, 'claude-test');
    assert.equal(result.stopReason, 'end_turn');
    assert.equal(result.inputTokens, Math.ceil((req.system + req.prompt).length / 4));
    assert.equal(result.outputTokens, Math.ceil(DEFAULT_TEXT.length / 4));
    assertNoSecret(result);
    assert.equal(fake.requests.length, before + 1, 'maxRetries: 0 means one HTTP request');
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.path, '/v1/messages');
    // SDK 1.16 sends the API key as a bearer token (older versions used x-api-key).
    assert.equal(sent.auth, `Bearer ${KEY}`);
    assert.equal(sent.headers['x-stainless-retry-count'], '0');
    assert.ok(sent.headers['anthropic-version']);
    assert.deepEqual(sent.body, {
      model: 'claude-test', max_tokens: 512, system: req.system,
      messages: [{ role: 'user', content: req.prompt }], ...(stream ? { stream: true } : {}),
    });
  });

  const cases: [Fault, Parameters<typeof rejectsWithKind>[1]][] = [
    [{ kind: 'status', status: 500 }, 'server'],
    [{ kind: 'status', status: 529 }, 'server'],
    [{ kind: 'unauthorized' }, 'auth'],
    [{ kind: 'too-long' }, 'too-long'],
    [{ kind: 'status', status: 404, message: 'model: claude-nope' }, 'other'],
    [{ kind: 'invalid-json' }, 'malformed'],
    [{ kind: 'truncated' }, 'truncated'],
    [{ kind: 'empty' }, 'malformed'],
    [{ kind: 'cut' }, 'truncated'],
    ...(stream ? [[{ kind: 'end-early' }, 'truncated'], [{ kind: 'stream-error' }, 'server']] as [Fault, 'truncated' | 'server'][] : []),
  ];
  for (const [fault, kind] of cases) {
    test(`${mode}: ${fault.kind}${fault.kind === 'status' ? ` ${fault.status}` : ''} -> ${kind}`, async () => {
      fake.script(fault);
      const e = await rejectsWithKind(make(stream).summarize(req, never()), kind);
      if (fault.kind === 'status') assert.equal(e.status, fault.status);
    });
  }

  test(`${mode}: 429 carries retry-after in seconds and as an HTTP date`, async () => {
    fake.script({ kind: 'rate-limit', retryAfter: '3' });
    const e = await rejectsWithKind(make(stream).summarize(req, never()), 'rate-limit');
    assert.equal(e.retryAfterMs, 3000);
    assert.equal(e.status, 429);
    fake.script({ kind: 'rate-limit', retryAfter: new Date(Date.now() + 60_000).toUTCString() });
    const d = await rejectsWithKind(make(stream).summarize(req, never()), 'rate-limit');
    assert.ok(d.retryAfterMs! > 55_000 && d.retryAfterMs! <= 60_000, `got ${d.retryAfterMs}`);
  });
}

// Only the SDK's timeout can end these calls (a broken one hangs until the test's bound); how fast is not asserted.
test('a hang ends in timeout at the SDK timeout', { timeout: WAIT_MS }, async () => {
  fake.script({ kind: 'hang' });
  await rejectsWithKind(make(true, { timeoutMs: 300 }).summarize(req, never()), 'timeout');
});

test('aborting the signal ends a hanging call with aborted', { timeout: WAIT_MS }, async () => {
  fake.script({ kind: 'hang' });
  const ctl = new AbortController();
  setTimeout(() => ctl.abort(), 100);
  // The SDK's timeout is far beyond the test's bound: only the abort can end the call ('aborted', not 'timeout').
  await rejectsWithKind(make(false, { timeoutMs: 10 * WAIT_MS }).summarize(req, ctl.signal), 'aborted');
});

test('a wrong key gets auth, and the wrong key is not in the error', async () => {
  const wrong = 'sk-wrong-S3CRET-9876543210fedcba';
  const e = await rejectsWithKind(make(true, { apiKey: wrong }).summarize(req, never()), 'auth');
  assertNoSecret(e, wrong);
  assert.equal(fake.requests.at(-1)!.auth, `Bearer ${wrong}`);
});

test('nothing listening gives network', async () => {
  const s = createAnthropicSummarizer({ model: 'm', apiKey: KEY, baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
  await rejectsWithKind(s.summarize(req, never()), 'network');
});

test('countTokens returns the server count exactly', async () => {
  const input = { system: 'sys prompt', messages: [{ role: 'user' as const, content: 'hello there' }, { role: 'assistant' as const, content: 'hi!' }] };
  const n = await make(false).countTokens!(input, never());
  assert.equal(n, Math.ceil('sys prompthello therehi!'.length / 4));
  const sent = fake.requests.at(-1)!;
  assert.equal(sent.path, '/v1/messages/count_tokens');
  assert.deepEqual(sent.body, { model: 'claude-test', system: 'sys prompt', messages: input.messages });
});

test('countTokens maps errors too', async () => {
  fake.script({ kind: 'unauthorized' });
  await rejectsWithKind(make(false).countTokens!({ system: '', messages: [{ role: 'user', content: 'x' }] }, never()), 'auth');
});
