// composeTotal (what a compaction measures) is compose(...).total without the items: equal on every real session,
// before and after cleanup, on the session's own scale.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanupSession } from '../../../src/core/cleanup/engine';
import { calibrate } from '../../../src/core/tokens/calibrate';
import { compose, composeTotal } from '../../../src/core/tokens/composition';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';

test('composeTotal equals compose().total on every real session and its cleanup', async () => {
  let n = 0;
  for (const { file, label } of realTranscripts()) {
    const { session } = await readTranscriptFile(file);
    const cal = calibrate(session);
    const cleaned = cleanupSession(session, { keepRecentTurns: 2 }).session;
    assert.equal(composeTotal(session), compose(session).total, label);
    assert.equal(composeTotal(cleaned, cal), compose(cleaned, 0, cal).total, `${label} (cleaned)`);
    n++;
  }
  assert.ok(n >= 10, `${n} sessions`);
});
