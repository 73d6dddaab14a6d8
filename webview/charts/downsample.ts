// Min/max bucketing for line charts: at most two points per pixel column, spikes and dips kept.

/**
 * Keeps, per bucket of consecutive points, the ones with the lowest and highest `y` (in their
 * original order). A polyline over 10,000 turns then costs ~2 vertices per pixel and still shows
 * every peak, which plain every-nth sampling would miss.
 */
export function downsampleMinMax<T>(points: readonly T[], buckets: number, y: (p: T) => number): T[] {
  const n = Math.max(1, Math.floor(buckets));
  if (points.length <= n * 2) return points.slice();
  const out: T[] = [];
  const size = points.length / n;
  for (let b = 0; b < n; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(points.length, Math.floor((b + 1) * size));
    if (to <= from) continue;
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      const v = y(points[i]!);
      if (v < y(points[lo]!)) lo = i;
      if (v > y(points[hi]!)) hi = i;
    }
    if (lo === hi) out.push(points[lo]!);
    else out.push(points[Math.min(lo, hi)]!, points[Math.max(lo, hi)]!);
  }
  return out;
}
