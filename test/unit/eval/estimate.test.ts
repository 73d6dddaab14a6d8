// The cost question before an eval: model calls per strategy as runEval really makes them (a loopback Anthropic
// on real transcripts), tokens and a catalog price, "cost unknown" for a model without one, none without a provider.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { estimateEval, estimateText, rollingCompactions, type EstimateConfig } from '../../../src/core/eval/estimate';
import { runEval } from '../../../src/node/eval/runEval';
import { estimateSessions } from '../../../src/node/eval/estimateInput';
import * as fs from 'node:fs';
import { startFakeAnthropic } from '../../support/fakeAnthropic';

const REAL = path.join(__dirname, '..', '..', 'fixtures', 'real', 'claude-code');

test('calls per strategy match what runEval records on real sessions (loopback Anthropic)', async (t) => {
  const fake = await startFakeAnthropic('k-e');
  t.after(() => fake.close());
  const files = fs.readdirSync(REAL).map((f) => path.join(REAL, f));
  const sessions = await estimateSessions(files);
  const threshold = 60_000;
  const summary = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: fake.url, apiKey: 'k-e', timeoutSeconds: 30, maxOutputTokens: 4000, maxInputTokens: 150_000 };
  const report = await runEval({ files, jobs: 1, signal: new AbortController().signal, config: { strategies: ['cleanup', 'summary', 'cleanup+summary', 'rolling', 'server'], cleanup: { keepRecentTurns: 6 }, summary, threshold } });
  const c: EstimateConfig = { strategies: report.strategies, provider: 'anthropic', model: summary.model, threshold, maxInputTokens: summary.maxInputTokens, maxOutputTokens: summary.maxOutputTokens, keepRecentTurns: 6 };
  let realRolling = 0, estRolling = 0;
  for (const [i, s] of sessions.entries()) {
    const e = estimateEval([s], c);
    const calls = (st: string): number => report.rows.find((r) => r.file === files[i] && r.strategy === st)!.modelCalls;
    const est = (st: string): number => e.byStrategy.find((x) => x.strategy === st)!.calls;
    // One summary per session, one server compaction per session, none for cleanup: exactly the rules runEval follows.
    for (const st of ['cleanup', 'summary', 'cleanup+summary', 'server']) assert.equal(est(st), calls(st), `${path.basename(files[i]!)} ${st}`);
    // Rolling depends on what each summary leaves: none exactly where the replay never passed the threshold.
    assert.equal(est('rolling') === 0, calls('rolling') === 0, `${path.basename(files[i]!)} rolling ${est('rolling')} vs ${calls('rolling')}`);
    realRolling += calls('rolling');
    estRolling += est('rolling');
  }
  // Over the set, a ceiling that is not wildly above what happened (asking about 10× the calls would scare for nothing).
  assert.ok(estRolling >= realRolling && estRolling <= 3 * realRolling, `rolling: estimated ${estRolling}, made ${realRolling}`);
  const all = estimateEval(sessions, c);
  assert.equal(all.calls, all.byStrategy.reduce((a, x) => a + x.calls, 0));
  assert.ok(all.costUsd !== undefined && all.costUsd > 0);
  assert.match(estimateText(all), /^up to \d+ model calls \(summary 8, cleanup\+summary 8, rolling \d+, server 8\) · about [\d.]+[kM] tokens in, at most \d+k out · cost ≤ \$\d+\.\d\d at catalog prices$/);
});

const base: EstimateConfig = { strategies: ['cleanup', 'summary', 'rolling', 'server'], provider: 'anthropic', model: 'claude-sonnet-4-5', threshold: 100_000, maxInputTokens: 150_000, maxOutputTokens: 4000, keepRecentTurns: 6 };

test('priced per call at the catalog rate; a model without a price says "cost unknown"; no provider: no calls', () => {
  const one = estimateEval([{ contextTokens: 50_000 }], { ...base, strategies: ['summary'] });
  // claude-sonnet-4-5: $3 per million in, $15 out; 50k + 1.5k prompt in, 4k out.
  assert.equal(one.calls, 1);
  assert.equal(one.inputTokens, 51_500);
  assert.ok(Math.abs(one.costUsd! - (51_500 * 3 + 4000 * 15) / 1e6) < 1e-9, String(one.costUsd));
  const unknown = estimateEval([{ contextTokens: 50_000 }], { ...base, model: 'my-local-llama' });
  assert.equal(unknown.costUsd, undefined);
  assert.match(estimateText(unknown), /cost unknown/);
  const none = estimateEval([{ contextTokens: 500_000 }], { ...base, provider: 'none' });
  assert.equal(none.calls, 0);
  assert.equal(none.costUsd, 0);
  // An OpenAI-compatible server has no compaction endpoint: server rows are skipped, not called.
  const compat = estimateEval([{ contextTokens: 50_000 }], { ...base, provider: 'openai-compatible', strategies: ['server'] });
  assert.equal(compat.calls, 0);
});

test('rolling without a profile: none below the threshold, then one per regrowth', () => {
  assert.equal(rollingCompactions({ contextTokens: 90_000 }, base), 0);
  assert.equal(rollingCompactions({ contextTokens: 101_000 }, base), 1);
  assert.equal(rollingCompactions({ contextTokens: 300_000 }, base), 3);
  // With a profile: a harness above the threshold compacts at every model turn past it that has older model turns
  // than the recent part keeps (the 3 this asserted with 6 kept were compactions that change nothing: runEval makes none).
  const overHarness = { contextTokens: 0, rolling: { harness: 120_000, turns: [90_000, 121_000, 122_000, 123_000] } };
  assert.equal(rollingCompactions(overHarness, base), 0);
  assert.equal(rollingCompactions(overHarness, { ...base, keepRecentTurns: 1 }), 2);
});
