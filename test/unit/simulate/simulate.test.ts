// Rolling-compaction simulator on the real 8 MB transcript, and the CLI's JSON shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { simulate } from '../../../src/core/simulate/simulate';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { bigClaudeFixture } from '../../support/bigFixture';
import { CLAUDE_SAMPLE } from '../../support/fixtures';

test('compacts whenever the context passes the threshold, never exceeds it after, and bills less', async () => {
  const { session } = await readTranscriptFile(bigClaudeFixture());
  const sim = simulate(session, { threshold: 150_000, keepRecentTurns: 6, summaryTokens: 2000, summary: true });
  assert.equal(sim.turns.length, session.turns.filter((t) => t.kind === 'model').length);
  assert.ok(sim.totals.compactions >= 3);
  for (const t of sim.turns) assert.ok(t.contextTokensWithPolicy <= 150_000 || t.compacted, `turn ${t.index}`);
  assert.ok(sim.totals.billedInputWith < sim.totals.billedInputWithout * 0.5);
  // Until the first compaction the two curves describe the same requests.
  const first = sim.turns.findIndex((t) => t.compacted);
  for (const t of sim.turns.slice(0, first)) assert.ok(Math.abs(t.contextTokensWithPolicy - t.contextTokens) / t.contextTokens < 0.25);
  // A lower threshold compacts more often; cleanup-only compacts without a summary.
  assert.ok(simulate(session, { threshold: 80_000, keepRecentTurns: 6, summaryTokens: 2000, summary: true }).totals.compactions > sim.totals.compactions);
  const cleanupOnly = simulate(session, { threshold: 150_000, keepRecentTurns: 6, summaryTokens: 0, summary: false });
  assert.ok(cleanupOnly.totals.billedInputWith < cleanupOnly.totals.billedInputWithout);
});

test('simulate --json gives turns and totals', async () => {
  let out = '';
  const code = await main(['simulate', CLAUDE_SAMPLE, '--threshold', '50000', '--keep-recent', '4', '--json'], { stdout: (s) => { out += s; }, stderr: () => undefined, env: {} });
  assert.equal(code, 0);
  const j = JSON.parse(out);
  assert.ok(j.turns.length > 10);
  assert.deepEqual(Object.keys(j.turns[0]).sort(), ['compacted', 'contextTokens', 'contextTokensWithPolicy', 'index', 'summaryInput']);
  for (const k of ['billedInputWithout', 'billedInputWith', 'compactions']) assert.equal(typeof j.totals[k], 'number');
  assert.ok(j.totals.compactions >= 1);
  // Per-request input plus the summary calls' input adds up to the billed total.
  assert.equal(j.turns.reduce((a: number, t: { contextTokensWithPolicy: number; summaryInput: number }) => a + t.contextTokensWithPolicy + t.summaryInput, 0), j.totals.billedInputWith);
  const bad = await main(['simulate', CLAUDE_SAMPLE, '--threshold', 'x'], { stdout: () => undefined, stderr: () => undefined, env: {} });
  assert.equal(bad, 2);
});
