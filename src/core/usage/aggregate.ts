// Turns per-file parse states into per-session usage and totals, deduplicating Claude rows across files.
import { betterRow } from './claude';
import { costOf } from './pricing';
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

/**
 * Claude dedupe across files, as ccusage does it: one row per (message.id, request id), preferring the
 * main-chain row, then the fullest one; a sidechain row whose message.id also occurs on the main chain
 * is a replay (e.g. `/btw`) and is dropped. Returns, per file index, the per-model counts it keeps.
 */
function dedupeClaude(files: ScannedFile[]): Map<number, Map<string, TokenCounts>> {
  const mainMessages = new Set<string>();
  const best = new Map<string, { file: number; row: ClaudeRow }>();
  files.forEach((f, file) => {
    if (f.state.agent !== 'claude-code') return;
    for (const [key, row] of Object.entries(f.state.rows)) {
      if (row[6] === 0 && row[0]) mainMessages.add(row[0]);
      const cur = best.get(key);
      if (!cur || betterRow(row, cur.row)) best.set(key, { file, row });
    }
  });
  const perFile = new Map<number, Map<string, TokenCounts>>();
  for (const { file, row } of best.values()) {
    if (row[6] === 1 && row[0] && mainMessages.has(row[0])) continue;
    const model = files[file].state.models[row[5]] ?? 'unknown';
    const byModel = perFile.get(file) ?? new Map<string, TokenCounts>();
    perFile.set(file, byModel);
    const counts = byModel.get(model) ?? emptyCounts();
    byModel.set(model, counts);
    addCounts(counts, rowCounts(row));
  }
  return perFile;
}

function codexByModel(state: FileState): Map<string, TokenCounts> {
  const byModel = new Map<string, TokenCounts>();
  for (const [model, s] of Object.entries(state.codexSums)) {
    byModel.set(model, { inputTokens: s[0], outputTokens: s[1], cacheCreationTokens: s[2], cacheReadTokens: s[3] });
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
    const byModel = s.agent === 'codex' ? codexByModel(s) : (claudeCounts.get(i) ?? new Map<string, TokenCounts>());
    const counts = emptyCounts();
    let cost: number | undefined = 0;
    const unknownModels: string[] = [];
    for (const [model, c] of byModel) {
      addCounts(counts, c);
      const modelCost = costOf(model, c);
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
  return { sessions, totals, unknownModels: [...unknownAll].sort(), warnings };
}
