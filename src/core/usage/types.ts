// Shared shapes of the usage scanner: billed token counts, per-file parse state and per-session results.

export type AgentKind = 'claude-code' | 'codex';

/** Billed token counts, named like ccusage's JSON so totals can be compared field by field. */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

/**
 * One deduplicated Claude response as kept in the file state:
 * [messageIdHash, input, output, cacheCreation, cacheRead, modelIndex, isSidechain (0|1)].
 * Arrays instead of objects keep the persisted cache small.
 */
export type ClaudeRow = [string, number, number, number, number, number, number];

/** Codex per-model sums: [input (uncached), output, cacheCreation, cacheRead]. */
export type CodexSums = [number, number, number, number];

/**
 * Everything needed to continue parsing a file from a byte offset. Plain JSON so the
 * node layer can persist it verbatim in the cache.
 */
export interface FileState {
  agent: AgentKind;
  sessionId?: string;
  project?: string;
  title?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  /** Models in first-seen order; rows refer to them by index. */
  models: string[];
  contextTokens?: number;
  /** Claude: dedupe key hash (message.id + request id) → the fullest row seen. */
  rows: Record<string, ClaudeRow>;
  /** Claude rows without a message.id cannot be deduped; they get sequential keys. */
  anonymousRows: number;
  /** Codex: per-model sums of deltas between cumulative totals. */
  codexSums: Record<string, CodexSums>;
  /** Codex: last cumulative thread usage seen [input, cached, cacheWrite, output, total]. */
  codexCumulative?: [number, number, number, number, number];
  codexModel?: string;
  invalidLines: number;
  /** True once any line of a known transcript shape was seen. */
  recognized: boolean;
}

export interface SessionUsage extends TokenCounts {
  file: string;
  agent: AgentKind;
  project?: string;
  sessionId: string;
  title?: string;
  firstTimestamp?: string;
  lastTimestamp?: string;
  models: string[];
  contextTokens?: number;
  compactSoon: boolean;
  /** USD; undefined when a model used in the session has no price in the snapshot. */
  cost?: number;
  unknownModels: string[];
}

export interface UsageTotals extends TokenCounts {
  /** USD over the sessions whose models are all priced. */
  cost: number;
}

export interface UsageReport {
  sessions: SessionUsage[];
  totals: UsageTotals;
  unknownModels: string[];
  warnings: string[];
}

export function emptyCounts(): TokenCounts {
  return { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 };
}

export function newFileState(agent: AgentKind): FileState {
  return { agent, models: [], rows: {}, anonymousRows: 0, codexSums: {}, invalidLines: 0, recognized: false };
}
