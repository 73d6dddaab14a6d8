// The vendor comparison: on the segments before each of the agents' own compactions, what the agent kept against
// what ours keep — history cut, probes kept (overall and by kind), output size — as figures and table cells.
import type { FormatId } from '../model/transcript';
import { pctText, quantile, summarize } from './aggregate';
import { PROBE_KINDS, type EvalRow, type ProbeKind, type SegmentFigures, type SegmentsSummary, type StrategyId } from './types';
export type { SegmentFigures, SegmentsSummary } from './types';

/** `rows`: the run's rows (those without a segment are left out); `strategies`: the run's. */
export function summarizeSegments(rows: readonly EvalRow[], strategies: readonly StrategyId[]): SegmentsSummary {
  const seg = rows.filter((r) => r.segment);
  const vendor = seg.filter((r) => r.strategy === 'vendor');
  const byAgent: Partial<Record<FormatId, number>> = {};
  for (const r of vendor) if (r.format !== 'unknown') byAgent[r.format] = (byAgent[r.format] ?? 0) + 1;
  const order = (['vendor', ...strategies.filter((s) => s !== 'vendor')] as StrategyId[]).filter((s) => seg.some((r) => r.strategy === s));
  const byStrategy: Partial<Record<StrategyId, SegmentFigures>> = {};
  for (const s of order) {
    const mine = seg.filter((r) => r.strategy === s);
    const out = mine.filter((r) => r.status === 'ok' && r.tokens).map((r) => r.tokens!.historyAfter);
    byStrategy[s] = { ...summarize(mine), medianOutputTokens: quantile(out, 0.5) };
  }
  return { compactions: vendor.length, sessions: new Set(vendor.map((r) => r.file)).size, byAgent, encrypted: vendor.filter((r) => r.segment!.encrypted).length, strategies: order, byStrategy };
}

/** The agents whose compactions eval cuts at (vendorCompactions), by name; the registry is not imported this low. */
const AGENT_NAMES: Partial<Record<FormatId, string>> = { 'claude-code': 'Claude Code', codex: 'Codex', 'qwen-code': 'Qwen Code', 'copilot-cli': 'Copilot CLI', droid: 'Factory Droid' };
const k = (n: number | null): string => (n === null ? '–' : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(Math.round(n)));
const pooled = (t: Partial<Record<ProbeKind, { kept: number; total: number }>>): string => {
  const all = Object.values(t).reduce((a, x) => ({ kept: a.kept + x!.kept, total: a.total + x!.total }), { kept: 0, total: 0 });
  return all.total ? `${Math.round((all.kept / all.total) * 100)} % (${all.kept}/${all.total})` : '–';
};

/** The strategy as the comparison names it. */
export const segmentLabel = (s: StrategyId): string => (s === 'vendor' ? "vendor (the agent's own)" : `ours, ${s}`);

/** One line: how many compactions, of which agents, and what the figures mean. */
export function segmentsLine(s: SegmentsSummary): string {
  const agents = Object.entries(s.byAgent).map(([a, n]) => `${AGENT_NAMES[a as FormatId] ?? a} ${n}`).join(', ');
  const enc = s.encrypted ? `; ${s.encrypted} with an encrypted summary (Codex remote compaction): the vendor's probes there are looked for in the messages it kept, a lower bound` : '';
  return `${s.compactions} of the agents' own compactions in ${s.sessions} session(s)${agents ? ` (${agents})` : ''}, each measured on the segment before it: the history the agent held when it compacted${enc}. Output size: tokens of history after. Harness (system prompt, tools, and the initial context the agent re-sends after its own compaction: Codex's instructions, AGENTS.md, environment context) is counted out on both sides, from what each side holds.`;
}

export const SEGMENT_HEAD = ['on the same segments', 'ran', 'history cut (median)', 'probes kept (median)', 'probes kept (all)', 'output size (median)'];

/** One row per strategy: vendor first. `pct` formats a share (the Markdown keeps number and unit together). */
export function segmentCells(s: SegmentsSummary, pct: (x: number | null) => string = pctText): string[][] {
  return s.strategies.map((id) => {
    const f = s.byStrategy[id]!;
    const ran = f.files - f.skipped;
    return [segmentLabel(id), ran === 0 ? 'skipped' : `${ran - f.failed}/${ran}`, pct(f.medianHistoryReduction), pct(f.medianProbesKept), pooled(f.probes), `${k(f.medianOutputTokens)} tokens`];
  });
}

/** Probes kept by kind (rows) and strategy (columns), pooled over the segments. */
export function segmentKindCells(s: SegmentsSummary): string[][] {
  return PROBE_KINDS.filter((kind) => s.strategies.some((id) => (s.byStrategy[id]!.probes[kind]?.total ?? 0) > 0)).map((kind) => [kind, ...s.strategies.map((id) => {
    const t = s.byStrategy[id]!.probes[kind];
    return t && t.total > 0 ? `${Math.round((t.kept / t.total) * 100)} % (${t.kept}/${t.total})` : '–';
  })]);
}
