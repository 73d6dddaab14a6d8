// The one context window a session is measured against, decided here for every surface (inspect, the composition
// header, the status bar): a session must never read "14 % of a 1M window" beside a 200k agent.
import { contextWindowOf } from './catalog';

/** Claude Code runs Claude models at 200k unless the 1M context is asked for (a `[1m]` model) or was used. */
export const CLAUDE_CODE_WINDOW = 200_000;

export interface WindowFacts {
  /** The window the agent logged for the session (Codex's `model_context_window`): it wins. */
  readonly recorded?: number;
  /** The largest context the session actually had: past 200k, Claude Code must have run with the 1M window. */
  readonly peak?: number;
}

/**
 * The session's context window: the agent's recorded one; for Claude Code 200k (its default even where the catalog
 * lists a model's 1M long-context tier) unless the model is a `[1m]` variant or the session went past 200k; else the
 * catalog's window of its latest model, or undefined when nothing says.
 */
export function sessionContextWindow(agent: string, model: string | undefined, facts: WindowFacts = {}): number | undefined {
  if (facts.recorded !== undefined && facts.recorded > 0) return facts.recorded;
  const catalog = model ? contextWindowOf(model.replace(/\[1m\]$/i, '')) : undefined;
  if (agent !== 'claude-code' || catalog === undefined) return catalog;
  const long = /\[1m\]$/i.test(model ?? '') || (facts.peak ?? 0) > CLAUDE_CODE_WINDOW;
  return long ? Math.max(catalog, 1_000_000) : Math.min(catalog, CLAUDE_CODE_WINDOW);
}

/** Share of a session's window past which it is flagged even when the configured threshold is larger. */
export const WINDOW_SHARE = 0.8;

/**
 * The context from which a session is flagged "compact soon": the configured threshold, or 80 % of a window smaller
 * than it (a 128k model never reaches the default 150,000, and would never be flagged).
 */
export function compactThreshold(threshold: number, window: number | undefined): number {
  return window !== undefined && window > 0 ? Math.min(threshold, Math.floor(window * WINDOW_SHARE)) : threshold;
}

/**
 * The window of a usage report's session line (its agent, latest model and recorded window). The scan records Claude
 * Code's 1M from the evidence that holds (formats/claude-code/usage.ts): the last context alone, one request past 200k,
 * may be a bogus usage record.
 */
export function usageWindow(s: { readonly agent: string; readonly models: readonly string[]; readonly contextWindow?: number }): number | undefined {
  return sessionContextWindow(s.agent, s.models.at(-1), { recorded: s.contextWindow });
}
