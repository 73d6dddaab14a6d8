// Turns per-file parse states into per-session usage and totals; each agent's module prices its own files.
import { AGENT_IDS, agentModule } from '../formats/registry';
import { CATALOG_ID } from './catalog';
import { addCounts, type ModelUsage } from './modelUsage';
import { rowsByModel } from './rows';
import { emptyCounts, type FileState, type SessionUsage, type UsageReport } from './types';

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

/** Builds the report; files that never showed a transcript record are left out with a warning. */
export function buildReport(files: ScannedFile[], options: ReportOptions = {}): UsageReport {
  const threshold = options.threshold ?? DEFAULT_COMPACT_THRESHOLD;
  const warnings = [...(options.warnings ?? [])];
  const perFile = usageByFile(files, warnings);
  const sessions: SessionUsage[] = [];
  const totals = { ...emptyCounts(), cost: 0 };
  const unknownAll = new Set<string>();
  files.forEach((f, i) => {
    const s = f.state;
    if (!s.recognized) {
      warnings.push(`${f.path}: not an agent transcript, skipped`);
      return;
    }
    if (s.invalidLines > 0) warnings.push(`${f.path}: ${s.invalidLines} invalid line(s) ignored`);
    const byModel = perFile.get(i) ?? new Map<string, ModelUsage>();
    const counts = emptyCounts();
    let cost: number | undefined = 0;
    const unknownModels: string[] = [];
    for (const [model, { counts: c, cost: modelCost }] of byModel) {
      addCounts(counts, c);
      if (modelCost === undefined) {
        unknownModels.push(model);
        unknownAll.add(model);
        cost = undefined;
      } else {
        totals.cost += modelCost;
        if (cost !== undefined) cost += modelCost;
      }
    }
    addCounts(totals, counts);
    sessions.push({
      file: f.path,
      agent: s.agent,
      project: s.project,
      sessionId: s.sessionId ?? sessionIdFromPath(f.path),
      title: s.title,
      firstTimestamp: s.firstTimestamp,
      lastTimestamp: s.lastTimestamp,
      models: [...s.models],
      contextTokens: s.contextTokens,
      compactSoon: (s.contextTokens ?? 0) >= threshold,
      ...counts,
      cost,
      unknownModels,
      ...(s.estimated ? { estimated: true } : {}),
    });
  });
  // Code-unit order, not localeCompare: ISO timestamps and paths need no collation, and its first call loads ICU
  // (~10 ms of a cold scan).
  const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  sessions.sort((a, b) => cmp(b.lastTimestamp ?? '', a.lastTimestamp ?? '') || cmp(a.file, b.file));
  const unknownModels = [...unknownAll].sort();
  if (unknownModels.length > 0) warnings.push(`cost unknown for model(s) not in the price catalog: ${unknownModels.join(', ')}`);
  return { sessions, totals, unknownModels, pricing: CATALOG_ID, warnings };
}
