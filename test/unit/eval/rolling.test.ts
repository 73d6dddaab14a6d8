// The rolling strategy replays real sessions at the simulator's compaction points; with a provider each
// compaction is one summary call that updates the previous summary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulate } from '../../../src/core/simulate/simulate';
import { rollingCompaction } from '../../../src/node/eval/rolling';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { DEFAULT_TEXT } from '../../support/fakeHttp';

const THRESHOLD = 40_000;
/** Low enough that cival (56k tokens of history) passes it again after its first compaction. */
const ANCHOR_THRESHOLD = 30_000;
const tokens = (s: { messages: { blocks: { tokens: number }[] }[] }): number => s.messages.reduce((a, m) => a + m.blocks.reduce((x, b) => x + b.tokens, 0), 0);

test('without a provider, rolling compacts exactly where the simulator does, and what it holds is smaller', async () => {
  let compacted = 0;
  for (const f of realTranscripts()) {
    const { session } = await readTranscriptFile(f.file);
    const sim = simulate(session, { threshold: THRESHOLD, keepRecentTurns: 6, summaryTokens: 0, summary: false });
    const out = await rollingCompaction(session, { threshold: THRESHOLD, cleanup: { keepRecentTurns: 6 } }, new AbortController().signal);
    assert.equal(out.compactions, sim.totals.compactions, f.label);
    assert.equal(out.modelCalls, 0);
    if (out.compactions > 0) {
      compacted++;
      assert.ok(tokens(out.result) < tokens(session), `${f.label}: not smaller`);
    } else {
      assert.equal(out.result.messages.length, session.messages.length, f.label);
    }
  }
  assert.ok(compacted >= 10, `only ${compacted} real transcripts passed ${THRESHOLD} tokens`);
});

test('with a provider, each compaction is one summary call anchored on the summary before it', async (t) => {
  const fake = await startFakeAnthropic('k-roll');
  t.after(() => fake.close());
  // A session the agent never compacted itself: its first summary has nothing to anchor on.
  const file = realTranscripts().find((f) => f.file.includes('cival-1.0.17'))!.file;
  const { session } = await readTranscriptFile(file);
  const summary = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: fake.url, apiKey: 'k-roll', timeoutSeconds: 30, maxOutputTokens: 2000, maxInputTokens: 150_000 };
  const out = await rollingCompaction(session, { threshold: ANCHOR_THRESHOLD, cleanup: { keepRecentTurns: 6 }, summary }, new AbortController().signal);
  assert.ok(out.compactions >= 2, `compactions: ${out.compactions}`);
  assert.equal(out.modelCalls, fake.requests.length);
  assert.ok(out.modelCalls >= 2);
  const prompt = (i: number): string => JSON.stringify((fake.requests[i]!.body as { messages: unknown }).messages);
  assert.ok(!prompt(0).includes('<existing_snapshot>'), 'the first summary has nothing to update');
  assert.ok(prompt(1).includes('<existing_snapshot>') && prompt(1).includes(DEFAULT_TEXT), 'the second summary updates the first');
  const summaries = out.result.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'summary'));
  assert.equal(summaries.length, 1, 'one summary is held at the end, not one per compaction');
  // The session's one prompt is older than every recent part: it stays pinned through each compaction.
  const request = session.messages.find((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'))!;
  assert.ok(out.result.messages.some((m) => m.blocks.includes(request.blocks.find((b) => b.type === 'text')!)), 'the latest request was summarized away');
  assert.ok(out.modelInputTokens > 0);
});

test('a failing provider: the replay goes on with cleaned context and says which compaction failed', async (t) => {
  const fake = await startFakeAnthropic('k-roll');
  t.after(() => fake.close());
  fake.fallback = { kind: 'status', status: 500 };
  const file = realTranscripts().find((f) => f.file.includes('tpos-2.0.57'))!.file;
  const { session } = await readTranscriptFile(file);
  const summary = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: fake.url, apiKey: 'k-roll', timeoutSeconds: 30, maxOutputTokens: 2000, maxInputTokens: 150_000 };
  const out = await rollingCompaction(session, { threshold: THRESHOLD, cleanup: { keepRecentTurns: 6 }, summary }, new AbortController().signal);
  assert.match(out.failure ?? '', /^summary at turn \d+: anthropic: .*500/);
  assert.ok(out.compactions >= 2);
  assert.ok(tokens(out.result) < tokens(session));
});
