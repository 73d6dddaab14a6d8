// hostEnv's join skips path.join's normalizing pass only when it would change nothing: checked against path.join
// on every combination of awkward segments.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { fastJoin } from '../../../src/node/agentStores';

const SEGMENTS = ['', '/', '.', '..', 'a', '/a', 'a/', '/a/', 'a//b', './a', 'a/.', '../a', 'a/..', '.a', 'a..', '...', 'Application Support', '\\x'];

test('fastJoin equals path.join for every pair and triple of awkward segments', () => {
  assert.equal(fastJoin(), path.join());
  let n = 0;
  for (const a of SEGMENTS) {
    assert.equal(fastJoin(a), path.join(a), JSON.stringify([a]));
    for (const b of SEGMENTS) {
      assert.equal(fastJoin(a, b), path.join(a, b), JSON.stringify([a, b]));
      for (const c of SEGMENTS) {
        assert.equal(fastJoin(a, b, c), path.join(a, b, c), JSON.stringify([a, b, c]));
        n++;
      }
    }
  }
  assert.equal(n, SEGMENTS.length ** 3);
});
