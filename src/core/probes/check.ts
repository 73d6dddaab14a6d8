// Looks for each probe in a compacted output's text (its own extraction: every string of every block).
import { hasWhole, norm, wordsClose } from './normalize';
import { strings } from './tools';
import type { Probe, ProbeKind } from './types';

export interface Tally { kept: number; total: number }
export interface ProbeOutcome {
  /** Share found; null when there was nothing to look for. */
  readonly kept: number | null;
  readonly byKind: Partial<Record<ProbeKind, Tally>>;
  readonly lost: string[];
}
export interface OutputText { readonly all: string; readonly blocks: readonly string[] }

/** Block fields that are bookkeeping, not text the agent reads. */
const SKIP = new Set(['id', 'ref', 'tokens', 'type', 'records']);

/** The text of an output: each block of each message (any shape), every string in it, normalized. */
export function outputText(output: { readonly messages: readonly { readonly blocks: readonly unknown[] }[] }, extra: readonly string[] = []): OutputText {
  const blocks: string[] = [];
  for (const m of output.messages) {for (const b of m.blocks) {
    const o = b as Record<string, unknown>;
    const t = Object.entries(o).filter(([k]) => !SKIP.has(k)).flatMap(([, v]) => strings(v)).join('\n');
    if (t) blocks.push(norm(t));
  }}
  for (const t of extra) blocks.push(norm(t));
  return { all: blocks.join('\n'), blocks };
}

export function isKept(p: Probe, text: OutputText): boolean {
  if (p.needles.some((n) => n.length > 0 && (p.whole ? hasWhole(text.all, n) : text.all.includes(n)))) return true;
  return p.words !== undefined && wordsClose(text.blocks, p.words);
}

export const round4 = (x: number): number => Math.round(x * 10000) / 10000;

export function checkProbes(probes: readonly Probe[], text: OutputText): ProbeOutcome {
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
