// Min/max bucketing for the per-turn chart: bounded output, order kept, extremes kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downsampleMinMax } from '../../../webview/charts/downsample';

const id = (n: number): number => n;

test('small series are returned unchanged (as a copy)', () => {
  const points = [5, 1, 9];
  const out = downsampleMinMax(points, 10, id);
  assert.deepEqual(out, points);
  assert.notEqual(out, points);
});

test('10,000 points into 300 buckets: at most 2 per bucket, in order, spikes kept', () => {
  const points = Array.from({ length: 10_000 }, (_, i) => ({ i, v: Math.sin(i / 50) * 100 + 1000 }));
  points[4321]!.v = 99_999; // one spike
  points[8765]!.v = -5; // one dip
  const out = downsampleMinMax(points, 300, (p) => p.v);
  assert.ok(out.length <= 600 && out.length >= 300, String(out.length));
  assert.ok(out.every((p, n) => n === 0 || out[n - 1]!.i < p.i));
  assert.ok(out.some((p) => p.i === 4321));
  assert.ok(out.some((p) => p.i === 8765));
});

test('a flat bucket contributes one point', () => {
  const out = downsampleMinMax(Array.from({ length: 100 }, () => 7), 10, id);
  assert.equal(out.length, 10);
});
