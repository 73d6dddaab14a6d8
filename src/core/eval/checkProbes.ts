// Looks for each probe in a compacted session's text: kept overall and per kind, and what was lost.
import type { Probe } from './probes';
import { wordsNearby, type SessionText } from './text';
import type { ProbeKind, Tally } from './types';

export interface ProbeOutcome {
  /** Share found; null when there was nothing to look for. */
  readonly kept: number | null;
  readonly byKind: Partial<Record<ProbeKind, Tally>>;
  readonly lost: string[];
}

export function isKept(p: Probe, text: SessionText): boolean {
  if (p.needles.some((n) => n.length > 0 && text.all.includes(n))) return true;
  return p.words !== undefined && wordsNearby(text, p.words);
}

export function checkProbes(probes: readonly Probe[], text: SessionText): ProbeOutcome {
  const byKind: Partial<Record<ProbeKind, Tally>> = {};
  const lost: string[] = [];
  let kept = 0;
  for (const p of probes) {
    const t = (byKind[p.kind] ??= { kept: 0, total: 0 });
    t.total++;
    if (isKept(p, text)) { t.kept++; kept++; } else lost.push(p.label);
  }
  return { kept: probes.length ? round4(kept / probes.length) : null, byKind, lost };
}

export const round4 = (x: number): number => Math.round(x * 10000) / 10000;
