// Ranges of the Simulator and Cleanup controls, and the clamping both sides apply to them.
import { RULE_IDS, type RuleId } from '../core/cleanup/types';
import type { CleanupInput, SimulationPolicyInput } from './messages';

export interface Range { readonly min: number; readonly max: number; readonly step: number }

export const SIMULATION_LIMITS = {
  threshold: { min: 20_000, max: 400_000, step: 1_000 },
  keepRecentTurns: { min: 0, max: 30, step: 1 },
  summaryTokens: { min: 0, max: 50_000, step: 100 },
} as const satisfies Readonly<Record<string, Range>>;

export const CLEANUP_LIMITS = {
  keepRecentTurns: { min: 0, max: 30, step: 1 },
  /** 0 switches the budget off (protection by turns). */
  keepRecentTokens: { min: 0, max: 400_000, step: 1_000 },
} as const satisfies Readonly<Record<string, Range>>;

/** A whole number inside the range; anything not finite becomes `fallback` (then clamped too). */
export function clampTo(range: Range, value: number, fallback: number = range.min): number {
  const v = Number.isFinite(value) ? Math.round(value) : fallback;
  return Math.min(range.max, Math.max(range.min, v));
}

/** The webview is an input boundary: whatever it sent, the engine gets numbers inside the ranges. */
export function clampPolicy(p: SimulationPolicyInput): SimulationPolicyInput {
  const L = SIMULATION_LIMITS;
  return {
    threshold: clampTo(L.threshold, p.threshold),
    keepRecentTurns: clampTo(L.keepRecentTurns, p.keepRecentTurns),
    summary: p.summary === true,
    summaryTokens: clampTo(L.summaryTokens, p.summaryTokens),
  };
}

/** Numbers clamped; rules reduced to known ids with boolean values, in RULE_IDS order. */
export function clampCleanup(c: CleanupInput): CleanupInput {
  const rules: Partial<Record<RuleId, boolean>> = {};
  for (const id of RULE_IDS) {
    // Own properties only: a webview could send `__proto__` or `constructor` as rule ids.
    if (Object.prototype.hasOwnProperty.call(c.rules, id) && typeof c.rules[id] === 'boolean') rules[id] = c.rules[id];
  }
  return {
    keepRecentTurns: clampTo(CLEANUP_LIMITS.keepRecentTurns, c.keepRecentTurns),
    keepRecentTokens: clampTo(CLEANUP_LIMITS.keepRecentTokens, c.keepRecentTokens),
    rules,
  };
}
