// The SessionStart hook's worth on every real compaction, measured as test/unit/hook/measure.test.ts does: eval's
// independent probes of the segment before the compaction, looked for in the agent's summary alone and with our context.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { checkProbes, outputText } from '../../src/core/probes/check';
import { extractProbes } from '../../src/core/probes/extract';
import type { ProbeKind, Tally } from '../../src/core/eval/types';
import { estimateTokens } from '../../src/core/tokens/estimate';
import { readRawSource } from '../../src/node/eval/rawSource';
import { agentCompactions } from '../../src/node/eval/segments';
import { guardContext } from '../../src/node/hooks/compactedStretch';
import { readTranscriptFile } from '../../src/node/readTranscriptFile';
import { addKinds } from './keepFigures';

export interface HookCompaction {
  readonly file: string;
  readonly index: number;
  readonly agent: 'claude-code' | 'codex';
  readonly probes: number;
  readonly alone: number;
  readonly pair: number;
  readonly summaryTokens: number;
  readonly contextTokens: number;
  /** Codex remote compaction: no summary to read; the agent's side is the messages it kept (a lower bound). */
  readonly encrypted: boolean;
}

export interface HookFigures {
  readonly compactions: HookCompaction[];
  /** Compactions found but not measured, with why (nothing before it in the file, nothing the agent kept is readable, no probes). */
  readonly notMeasured: { file: string; index: number; why: string }[];
  readonly meanAlone: number | null;
  readonly meanPair: number | null;
  readonly byKindAlone: Partial<Record<ProbeKind, Tally>>;
  readonly byKindPair: Partial<Record<ProbeKind, Tally>>;
  /** Contexts within the hook's own budget (≤ 2,000 tokens and ≤ the summary, when there is one). */
  readonly withinBudget: number;
}

/**
 * `files`: Claude Code and Codex transcripts. The agent's side is its summary and, for Codex, the messages its
 * replacement history keeps (the hook leaves out what those hold, so the pair is measured with them too).
 */
export async function hookFigures(files: readonly { file: string; agent: 'claude-code' | 'codex' }[]): Promise<HookFigures> {
  const compactions: HookCompaction[] = [];
  const notMeasured: HookFigures['notMeasured'] = [];
  const byKindAlone: Partial<Record<ProbeKind, Tally>> = {};
  const byKindPair: Partial<Record<ProbeKind, Tally>> = {};
  let withinBudget = 0;
  const tmp = mkdtempSync(join(tmpdir(), 'cc-bench-hook-'));
  try {
    for (const { file, agent } of files) {
      const found = await agentCompactions(file);
      for (let k = 0; ; k++) {
        const r = await guardContext(file, undefined, k).catch((e: Error) => (/no compaction/.test(e.message) ? undefined : Promise.reject(e)));
        if (!r) break;
        const skip = (why: string): void => { notMeasured.push({ file: basename(file), index: k + 1, why }); };
        // The segment eval's vendor row measures; a compaction with nothing before it in this file has none.
        const at = found.compactions.findIndex((c) => c.start === r.stretch.boundaryLine);
        if (at < 0) { skip('nothing before it in this file'); continue; }
        const agentSide = [r.stretch.summary, r.stretch.kept].filter((t): t is string => !!t);
        if (agentSide.length === 0) { skip('neither a summary nor kept messages on disk'); continue; }
        const seg = (await found.write(at, join(tmp, `${compactions.length}-${k}`))).segment;
        const probes = extractProbes(readRawSource(seg, (await readTranscriptFile(seg)).session));
        if (probes.length === 0) { skip('no probes in the segment'); continue; }
        const a = checkProbes(probes, outputText({ messages: [] }, agentSide));
        const p = checkProbes(probes, outputText({ messages: [] }, [...agentSide, r.context]));
        addKinds(byKindAlone, a.byKind);
        addKinds(byKindPair, p.byKind);
        const summaryTokens = estimateTokens(r.stretch.summary ?? '');
        const contextTokens = estimateTokens(r.context);
        if (contextTokens <= r.budget) withinBudget++;
        compactions.push({ file: basename(file), index: k + 1, agent, probes: probes.length, alone: a.kept!, pair: p.kept!, summaryTokens, contextTokens, encrypted: !r.stretch.summary });
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const mean = (f: (c: HookCompaction) => number): number | null => (compactions.length ? compactions.reduce((s, c) => s + f(c), 0) / compactions.length : null);
  return { compactions, notMeasured, meanAlone: mean((c) => c.alone), meanPair: mean((c) => c.pair), byKindAlone, byKindPair, withinBudget };
}
