// Runs one transcript through each strategy on the existing pipeline and measures every output the same way.
import { RULE_IDS, type CleanupOptions, type RuleId } from '../../core/cleanup/types';
import { checkProbes } from '../../core/eval/checkProbes';
import { extractProbes, type Probe } from '../../core/eval/probes';
import { emptyRow, okRow } from '../../core/eval/row';
import { sessionText } from '../../core/eval/text';
import { MODEL_STRATEGIES, SEGMENT_STRATEGIES, type EvalRow, type StrategyId } from '../../core/eval/types';
import type { FormatId, Session } from '../../core/model/transcript';
import { isProviderError } from '../../core/summary/provider';
import { redactUrlCredentials } from '../../core/summary/baseUrl';
import { compactTranscript, prepareCompaction, reportOf, withSummary, type PreparedCompaction } from '../compactFile';
import { readTranscriptFile } from '../readTranscriptFile';
import type { SummaryConfig } from '../summarizeStep';
import type { AgentBins } from '../resume/resumeCheck';
import { measureOutput } from './measureOutput';
import { withResumeCheck } from './resumeRows';
import { rollingCompaction } from './rolling';
import { serverStrategy } from './serverStrategy';
import type { SegmentFiles } from './segments';
import { vendorRow, vendorRows } from './vendorStrategy';

export interface EvalConfig {
  readonly strategies: readonly StrategyId[];
  readonly cleanup: CleanupOptions;
  /** The provider for the model strategies; undefined (or provider 'none'): they are skipped. */
  readonly summary?: SummaryConfig;
  /** rolling: compact when the context passes this many tokens. */
  readonly threshold: number;
  /** --resume-check: the agent CLIs that resume each written output (Claude Code, Codex) against a loopback model. */
  readonly resumeCheck?: AgentBins;
  /** Where the resume checks make their throwaway agent homes (runEval's own temp folder, removed when it ends). */
  readonly resumeCheckDir?: string;
  /** vendor: where the segments before the agents' own compactions are written (runEval's temp folder too). */
  readonly segmentDir?: string;
}

/** Cleanup options with every rule off: the recent part is still computed, nothing older is touched. */
export function rulesOff(cleanup: CleanupOptions): CleanupOptions {
  return { ...cleanup, rules: Object.fromEntries(RULE_IDS.map((id) => [id, { enabled: false }])) as Record<RuleId, { enabled: boolean }> };
}

/** One line for any failure: provider and transcript errors say it themselves; URL credentials never show. */
export function failureText(e: unknown): string {
  const msg = isProviderError(e) || e instanceof Error ? e.message : String(e);
  return redactUrlCredentials(msg.split('\n')[0] ?? 'error');
}

interface FileState {
  readonly file: string;
  format: FormatId | 'unknown';
  title?: string;
  probes?: readonly Probe[];
  cleanup?: PreparedCompaction;
  cleanupMs?: number;
  /** What each strategy that writes a transcript would write, for --resume-check. */
  readonly written: Map<StrategyId, PreparedCompaction>;
  /** A segment before one of the agent's own compactions: the vendor row reads what the agent held after it. */
  readonly segment?: SegmentFiles;
}

/** The first read of the session also names it. */
const probesOf = (st: FileState, session: Session): readonly Probe[] => {
  st.title ??= session.title;
  return (st.probes ??= extractProbes(session));
};

function summaryRow(st: FileState, strategy: StrategyId, p: PreparedCompaction): EvalRow {
  st.written.set(strategy, p);
  const r = reportOf(p, undefined);
  const error = p.fallback && p.summary?.error ? `summary failed: ${p.summary.error}` : undefined;
  return okRow({
    file: st.file, format: p.original.format, strategy, durationMs: r.durationMs, measure: r,
    probes: checkProbes(probesOf(st, p.original), sessionText(p.outcome.result)),
    modelCalls: p.modelCalls, modelInputTokens: p.summary?.inputTokens ?? 0, costUsd: p.summary?.costUsd,
    fallback: p.fallback !== null, failure: error,
    notes: p.warnings.filter((w) => /summary|nothing is older/.test(w)).slice(0, 3),
  });
}

async function cleanupStep(st: FileState, config: EvalConfig): Promise<PreparedCompaction> {
  if (!st.cleanup) {
    st.cleanup = await prepareCompaction(st.file, config.cleanup);
    st.cleanupMs = reportOf(st.cleanup, undefined).durationMs;
    st.format = st.cleanup.original.format;
  }
  return st.cleanup;
}

async function runStrategy(st: FileState, strategy: StrategyId, config: EvalConfig, signal: AbortSignal): Promise<EvalRow> {
  const summary = config.summary && config.summary.provider !== 'none' ? config.summary : undefined;
  switch (strategy) {
    case 'cleanup': {
      const p = await cleanupStep(st, config);
      st.written.set(strategy, p);
      const r = reportOf(p, undefined);
      return okRow({ file: st.file, format: p.original.format, strategy, durationMs: st.cleanupMs!, measure: r, probes: checkProbes(probesOf(st, p.original), sessionText(p.outcome.result)) });
    }
    case 'cleanup+summary':
      return summaryRow(st, strategy, await withSummary(await cleanupStep(st, config), summary!, signal));
    case 'summary': {
      const p = await compactTranscript(st.file, { cleanup: rulesOff(config.cleanup), summary, signal });
      st.format = p.original.format;
      return summaryRow(st, strategy, p);
    }
    case 'rolling': {
      const t0 = performance.now();
      const { session } = await readTranscriptFile(st.file);
      st.format = session.format;
      const out = await rollingCompaction(session, { threshold: config.threshold, cleanup: config.cleanup, summary }, signal);
      return okRow({
        file: st.file, format: session.format, strategy, durationMs: performance.now() - t0,
        ...measureOutput(session, out.result, probesOf(st, session)),
        modelCalls: out.modelCalls, modelInputTokens: out.modelInputTokens, costUsd: out.costUsd, compactions: out.compactions,
        failure: out.failure, notes: [summary ? `summary at each compaction (${summary.provider})` : 'cleanup only at each compaction (no provider)', `threshold ${config.threshold.toLocaleString('en-US')} tokens`],
      });
    }
    case 'server':
      return serverStrategy(st.file, summary!, (s) => { st.format = s.format; return probesOf(st, s); }, signal);
    case 'vendor': {
      if (!st.segment) throw new Error('the vendor strategy runs on the segments before the agent\'s own compactions');
      const t0 = performance.now();
      const segment = st.cleanup?.original ?? (await readTranscriptFile(st.file)).session;
      st.format = segment.format;
      return vendorRow(st.segment, segment, probesOf(st, segment), t0);
    }
  }
}

/** The strategies in order on one file or segment; a strategy that throws fails its own row only. */
async function rowsOf(st: FileState, strategies: readonly StrategyId[], config: EvalConfig, signal: AbortSignal): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  const hasProvider = !!config.summary && config.summary.provider !== 'none';
  for (const strategy of strategies) {
    if (signal.aborted) break;
    if (MODEL_STRATEGIES.has(strategy) && !hasProvider) {
      rows.push(emptyRow(st.file, st.format, strategy, 'skipped', 'no provider configured (--provider)'));
      continue;
    }
    const t0 = performance.now();
    try {
      rows.push(await runStrategy(st, strategy, config, signal));
    } catch (e) {
      if (signal.aborted) break;
      rows.push(emptyRow(st.file, st.format, strategy, 'failed', failureText(e), performance.now() - t0));
    }
  }
  return rows;
}

/** Ours (cleanup, cleanup+summary, summary: those the run asked for) on a segment, then what the agent kept of it. */
function segmentRows(segment: SegmentFiles, config: EvalConfig, signal: AbortSignal): Promise<EvalRow[]> {
  const st: FileState = { file: segment.segment, format: 'unknown', written: new Map(), segment };
  return rowsOf(st, [...SEGMENT_STRATEGIES.filter((s) => config.strategies.includes(s)), 'vendor'], config, signal);
}

/** Every strategy for one file, in order; a strategy that throws fails its own row only. */
export async function evalFile(file: string, config: EvalConfig, signal: AbortSignal): Promise<EvalRow[]> {
  const st: FileState = { file, format: 'unknown', written: new Map() };
  const rows = await rowsOf(st, config.strategies.filter((s) => s !== 'vendor'), config, signal);
  // A file that could not be read at all has no format yet for the rows made before it failed.
  const done = rows.map((r) => ({ ...r, ...(r.format === 'unknown' && st.format !== 'unknown' ? { format: st.format } : {}), ...(st.title ? { title: st.title } : {}) }));
  const whole = config.resumeCheck && !signal.aborted ? await withResumeCheck(file, st.format, done, st.written, config.resumeCheck, signal, config.resumeCheckDir) : done;
  if (!config.strategies.includes('vendor') || signal.aborted) return whole;
  return [...whole, ...await vendorRows({ file, format: st.format, title: st.title }, config.segmentDir, signal, (s) => segmentRows(s, config, signal))];
}
