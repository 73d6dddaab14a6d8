// A Claude Code session compacted with no request since (a real 2.1.111 file: its folder's README): its requests
// before the compaction held 176–193k tokens, mostly harness, and the next one failed "Prompt is too long". inspect
// said "context now 3,431 … no recorded usage": the harness measured before the compaction goes with the estimate.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { measureCompaction } from '../../../src/core/compact/measure';
import { buildInspectReport } from '../../../src/core/inspect/inspectReport';
import { renderInspect } from '../../../src/core/inspect/renderText';
import { calibrate } from '../../../src/core/tokens/calibrate';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES, CLAUDE_SAMPLE } from '../../support/fixtures';

const FILE = path.join(FIXTURES, 'claude-code', 'compacted-no-request-2.1.111', '5c04fe06-649f-4946-8625-2a3482121664.jsonl');

test('no request since the compaction: the harness measured before it is carried, and said so', async () => {
  const { session } = await readTranscriptFile(FILE);
  assert.equal(session.recordedContext, undefined, 'the live branch recorded no usage');
  const harness = session.harnessBeforeCompaction ?? 0;
  // The first request held 176,375 tokens over a prompt and hook output of a few thousand.
  assert.ok(harness > 150_000 && harness < 176_375, `harness ${harness}`);
  const cal = calibrate(session);
  assert.equal(cal.source, 'estimated');
  assert.equal(cal.overhead, harness);
  const report = buildInspectReport(session);
  assert.ok(report.tokens.total > 170_000, `context now ${report.tokens.total}`);
  const text = renderInspect(report, false);
  assert.match(text, /no request since the last compaction: the messages are offline estimates, and the harness \([\d,]+ tokens: system prompt, tools, injected context\) is the one measured on the requests before it/);
  assert.doesNotMatch(text, /no recorded usage/);
  // A compaction's report takes the same harness, measured from the usage log (not "system prompt only").
  const m = measureCompaction(session, session, []);
  assert.equal(m.harnessTokens, harness);
  assert.equal(m.harnessSource, 'recorded');
});

test('a session whose live branch recorded usage carries nothing', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  assert.ok(session.recordedContext !== undefined);
  assert.equal(session.harnessBeforeCompaction, undefined);
});
