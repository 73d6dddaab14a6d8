// "Context now" when the agent's last request is far below what its first implied: a real Codex 0.117 rollout
// (trimmed, test/fixtures/real/SOURCES.tsv) resumed by a newer client went 166,236 → 81,019 input tokens with no
// compaction in the log. The figure must stay the last recorded request plus what followed, not 105K above it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { calibrate } from '../../../src/core/tokens/calibrate';
import { compose } from '../../../src/core/tokens/composition';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const FILE = path.join(FIXTURES, 'real', 'codex', 'idaho-0.117.0-resumed-context-shrank-trimmed.jsonl');

test('a context that shrank without a compaction: context now is the last request plus what followed', async () => {
  const { session } = await readTranscriptFile(FILE);
  assert.equal(session.recordedContext, 81_072);
  const c = compose(session);
  assert.equal(c.source, 'recorded');
  // The final reply ("Standing by." and one more) is all that followed the last request: a few hundred tokens.
  assert.ok(c.total >= 81_072 && c.total < 81_072 + 2_000, `context now ${c.total}`);
  assert.ok(calibrate(session).overhead <= 81_072, `overhead ${calibrate(session).overhead}`);
});
