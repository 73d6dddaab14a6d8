// Call policy on virtual time: retries, backoff, retry-after, the shared deadline and cancel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWithPolicy, type CallPolicyOptions } from '../../../src/core/summary/callPolicy.js';
import { ProviderError, type ProviderErrorKind, type Summarizer, type SummaryResult } from '../../../src/core/summary/provider.js';
import { VirtualClock } from '../../support/virtualClock.js';

const req = { system: 's', prompt: 'p', maxOutputTokens: 100 };
const good: SummaryResult = { text: 'summary', model: 'm' };

type Step = SummaryResult | ProviderError | 'hang' | 'ignore-signal';

/** A summarizer that plays steps in order (repeating the last) and records the signals it got. */
function scripted(...steps: Step[]): Summarizer & { calls: number; signals: AbortSignal[] } {
  const s = {
    id: 'anthropic' as const,
    calls: 0,
    signals: [] as AbortSignal[],
    summarize(_r: unknown, signal: AbortSignal): Promise<SummaryResult> {
      const step = steps[Math.min(s.calls, steps.length - 1)];
      s.calls += 1;
      s.signals.push(signal);
      if (step === 'hang') {
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new ProviderError('aborted', 'aborted')), { once: true }));
      }
      if (step === 'ignore-signal') return new Promise(() => { /* never settles */ });
      return step instanceof ProviderError ? Promise.reject(step) : Promise.resolve(step as SummaryResult);
    },
  };
  return s;
}

function opts(clock: VirtualClock, extra: Partial<CallPolicyOptions> = {}): CallPolicyOptions {
  return { deadlineMs: 60_000, maxRetries: 2, clock, random: () => 0.5, signal: new AbortController().signal, ...extra };
}

const err = (kind: ProviderErrorKind, retryAfterMs?: number): ProviderError =>
  new ProviderError(kind, `${kind} happened`, retryAfterMs === undefined ? {} : { retryAfterMs });

test('success on the first call makes one attempt', async () => {
  const s = scripted(good);
  const out = await runWithPolicy(s, req, opts(new VirtualClock()));
  assert.deepEqual(out, { ok: true, result: good, attempts: 1 });
});

test('server error twice then success: three calls, exponential backoff with jitter', async () => {
  const clock = new VirtualClock();
  const s = scripted(err('server'), err('server'), good);
  const out = await runWithPolicy(s, req, opts(clock, { random: () => 0.5 }));
  assert.equal(out.ok, true);
  assert.equal(out.attempts, 3);
  assert.equal(s.calls, 3);
  // base 500: step 500 -> 250 + 250*0.5 = 375; step 1000 -> 500 + 250 = 750. Deadline timers are the 60 s ones.
  assert.deepEqual(clock.sleeps.filter((ms) => ms < 10_000), [375, 750]);
});

test('jitter uses the injected random', async () => {
  const clock = new VirtualClock();
  await runWithPolicy(scripted(err('server'), good), req, opts(clock, { random: () => 0 }));
  assert.deepEqual(clock.sleeps.filter((ms) => ms < 10_000), [250]);
  const clock2 = new VirtualClock();
  await runWithPolicy(scripted(err('server'), good), req, opts(clock2, { random: () => 0.999999 }));
  assert.deepEqual(clock2.sleeps.filter((ms) => ms < 10_000), [500]);
});

test('an outage gives exactly three attempts and the last error', async () => {
  const clock = new VirtualClock();
  const s = scripted(err('server'));
  const out = await runWithPolicy(s, req, opts(clock));
  assert.equal(out.ok, false);
  assert.equal(s.calls, 3);
  assert.equal(out.attempts, 3);
  assert.equal(!out.ok && out.error.kind, 'server');
});

for (const kind of ['auth', 'too-long', 'aborted', 'other'] as const) {
  test(`${kind} is final: one call, no retry`, async () => {
    const s = scripted(err(kind), good);
    const out = await runWithPolicy(s, req, opts(new VirtualClock()));
    assert.equal(s.calls, 1);
    assert.equal(!out.ok && out.error.kind, kind);
  });
}

for (const kind of ['rate-limit', 'server', 'timeout', 'network', 'malformed', 'truncated'] as const) {
  test(`${kind} is retried`, async () => {
    const s = scripted(err(kind), good);
    const out = await runWithPolicy(s, req, opts(new VirtualClock()));
    assert.equal(s.calls, 2);
    assert.equal(out.ok, true);
  });
}

test('retry-after replaces the backoff', async () => {
  const clock = new VirtualClock();
  const out = await runWithPolicy(scripted(err('rate-limit', 7000), good), req, opts(clock));
  assert.equal(out.ok, true);
  assert.ok(clock.sleeps.includes(7000));
  assert.equal(clock.now(), 7000);
});

test('a retry-after beyond the deadline fails at once with the rate-limit error', async () => {
  const clock = new VirtualClock();
  const s = scripted(err('rate-limit', 30_000), good);
  const out = await runWithPolicy(s, req, opts(clock, { deadlineMs: 10_000 }));
  assert.equal(s.calls, 1);
  assert.equal(!out.ok && out.error.kind, 'rate-limit');
  assert.equal(clock.now(), 0, 'it must not wait for a retry it will never make');
});

test('a hanging call is aborted at the deadline: its signal fires and the error is timeout', async () => {
  const clock = new VirtualClock();
  const s = scripted('hang');
  const out = await runWithPolicy(s, req, opts(clock, { deadlineMs: 1500 }));
  assert.equal(out.ok, false);
  assert.equal(!out.ok && out.error.kind, 'timeout');
  assert.equal(out.attempts, 1);
  assert.equal(s.signals[0]?.aborted, true);
  assert.equal(clock.now(), 1500);
});

test('the deadline is shared: later attempts get only what is left', async () => {
  const clock = new VirtualClock();
  const s = scripted(err('server'), 'hang');
  const out = await runWithPolicy(s, req, opts(clock, { deadlineMs: 5000 }));
  assert.equal(!out.ok && out.error.kind, 'timeout');
  assert.deepEqual(clock.sleeps, [5000, 375, 4625]);
  assert.equal(clock.now(), 5000);
});

test('a summarizer that ignores its signal still cannot outlive the deadline', async () => {
  const clock = new VirtualClock();
  const out = await runWithPolicy(scripted('ignore-signal'), req, opts(clock, { deadlineMs: 2000 }));
  assert.equal(!out.ok && out.error.kind, 'timeout');
  assert.equal(clock.now(), 2000);
});

test('user cancel during a call stops at once with aborted, no retry', async () => {
  const clock = new VirtualClock();
  const user = new AbortController();
  const s = scripted('hang', good);
  const pending = runWithPolicy(s, req, opts(clock, { signal: user.signal }));
  await Promise.resolve();
  user.abort();
  const out = await pending;
  assert.equal(!out.ok && out.error.kind, 'aborted');
  assert.equal(s.calls, 1);
  assert.equal(s.signals[0]?.aborted, true);
  assert.equal(clock.now(), 0);
});

test('user cancel during the backoff wait stops without another call', async () => {
  const clock = new VirtualClock();
  const user = new AbortController();
  const s: Summarizer = {
    id: 'openai',
    summarize: () => { queueMicrotask(() => user.abort()); return Promise.reject(err('server')); },
  };
  const out = await runWithPolicy(s, req, opts(clock, { signal: user.signal }));
  assert.equal(!out.ok && out.error.kind, 'aborted');
  assert.equal(out.attempts, 1);
});

test('an already-cancelled signal makes no call', async () => {
  const user = new AbortController();
  user.abort();
  const s = scripted(good);
  const out = await runWithPolicy(s, req, opts(new VirtualClock(), { signal: user.signal }));
  assert.equal(s.calls, 0);
  assert.equal(!out.ok && out.error.kind, 'aborted');
});

test('an empty text is malformed and retried', async () => {
  const s = scripted({ text: '  ', model: 'm' }, good);
  const out = await runWithPolicy(s, req, opts(new VirtualClock()));
  assert.equal(s.calls, 2);
  assert.equal(out.ok, true);
});

test('maxRetries is capped, so no option makes it loop', async () => {
  const s = scripted(err('server'));
  const out = await runWithPolicy(s, req, opts(new VirtualClock(), { maxRetries: 1e9 }));
  assert.equal(s.calls, 6);
  assert.equal(out.ok, false);
});

test('a non-ProviderError throw becomes other, without its message', async () => {
  const s: Summarizer = { id: 'openai', summarize: () => Promise.reject(new Error('secret-ish detail')) };
  const out = await runWithPolicy(s, req, opts(new VirtualClock()));
  assert.equal(!out.ok && out.error.kind, 'other');
  assert.equal(!out.ok && out.error.message.includes('secret-ish'), false);
});
