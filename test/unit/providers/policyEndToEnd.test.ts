// runWithPolicy over the real SDKs, real time and the loopback fakes: request counts, waits, deadline, cancel.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runWithPolicy, type CallPolicyOptions } from '../../../src/core/summary/callPolicy.js';
import type { Summarizer } from '../../../src/core/summary/provider.js';
import { createSummarizer } from '../../../src/node/providers/createSummarizer.js';
import { createOpenAISummarizer } from '../../../src/node/providers/openai.js';
import { systemClock } from '../../../src/node/providers/systemClock.js';
import { DEFAULT_TEXT, type FakeServer } from '../../support/fakeHttp.js';
import { startFakeAnthropic } from '../../support/fakeAnthropic.js';
import { startFakeOpenAI } from '../../support/fakeOpenAI.js';
import { assertNoSecret, KEY } from '../../support/providerAsserts.js';

let anthropic: FakeServer;
let openai: FakeServer;
before(async () => { anthropic = await startFakeAnthropic(KEY); openai = await startFakeOpenAI(KEY); });
after(async () => { await anthropic.close(); await openai.close(); });

const req = { system: 'You summarize.', prompt: 'The transcript.', maxOutputTokens: 256 };

// Small backoff steps keep the suite fast; the arithmetic is tested on virtual time in callPolicy.test.ts.
function policy(extra: Partial<CallPolicyOptions> = {}): CallPolicyOptions {
  return { deadlineMs: 10_000, maxRetries: 2, clock: systemClock, random: () => 0.5, signal: new AbortController().signal, baseDelayMs: 40, ...extra };
}

const providers: { name: string; fake: () => FakeServer; make: () => Summarizer }[] = [
  { name: 'anthropic', fake: () => anthropic, make: () => createSummarizer({ provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseUrl: anthropic.url, timeoutMs: 5000 })! },
  // The SDK-level summarizer: createSummarizer sends an OpenAI key to api.openai.com only, never to a loopback fake.
  { name: 'openai', fake: () => openai, make: () => createOpenAISummarizer({ model: 'gpt-test', apiKey: KEY, baseUrl: `${openai.url}/v1`, timeoutMs: 5000 }) },
  { name: 'openai-compatible', fake: () => openai, make: () => createSummarizer({ provider: 'openai-compatible', model: 'llama', apiKey: KEY, baseUrl: `${openai.url}/v1`, timeoutMs: 5000 })! },
];

for (const p of providers) {
  test(`${p.name}: 500 twice then success makes exactly 3 requests`, async () => {
    const fake = p.fake();
    const n = fake.requests.length;
    fake.script({ kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const out = await runWithPolicy(p.make(), req, policy());
    assert.equal(out.ok, true);
    assert.equal(out.ok && out.result.text, DEFAULT_TEXT);
    assert.equal(out.attempts, 3);
    assert.equal(fake.requests.length - n, 3);
    assertNoSecret(out);
  });

  test(`${p.name}: an outage makes exactly 3 requests, then ok:false well within the deadline`, async () => {
    const fake = p.fake();
    const n = fake.requests.length;
    fake.fallback = { kind: 'status', status: 500 };
    try {
      const t0 = Date.now();
      const out = await runWithPolicy(p.make(), req, policy({ deadlineMs: 5000 }));
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.error.kind, 'server');
      assert.equal(out.attempts, 3);
      assert.equal(fake.requests.length - n, 3);
      assert.ok(Date.now() - t0 < 5000);
      assertNoSecret(out);
    } finally {
      fake.fallback = { kind: 'ok' };
    }
  });

  test(`${p.name}: 401 is one request, no retry`, async () => {
    const fake = p.fake();
    const n = fake.requests.length;
    fake.script({ kind: 'unauthorized' });
    const out = await runWithPolicy(p.make(), req, policy());
    assert.equal(!out.ok && out.error.kind, 'auth');
    assert.equal(fake.requests.length - n, 1);
  });

  test(`${p.name}: prompt too long is one request, no retry`, async () => {
    const fake = p.fake();
    const n = fake.requests.length;
    fake.script({ kind: 'too-long' });
    const out = await runWithPolicy(p.make(), req, policy());
    assert.equal(!out.ok && out.error.kind, 'too-long');
    assert.equal(fake.requests.length - n, 1);
  });

  test(`${p.name}: a truncated answer is retried`, async () => {
    const fake = p.fake();
    const n = fake.requests.length;
    fake.script({ kind: 'truncated' });
    const out = await runWithPolicy(p.make(), req, policy());
    assert.equal(out.ok, true);
    assert.equal(fake.requests.length - n, 2);
  });
}

test('429 with retry-after: 1 is honoured (second request about 1 s later)', async () => {
  anthropic.script({ kind: 'rate-limit', retryAfter: '1' });
  const t0 = Date.now();
  const out = await runWithPolicy(providers[0]!.make(), req, policy());
  const elapsed = Date.now() - t0;
  assert.equal(out.ok, true);
  assert.equal(out.attempts, 2);
  assert.ok(elapsed >= 950 && elapsed < 3000, `elapsed ${elapsed} ms`);
});

test('429 whose retry-after passes the deadline fails at once', async () => {
  openai.script({ kind: 'rate-limit', retryAfter: '30' });
  const t0 = Date.now();
  const out = await runWithPolicy(providers[1]!.make(), req, policy({ deadlineMs: 3000 }));
  assert.equal(!out.ok && out.error.kind, 'rate-limit');
  assert.equal(out.attempts, 1);
  assert.ok(Date.now() - t0 < 1000);
});

for (const p of providers) {
  test(`${p.name}: a hang is aborted at a 1.5 s deadline and the request is torn down`, async () => {
    const fake = p.fake();
    const n = fake.requests.length;
    fake.script({ kind: 'hang' });
    const t0 = Date.now();
    const out = await runWithPolicy(p.make(), req, policy({ deadlineMs: 1500 }));
    const elapsed = Date.now() - t0;
    assert.equal(!out.ok && out.error.kind, 'timeout');
    assert.equal(out.attempts, 1);
    assert.equal(fake.requests.length - n, 1);
    assert.ok(elapsed >= 1450 && elapsed < 2500, `elapsed ${elapsed} ms`);
  });
}

test('the user cancel stops a hanging call immediately', async () => {
  anthropic.script({ kind: 'hang' });
  const user = new AbortController();
  setTimeout(() => user.abort(), 150);
  const t0 = Date.now();
  const out = await runWithPolicy(providers[0]!.make(), req, policy({ signal: user.signal, deadlineMs: 10_000 }));
  const elapsed = Date.now() - t0;
  assert.equal(!out.ok && out.error.kind, 'aborted');
  assert.equal(out.attempts, 1);
  assert.ok(elapsed < 700, `elapsed ${elapsed} ms`);
});

test('the user cancel during a retry-after wait stops without another request', async () => {
  openai.script({ kind: 'rate-limit', retryAfter: '5' });
  const n = openai.requests.length;
  const user = new AbortController();
  setTimeout(() => user.abort(), 200);
  const t0 = Date.now();
  const out = await runWithPolicy(providers[2]!.make(), req, policy({ signal: user.signal }));
  assert.equal(!out.ok && out.error.kind, 'aborted');
  assert.equal(openai.requests.length - n, 1);
  assert.ok(Date.now() - t0 < 1000);
});
