// compact --to from a session the source agent compacted itself (the real Qwen Code 0.24.4 session compressed by
// `/compress`, test/fixtures/qwen-code/README.md): every real target CLI resumes it with Qwen's summary in its own
// compaction form, and its turn request carries the summary and the typed prompt after it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { FIXTURES } from '../support/fixtures';
import { summaryResumeSuite, TARGETS, type Target } from './convertSuite';

const QWEN = path.join(FIXTURES, 'qwen-code', 'session-0.24.4-compress', 'ad299598-9801-4fd9-83b1-30df3767f542.jsonl');

for (const to of Object.keys(TARGETS) as Target[]) {
  summaryResumeSuite('Qwen Code (compressed)', to, () => QWEN, (turn) => {
    const body = JSON.stringify(turn.body);
    assert.match(body, /TAX-4417/, 'the summary');
    assert.match(body, /Which rate does price.js apply now\?/, 'the typed prompt after it');
  });
}
