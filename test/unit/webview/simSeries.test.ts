// Series behind the Simulator's charts: cumulative billed input and one compaction marker per pixel column.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SimulatedPoint } from '../../../src/protocol/messages';
import { compactionMarkers, cumulativeBilled } from '../../../webview/charts/simSeries';

const point = (index: number, without: number, withPolicy: number, compacted = false, summaryInput = 0): SimulatedPoint =>
  ({ index, contextTokens: without, contextTokensWithPolicy: withPolicy, compacted, summaryInput });

test('cumulative billed input counts each summary call at its compaction', () => {
  const turns = [point(1, 100, 100), point(3, 200, 50, true, 150), point(5, 260, 110)];
  assert.deepEqual(cumulativeBilled(turns), [{ i: 0, without: 100, with: 100 }, { i: 1, without: 300, with: 300 }, { i: 2, without: 560, with: 410 }]);
  assert.deepEqual(cumulativeBilled([]), []);
});

test('compaction markers: every compaction when there is room, at most one per column otherwise', () => {
  const few = [point(0, 1, 1), point(1, 1, 1, true), point(2, 1, 1), point(3, 1, 1, true)];
  assert.deepEqual(compactionMarkers(few, 100), [1, 3]);
  const many = Array.from({ length: 10_000 }, (_, i) => point(i, 1, 1, i % 3 === 0));
  const marks = compactionMarkers(many, 200);
  assert.ok(marks.length <= 201 && marks.length >= 190, `${marks.length} markers`);
  assert.ok(marks.every((i) => many[i]!.compacted));
  assert.deepEqual(marks, [...marks].sort((a, b) => a - b));
});
