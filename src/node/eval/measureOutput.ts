// Measures a compacted Session the strategies built in memory (rolling, server) like every compaction is measured.
import { measureCompaction } from '../../core/compact/measure';
import type { RowInput } from '../../core/eval/row';
import type { Block, Session } from '../../core/model/transcript';
import { checkProbes, outputText } from '../../core/probes/check';
import type { Probe } from '../../core/probes/types';

/** The original blocks the output no longer holds as they were (identifier recall is measured over them). */
export function changedBlocks(original: Session, result: Session): Block[] {
  const kept = new Set<Block>();
  for (const m of result.messages) for (const b of m.blocks) kept.add(b);
  return original.messages.flatMap((m) => m.blocks.filter((b) => !kept.has(b)));
}

/** `readable: false` (an encrypted output): sizes only, neither probes nor recall. */
export function measureOutput(original: Session, result: Session, probes: readonly Probe[], readable = true): Pick<RowInput, 'measure' | 'probes'> {
  const measure = measureCompaction(original, result, changedBlocks(original, result));
  return { measure, probes: readable ? checkProbes(probes, outputText(result)) : undefined };
}
