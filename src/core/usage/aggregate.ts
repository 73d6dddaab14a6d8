// Turns per-file parse states into per-session usage and totals; each agent's module prices its own files.
import { AGENT_IDS, agentModule } from '../formats/registry';
import { absurdUsageWarning } from '../read/warnings';
import { CATALOG_ID } from './catalog';
import { compactThreshold, usageWindow } from './contextWindow';
import { projectOf } from './common';
import { addCounts, type ModelUsage } from './modelUsage';
import { rowsByModel } from './rows';
import { emptyCounts, type FileState, type SessionUsage, type TokenCounts, type UsageReport } from './types';

export interface ScannedFile {
  path: string;
  state: FileState;
}

export const DEFAULT_COMPACT_THRESHOLD = 150_000;

/** Per-model usage of every file, each agent's files measured together by its own module (it may dedupe across them). */
function usageByFile(files: ScannedFile[], warnings: string[]): Map<number, Map<string, ModelUsage>> {
  const out = new Map<number, Map<string, ModelUsage>>();
  for (const id of AGENT_IDS) {
    const mine = files.flatMap((f, i) => (f.state.agent === id ? [{ f, i }] : []));
    if (mine.length === 0) continue;
    const usage = agentModule(id).usage;
    const byModel = usage.kind === 'lines' ? usage.byModel(mine.map(({ f }) => f), warnings) : rowsByModel(mine.map(({ f }) => f));
    for (const [k, v] of byModel) out.set(mine[k]!.i, v);
  }
  return out;
}

function sessionIdFromPath(path: string): string {
  const base = path.replace(/^.*[\\/]/, '').replace(/\.jsonl$/, '');
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.exec(base);
  return uuid ? uuid[0] : base;
}

export interface ReportOptions {
  threshold?: number;
  warnings?: string[];
}

/** A report and the per-model usage it counted for each file (by index): what a grown-only update starts from. */
export interface BuiltReport {
  report: UsageReport;
  perFile: Map<number, Map<string, ModelUsage>>;
}

/** Builds the report; files that never showed a transcript record are left out with a warning. */
export function buildReport(files: ScannedFile[], options: ReportOptions = {}): UsageReport {
  return buildReportWithUsage(files, options).report;
}

export function buildReportWithUsage(files: ScannedFile[], options: ReportOptions = {}): BuiltReport {
  const threshold = options.threshold ?? DEFAULT_COMPACT_THRESHOLD;
  const warnings = [...(options.warnings ?? [])];
  const perFile = usageByFile(files, warnings);
  const tally = new Tally();
  files.forEach((f, i) => {
    const s = f.state;
    if (!s.recognized) {
      warnings.push(`${f.path}: not an agent transcript, skipped`);
      return;
    }
    if (s.invalidLines > 0) warnings.push(`${f.path}: ${s.invalidLines} invalid line(s) ignored`);
    if (s.absurdUsage > 0) warnings.push(`${f.path}: ${absurdUsageWarning(s.absurdUsage)}`);
    tally.sessions.push(sessionOf(f.path, s, tally.add(perFile.get(i) ?? new Map<string, ModelUsage>()), threshold));
  });
  return { report: tally.report(warnings), perFile };
}

/** A session's counts and cost from its per-model usage (cost undefined when a model has no price). */
export interface FileTally {
  counts: TokenCounts;
  cost: number | undefined;
  unknownModels: string[];
}

/**
 * Sums sessions into a report. Every report is summed here, file by file in scan order and model by model in the
 * order counted, so a report updated for grown sessions (grownReport.ts) has the very same floating-point totals
 * as one built from scratch.
 */
export class Tally {
  readonly sessions: SessionUsage[] = [];
  private readonly totals = { ...emptyCounts(), pricedCost: 0 };
  private readonly unknownAll = new Set<string>();

  add(byModel: Map<string, ModelUsage>): FileTally {
    const counts = emptyCounts();
    let cost: number | undefined = 0;
    const unknownModels: string[] = [];
    for (const [model, { counts: c, cost: modelCost }] of byModel) {
      addCounts(counts, c);
      if (modelCost === undefined) {
        unknownModels.push(model);
        this.unknownAll.add(model);
        cost = undefined;
      } else {
        this.totals.pricedCost += modelCost;
        if (cost !== undefined) cost += modelCost;
      }
    }
    addCounts(this.totals, counts);
    return { counts, cost, unknownModels };
  }

  /** The report, sessions newest first; `warnings` gains the unknown-models line. */
  report(warnings: string[]): UsageReport {
    // Code-unit order, not localeCompare: ISO timestamps and paths need no collation, and its first call loads ICU
    // (~10 ms of a cold scan).
    const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
    this.sessions.sort((a, b) => cmp(b.lastTimestamp ?? '', a.lastTimestamp ?? '') || cmp(a.file, b.file));
    const unknownModels = [...this.unknownAll].sort();
    if (unknownModels.length > 0) warnings.push(unknownModelsWarning(unknownModels));
    const totals = { ...this.totals, cost: unknownModels.length > 0 ? null : this.totals.pricedCost };
    return { sessions: this.sessions, totals, unknownModels, pricing: CATALOG_ID, warnings };
  }
}

/** The report's pricing warning: `usage`'s own, left out by commands that do not show costs (`search`). */
export function unknownModelsWarning(unknownModels: readonly string[]): string {
  return `cost unknown for model(s) not in the price catalog: ${unknownModels.join(', ')}`;
}

/** One session's line of the report, from its file's state and tally. */
export function sessionOf(path: string, s: FileState, t: FileTally, threshold: number): SessionUsage {
  const window = usageWindow({ agent: s.agent, models: s.models, contextWindow: s.contextWindow });
  return {
    file: path,
    agent: s.agent,
    project: projectOf(s.project),
    sessionId: s.sessionId ?? sessionIdFromPath(path),
    title: s.title,
    firstTimestamp: s.firstTimestamp,
    lastTimestamp: s.lastTimestamp,
    models: [...s.models],
    contextTokens: s.contextTokens,
    ...(s.contextWindow ? { contextWindow: s.contextWindow } : {}),
    compactSoon: s.contextTokens !== undefined && s.contextTokens >= compactThreshold(threshold, window),
    ...t.counts,
    cost: t.cost,
    unknownModels: t.unknownModels,
    ...(s.estimated ? { estimated: true } : {}),
  };
}
