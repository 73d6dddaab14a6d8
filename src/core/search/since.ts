// `since` values of a search: a date (2026-12-01) or an age (12h, 7d, 2w), as ms since the epoch.

/** ms since the epoch, or undefined when `s` is no date. */
export function parseSince(s: string, now: number): number | undefined {
  const rel = /^(\d+)([hdw])$/.exec(s);
  if (rel) return now - Number(rel[1]) * { h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[2] as 'h' | 'd' | 'w'];
  if (!/^\d{4}-\d{2}-\d{2}/.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : undefined;
}
