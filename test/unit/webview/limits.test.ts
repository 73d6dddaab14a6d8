// Clamping of the Simulator and Cleanup controls: what the engines get whatever the webview sends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RULE_IDS } from '../../../src/core/cleanup/types';
import { clampCleanup, clampPolicy, clampTo, SIMULATION_LIMITS } from '../../../src/protocol/limits';

test('clampTo rounds into the range and replaces non-finite values', () => {
  const r = { min: 0, max: 30, step: 1 };
  assert.deepEqual([clampTo(r, -1), clampTo(r, 4.6), clampTo(r, 31), clampTo(r, Number.NaN), clampTo(r, Infinity, 6)], [0, 5, 30, 0, 6]);
});

test('clampPolicy keeps a valid policy and bounds every number', () => {
  const ok = { threshold: 50_000, keepRecentTurns: 4, summary: true, summaryTokens: 2_000 };
  assert.deepEqual(clampPolicy(ok), ok);
  assert.deepEqual(clampPolicy({ threshold: 1e12, keepRecentTurns: -2, summary: false, summaryTokens: 1e9 }),
    { threshold: SIMULATION_LIMITS.threshold.max, keepRecentTurns: 0, summary: false, summaryTokens: SIMULATION_LIMITS.summaryTokens.max });
});

test('clampCleanup keeps known rule ids with boolean values only, in engine order', () => {
  const rules = { bogus: true, 'tool-records': false, 'drop-reasoning': true, toString: false, 'collapse-noise': 'yes' } as never;
  const c = clampCleanup({ keepRecentTurns: 40, keepRecentTokens: -5, rules });
  assert.deepEqual(c, { keepRecentTurns: 30, keepRecentTokens: 0, rules: { 'drop-reasoning': true, 'tool-records': false } });
  assert.deepEqual(Object.keys(c.rules), RULE_IDS.filter((id) => id in c.rules));
});
