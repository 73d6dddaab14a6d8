// Turns per-file parse states into per-session usage and totals, deduplicating Claude rows across files.
import { CATALOG_ID } from './catalog';
import { betterRow } from './claude';
import { costOf, requestCost } from './pricing';
import { type ClaudeRow, emptyCounts, type FileState, type SessionUsage, type TokenCounts, type UsageReport } from './types';

export interface ScannedFile {
  path: string;
  state: FileState;
}

export const DEFAULT_COMPACT_THRESHOLD = 150_000;

function addCounts(into: TokenCounts, c: TokenCounts): void {
  into.inputTokens += c.inputTokens;
  into.outputTokens += c.outputTokens;
  into.cacheCreationTokens += c.cacheCreationTokens;
  into.cacheReadTokens += c.cacheReadTokens;
}

const rowCounts = (r: ClaudeRow): TokenCounts => ({ inputTokens: r[1], outputTokens: r[2], cacheCreationTokens: r[3], cacheReadTokens: r[4] });

/** One model's usage in one session and its USD cost (undefined: the catalog does not know the model). */
interface ModelUsage {
  counts: TokenCounts;
  cost: number | undefined;
}

function addUsage(byModel: Map<string, ModelUsage>, model: string, counts: TokenCounts, cost: number | undefined): void {
  const cur = byModel.get(model) ?? { counts: emptyCounts(), cost: 0 };
  byModel.set(model, cur);
  addCounts(cur.counts, counts);
  cur.cost = cur.cost === undefined || cost === undefined ? undefined : cur.cost + cost;
}

/** Codex rollouts older than ~0.40 record no model: priced as gpt-5, the default then (as ccusage does). */
export const CODEX_FALLBACK_MODEL = 'gpt-5';

/**
 * Claude dedupe across files, as ccusage does it: one row per (message.id, request id), preferring the
 * main-chain row, then the fullest one; a sidechain row whose message.id also occurs on the main chain
 * is a replay (e.g. `/btw`) and is dropped. Rows without a message.id are never duplicates (their keys are
 * per file). Returns, per file index, the per-model counts it keeps, each request priced on its own (tiers).
 */
function dedupeClaude(files: ScannedFile[]): Map<number, Map<string, ModelUsage>> {
  const mainMessages = new Set<string>();
  const best = new Map<string, { file: number; row: ClaudeRow }>();
  files.forEach((f, file) => {
    if (f.state.agent !== 'claude-code') return;
    for (const [rowKey, row] of Object.entries(f.state.rows)) {
      if (row[6] === 0 && row[0]) mainMessages.add(row[0]);
      const key = row[0] ? rowKey : `${file}:${rowKey}`;
      const cur = best.get(key);
      if (!cur || betterRow(row, cur.row)) best.set(key, { file, row });
    }
  });
  const perFile = new Map<number, Map<string, ModelUsage>>();
  for (const { file, row } of best.values()) {
    if (row[6] === 1 && row[0] && mainMessages.has(row[0])) continue;
    const model = files[file].state.models[row[5]] ?? 'unknown';
    const byModel = perFile.get(file) ?? new Map<string, ModelUsage>();
    perFile.set(file, byModel);
    const counts = rowCounts(row);
    addUsage(byModel, model, counts, requestCost(model, { ...counts, cacheWrite1hTokens: row[7] ?? 0 }));
  }
  return perFile;
}

function codexByModel(state: FileState, path: string, warnings: string[]): Map<string, ModelUsage> {
  const byModel = new Map<string, ModelUsage>();
  for (const [model, s] of Object.entries(state.codexSums)) {
    const priced = model === 'unknown' ? CODEX_FALLBACK_MODEL : model;
    if (priced !== model) warnings.push(`${path}: no model recorded; priced as ${CODEX_FALLBACK_MODEL}, Codex's default then`);
    for (const at of [0, 4]) {
      const counts = { inputTokens: s[at] ?? 0, outputTokens: s[at + 1] ?? 0, cacheCreationTokens: s[at + 2] ?? 0, cacheReadTokens: s[at + 3] ?? 0 };
      if (at === 0 || counts.inputTokens + counts.outputTokens + counts.cacheCreationTokens + counts.cacheReadTokens > 0) {
        addUsage(byModel, model, counts, costOf(priced, counts, at === 4));
      }
    }
  }
  return byModel;
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
  const claudeCounts = dedupeClaude(files);
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
    const byModel = s.agent === 'codex' ? codexByModel(s, f.path, warnings) : (claudeCounts.get(i) ?? new Map<string, ModelUsage>());
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
    });
  });
  sessions.sort((a, b) => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? '') || a.file.localeCompare(b.file));
  const unknownModels = [...unknownAll].sort();
  if (unknownModels.length > 0) warnings.push(`cost unknown for model(s) not in the price catalog: ${unknownModels.join(', ')}`);
  return { sessions, totals, unknownModels, pricing: CATALOG_ID, warnings };
}
