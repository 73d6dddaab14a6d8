// A compaction that changes nothing is none: Claude Code's compaction agent (a real 2.1.49 file) is one prompt under a
// forked history of 172k recorded tokens, over any threshold, with nothing older than the recent part to compact.
// The rolling replay counted one compaction there (and the estimate one call runEval never made).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { rollingCompactions } from '../../../src/core/eval/estimate';
import { rollingCompaction } from '../../../src/node/eval/rolling';
import { estimateSessions } from '../../../src/node/eval/estimateInput';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const FILE = path.join(FIXTURES, 'real', 'claude-code', 'claudework-2.1.49-subagent-acompact-forked.jsonl');

test('rolling over a harness past the threshold with nothing to compact: no compaction, none estimated', async () => {
  const { session } = await readTranscriptFile(FILE);
  const out = await rollingCompaction(session, { threshold: 60_000, cleanup: { keepRecentTurns: 6 } }, new AbortController().signal);
  assert.equal(out.compactions, 0);
  assert.equal(out.result.messages.length, session.messages.length);
  const [est] = await estimateSessions([FILE]);
  assert.ok(est!.rolling && est!.rolling.harness > 60_000, 'the forked history alone is over the threshold');
  assert.equal(rollingCompactions(est!, { threshold: 60_000, maxOutputTokens: 4000, keepRecentTurns: 6 }), 0);
});
