// Shared shapes of the usage scanner: billed token counts, per-file parse state and per-session results.
import type { AgentId } from '../model/ids';

/** The agent a scanned file belongs to (see model/ids.ts). */
export type AgentKind = AgentId;

/** Answers "does the current line contain this exact ASCII marker?" without decoding it. */
export type Contains = (marker: string) => boolean;

/** Billed token counts, named like ccusage's JSON so totals can be compared field by field. */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

/**
 * One deduplicated Claude response as kept in the file state:
 * [messageId, input, output, cacheCreation, cacheRead, modelIndex, isSidechain (0|1), cacheCreation1h].
 * Arrays instead of objects keep the persisted cache small. cacheCreation1h is the 1-hour-TTL part of cacheCreation.
 */
export type ClaudeRow = [string, number, number, number, number, number, number, number];

/**
 * Codex per-model sums: [input (uncached), output, cacheCreation, cacheRead] of the requests below the model's
 * long-context threshold, then the same four of the requests above it (billed at the catalog's tier).
 */
export type CodexSums = [number, number, number, number, number, number, number, number];

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
  /**
   * The context window the agent logged (Codex's `model_context_window`), or Claude Code's 1M once a `/model` chose it
   * or two requests went past 200k: the session's window, as the reader says.
   */
  contextWindow?: number;
  /** Claude: the dedupe key of the first main-chain request past 200k since the last `/model` (a second one says 1M). */
  longRequest?: string;
  /**
   * Claude: dedupe key (`#message.id:request id`) → the fullest row seen. A Map, not an object: thousands of fresh
   * string keys made the object a slow dictionary (a tenth of a cold scan); the cache stores it as an object.
   */
  rows: Map<string, ClaudeRow>;
  /** Claude rows without a message.id cannot be deduped; they get sequential keys. */
  anonymousRows: number;
  /** Codex: per-model sums of deltas between cumulative totals. */
  codexSums: Record<string, CodexSums>;
  /** Codex: last cumulative thread usage seen [input, cached, cacheWrite, output, total]. */
  codexCumulative?: [number, number, number, number, number];
  codexModel?: string;
  /**
   * Codex ≤ 0.2x rollouts record no usage: the estimate so far (legacyUsage.ts). history: tokens of the items sent
   * on every request; reasoning: the reasoning since the latest user message; inRun: the last item was the model's;
   * lastSent: what the last request was sent (its prefix is cached for the next).
   */
  codexLegacy?: { history: number; reasoning: number; inRun: boolean; lastSent?: number };
  invalidLines: number;
  /** Usage records ignored whole because a token count in them is impossible (see plausibleTokens). */
  absurdUsage: number;
  /** True once any line of a known transcript shape was seen. */
  recognized: boolean;
  /** The agent recorded no usage: the rows are our estimate from the transcript's text (labelled as such). */
  estimated?: boolean;
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
  /** The window the agent logged for the session (Codex), which wins over the catalog's (contextWindow.ts). */
  contextWindow?: number;
  compactSoon: boolean;
  /** USD; undefined ("cost unknown") when a model used in the session has no price in the catalog. */
  cost?: number;
  unknownModels: string[];
  /** Tokens and cost are estimated from the transcript's text: the agent recorded no usage. */
  estimated?: boolean;
}

export interface UsageTotals extends TokenCounts {
  /**
   * USD of all usage; null ("cost unknown") when some usage is of a model the catalog has no price for, so a
   * program reading only this never takes unpriced usage for $0.
   */
  cost: number | null;
  /** USD of the priced models' usage alone; the usage of `UsageReport.unknownModels` is not in it. */
  pricedCost: number;
}

export interface UsageReport {
  sessions: SessionUsage[];
  totals: UsageTotals;
  unknownModels: string[];
  /** The catalog the costs come from, e.g. "@pydantic/genai-prices@0.1.8 (prices as of 2026-12-01)". */
  pricing: string;
  warnings: string[];
}

export function emptyCounts(): TokenCounts {
  return { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 };
}

export function newFileState(agent: AgentKind): FileState {
  return { agent, models: [], rows: new Map(), anonymousRows: 0, codexSums: {}, invalidLines: 0, absurdUsage: 0, recognized: false };
}
