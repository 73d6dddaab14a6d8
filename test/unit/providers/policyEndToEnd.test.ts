// runWithPolicy over the real SDKs, real time and the loopback fakes: request counts, waits, deadline, cancel. No
// assert on how long anything took beyond a lower bound: which waits were started and how each ended says it instead.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { runWithPolicy, type CallPolicyOptions, type Clock } from '../../../src/core/summary/callPolicy.js';
import type { Summarizer } from '../../../src/core/summary/provider.js';
import { createSummarizer } from '../../../src/node/providers/createSummarizer.js';
import { createOpenAISummarizer } from '../../../src/node/providers/openai.js';
import { systemClock } from '../../../src/node/providers/systemClock.js';
import { DEFAULT_TEXT, type FakeServer } from '../../support/fakeHttp.js';
import { startFakeAnthropic } from '../../support/fakeAnthropic.js';
import { startFakeOpenAI } from '../../support/fakeOpenAI.js';
import { assertNoSecret, KEY } from '../../support/providerAsserts.js';
import { WAIT_MS } from '../../support/waits.js';

let anthropic: FakeServer;
let openai: FakeServer;
before(async () => { anthropic = await startFakeAnthropic(KEY); openai = await startFakeOpenAI(KEY); });
after(async () => { await anthropic.close(); await openai.close(); });

const req = { system: 'You summarize.', prompt: 'The transcript.', maxOutputTokens: 256 };

// Small backoff steps keep the suite fast; the arithmetic is tested on virtual time in callPolicy.test.ts.
function policy(extra: Partial<CallPolicyOptions> = {}): CallPolicyOptions {
  return { deadlineMs: 10_000, maxRetries: 2, clock: systemClock, random: () => 0.5, signal: new AbortController().signal, baseDelayMs: 40, ...extra };
}

/** Each wait the policy starts (the attempt's deadline timer, a retry's wait) and how it ended: its time, or an abort. */
interface Slept { readonly ms: number; ended?: 'fired' | 'aborted' }
function recordingClock(): Clock & { readonly slept: Slept[] } {
  const slept: Slept[] = [];
  return {
    slept,
    now: systemClock.now,
    sleep: (ms, signal) => {
      const s: Slept = { ms };
      slept.push(s);
      return systemClock.sleep(ms, signal).then(() => { s.ended = 'fired'; }, (e: unknown) => { s.ended = 'aborted'; throw e; });
    },
  };
}
/** Lets a deadline timer stopped as the call returned record how it ended. */
const stopped = (): Promise<void> => new Promise((r) => setImmediate(r));

// `sdkTimeoutMs`: the SDK's own timeout; a test that must end by the policy alone sets it far beyond the test's bound.
const providers: { name: string; fake: () => FakeServer; make: (sdkTimeoutMs?: number) => Summarizer }[] = [
  { name: 'anthropic', fake: () => anthropic, make: (t = 5000) => createSummarizer({ provider: 'anthropic', model: 'claude-test', apiKey: KEY, baseUrl: anthropic.url, timeoutMs: t })! },
  // The SDK-level summarizer: createSummarizer sends an OpenAI key to api.openai.com only, never to a loopback fake.
  { name: 'openai', fake: () => openai, make: (t = 5000) => createOpenAISummarizer({ model: 'gpt-test', apiKey: KEY, baseUrl: `${openai.url}/v1`, timeoutMs: t }) },
  { name: 'openai-compatible', fake: () => openai, make: (t = 5000) => createSummarizer({ provider: 'openai-compatible', model: 'llama', apiKey: KEY, baseUrl: `${openai.url}/v1`, timeoutMs: t })! },
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
      const clock = recordingClock();
      const out = await runWithPolicy(p.make(), req, policy({ deadlineMs: 5000, clock }));
      assert.equal(out.ok, false);
      // The server's error, not the deadline's: it ended before the deadline timer of any attempt fired.
      assert.equal(!out.ok && out.error.kind, 'server');
      await stopped();
      assert.ok(clock.slept.filter((s) => s.ms > 1000).every((s) => s.ended === 'aborted'), JSON.stringify(clock.slept));
      assert.equal(out.attempts, 3);
      assert.equal(fake.requests.length - n, 3);
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
  const clock = recordingClock();
  const t0 = Date.now();
  const out = await runWithPolicy(providers[0]!.make(), req, policy({ clock }));
  const elapsed = Date.now() - t0;
  assert.equal(out.ok, true);
  assert.equal(out.attempts, 2);
  // One wait of the server's second between the attempts (beside each attempt's deadline timer), waited out in full.
  assert.deepEqual(clock.slept.filter((s) => s.ms === 1000), [{ ms: 1000, ended: 'fired' }], JSON.stringify(clock.slept));
  assert.ok(elapsed >= 950, `elapsed ${elapsed} ms`);
});

test('429 whose retry-after passes the deadline fails at once', async () => {
  openai.script({ kind: 'rate-limit', retryAfter: '30' });
  const clock = recordingClock();
  const out = await runWithPolicy(providers[1]!.make(), req, policy({ deadlineMs: 3000, clock }));
  assert.equal(!out.ok && out.error.kind, 'rate-limit');
  assert.equal(out.attempts, 1);
  // The attempt's deadline timer only (stopped when the answer came): no wait for the retry was started.
  await stopped();
  assert.deepEqual(clock.slept.map((s) => s.ended), ['aborted'], JSON.stringify(clock.slept));
});

for (const p of providers) {
  // The SDK's own timeout is far beyond the test's bound: only the policy's deadline can end the call in time.
  test(`${p.name}: a hang is aborted at a 1.5 s deadline and the request is torn down`, { timeout: WAIT_MS }, async () => {
    const fake = p.fake();
    const n = fake.requests.length;
    fake.script({ kind: 'hang' });
    const clock = recordingClock();
    const t0 = Date.now();
    const out = await runWithPolicy(p.make(10 * WAIT_MS), req, policy({ deadlineMs: 1500, clock }));
    const elapsed = Date.now() - t0;
    assert.equal(!out.ok && out.error.kind, 'timeout');
    assert.deepEqual(clock.slept, [{ ms: clock.slept[0]!.ms, ended: 'fired' }], 'the deadline timer fired');
    assert.ok(clock.slept[0]!.ms <= 1500);
    assert.equal(out.attempts, 1);
    assert.equal(fake.requests.length - n, 1);
    assert.ok(elapsed >= 1450, `elapsed ${elapsed} ms`);
  });
}

test('the user cancel stops a hanging call immediately', { timeout: WAIT_MS }, async () => {
  anthropic.script({ kind: 'hang' });
  const user = new AbortController();
  setTimeout(() => user.abort(), 150);
  const clock = recordingClock();
  // Neither the SDK's timeout nor the deadline can end it within the test's bound: only the cancel.
  const out = await runWithPolicy(providers[0]!.make(10 * WAIT_MS), req, policy({ signal: user.signal, deadlineMs: 10 * WAIT_MS, clock }));
  assert.equal(!out.ok && out.error.kind, 'aborted');
  assert.equal(out.attempts, 1);
  await stopped();
  assert.deepEqual(clock.slept.map((s) => s.ended), ['aborted'], 'the deadline timer was stopped, never fired');
});

test('the user cancel during a retry-after wait stops without another request', async () => {
  openai.script({ kind: 'rate-limit', retryAfter: '5' });
  const n = openai.requests.length;
  const user = new AbortController();
  setTimeout(() => user.abort(), 200);
  const clock = recordingClock();
  const out = await runWithPolicy(providers[2]!.make(), req, policy({ signal: user.signal, clock }));
  assert.equal(!out.ok && out.error.kind, 'aborted');
  assert.equal(openai.requests.length - n, 1);
  // The five-second wait began and the cancel ended it: it did not run its course.
  assert.deepEqual(clock.slept.filter((s) => s.ms === 5000), [{ ms: 5000, ended: 'aborted' }], JSON.stringify(clock.slept));
});
