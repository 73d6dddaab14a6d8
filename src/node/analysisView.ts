// Host side of the Simulator and Cleanup tabs: runs the core engines on a kept Session for the webview.
import { cleanupSession, ruleSettings } from '../core/cleanup/engine';
import { RULES } from '../core/cleanup/rules';
import { RULE_IDS, type CleanupOptions, type RuleId } from '../core/cleanup/types';
import { harnessNote, measureCompaction } from '../core/compact/measure';
import { PROTECT_REASONS } from '../core/compact/report';
import type { Session } from '../core/model/transcript';
import { DEFAULT_POLICY, simulate } from '../core/simulate/simulate';
import { calibrate } from '../core/tokens/calibrate';
import { clampCleanup, clampPolicy } from '../protocol/limits';
import type { CleanupInput, CleanupPreview, SimulationPolicyInput, SimulationView } from '../protocol/messages';

/** What the user's settings say, before the panel's controls change anything. */
export interface AnalysisDefaults {
  /** `contextCompactor.cleanup.*`, with rule parameters the panel does not show but keeps. */
  readonly cleanup: CleanupOptions;
  /** `contextCompactor.contextThreshold`. */
  readonly threshold: number;
}

export function defaultPolicy(d: AnalysisDefaults): SimulationPolicyInput {
  return clampPolicy({ threshold: d.threshold, keepRecentTurns: d.cleanup.keepRecentTurns, summary: DEFAULT_POLICY.summary, summaryTokens: DEFAULT_POLICY.summaryTokens });
}

export function defaultCleanupInput(d: AnalysisDefaults): CleanupInput {
  const settings = ruleSettings(d.cleanup);
  const rules = Object.fromEntries(RULE_IDS.map((id) => [id, settings[id].enabled])) as Record<RuleId, boolean>;
  return clampCleanup({ keepRecentTurns: d.cleanup.keepRecentTurns, keepRecentTokens: d.cleanup.keepRecentTokens ?? 0, rules });
}

/** The panel's switches and protection over the settings' options; rule parameters stay the settings'. */
export function cleanupOptionsOf(input: CleanupInput, base: CleanupOptions): CleanupOptions {
  const c = clampCleanup(input);
  const rules: NonNullable<CleanupOptions['rules']> = { ...base.rules };
  for (const id of RULE_IDS) {
    const enabled = c.rules[id];
    if (enabled !== undefined) rules[id] = { ...base.rules?.[id], enabled };
  }
  return { keepRecentTurns: c.keepRecentTurns, keepRecentTokens: c.keepRecentTokens, rules };
}

export function simulationView(session: Session, policy: SimulationPolicyInput, base: CleanupOptions): SimulationView {
  const p = clampPolicy(policy);
  // The same rules (and parameters) the Compact command would apply at each compaction.
  const sim = simulate(session, { ...p, rules: base.rules });
  return { policy: p, turns: sim.turns, totals: sim.totals };
}

export function cleanupPreview(session: Session, input: CleanupInput, base: CleanupOptions): CleanupPreview {
  const options = cleanupOptionsOf(input, base);
  const result = cleanupSession(session, options);
  const cal = calibrate(session);
  // The same measure as the Compact command's report, so the panel and the notification agree.
  const m = measureCompaction(session, result.session, result.changedOriginals, '', cal);
  const settings = ruleSettings(options);
  let protectedTokens = 0;
  for (const p of result.protection.parts) protectedTokens += p.tokens;
  return {
    options: { keepRecentTurns: options.keepRecentTurns, keepRecentTokens: options.keepRecentTokens ?? 0, rules: Object.fromEntries(RULE_IDS.map((id) => [id, settings[id].enabled])) },
    rules: RULES.map((r) => ({
      id: r.id, label: r.label, description: r.description, enabled: settings[r.id].enabled,
      tokensSaved: Math.round(result.rules[r.id].tokensSaved * cal.scale), applied: result.rules[r.id].applied,
    })),
    before: m.before.tokens, after: m.after.tokens, reduction: m.reduction,
    history: { before: m.before.historyTokens, after: m.after.historyTokens, reduction: m.historyReduction },
    harnessTokens: m.harnessTokens, harnessAfterTokens: m.harnessAfterTokens, ...(harnessNote(m) ? { harnessNote: harnessNote(m) } : {}), tooSmallToCompact: m.tooSmallToCompact,
    protected: { fromTurn: result.protection.fromTurn, turns: session.turns.length - result.protection.fromTurn, tokens: Math.round(protectedTokens * cal.scale) },
    protectedParts: result.protection.parts.map((p) => ({ reason: PROTECT_REASONS[p.reason], blocks: p.blocks, tokens: Math.round(p.tokens * cal.scale) })),
    identifierRecall: { recall: m.identifierRecall, total: m.identifiers.total },
  };
}
