// Cleanup rule contract, ids and settings.
import type { Block, Message, Session } from '../model/transcript';
import type { IdentifierListing } from './listing';

export const RULE_IDS = ['state-snapshot', 'collapse-noise', 'drop-reasoning', 'media-placeholder', 'dedupe-file-reads', 'tool-records', 'truncate-giant-results', 'trim-old-replies', 'old-context', 'trim-old-prompts'] as const;
export type RuleId = (typeof RULE_IDS)[number];

export type RuleParams = Readonly<Record<string, number>>;
export interface RuleSetting { readonly enabled: boolean; readonly params: RuleParams }

export interface CleanupOptions {
  /** Model turns (a reply with its tool results) kept verbatim at the end. */
  readonly keepRecentTurns: number;
  /** When > 0, protect the recent part by this token budget instead of a turn count. */
  readonly keepRecentTokens?: number;
  /**
   * Verbatim budget for tool data inside the recent part, newest first; 0 or absent: automatic (4,000 tokens, or a
   * tenth of the history when that is less). The results of a model turn still waiting for its reply come first;
   * what does not fit becomes records.
   */
  readonly keepRecentResultTokens?: number;
  /** Per-rule overrides; missing rules use their defaults. */
  readonly rules?: Partial<Record<RuleId, Partial<{ enabled: boolean; params: RuleParams }>>>;
}

export const DEFAULT_CLEANUP: CleanupOptions = { keepRecentTurns: 6 };

/** What a rule sees: the working copy of the messages and where the protected part starts. */
export interface RuleContext {
  readonly session: Session;
  readonly messages: Message[];
  /** Messages at or after this index form the recent part: only their results outside the budget may change. */
  readonly protectedFrom: number;
  /** Message indexes inside the aging part that must still stay verbatim (the latest prompt). */
  readonly pinned: ReadonlySet<number>;
  /** Whether a rule may replace or remove block `b` of message `m` (aging part, or a recent result over budget). */
  canChange(m: number, b: Block): boolean;
  readonly toolNames: ReadonlyMap<string, string>;
  /** Tool call ids that have a result somewhere (calls still waiting are never touched). */
  readonly answered: ReadonlySet<string>;
  readonly params: RuleParams;
  /** The block as it was before any rule changed it (for identifier extraction). */
  originalOf(block: Block): Block;
  /** Identifiers already written into an earlier record of this run (each listed once). */
  readonly listing: IdentifierListing;
  /** Replace (or with undefined, remove) block `b` of message `m`; accounts the savings to the rule. */
  replace(m: number, b: number, next: Block | undefined): void;
  /** Puts one block of text (the state snapshot) where message `m` began, before the first message kept after it. */
  insertBefore(m: number, text: string): void;
}

export interface CleanupRule {
  readonly id: RuleId;
  /** What the user reads (reports, Cleanup tab, CLI): "Collapse repeated noise"; the id stays in JSON and settings. */
  readonly label: string;
  /** One plain sentence on what the rule does, with no parameter names. */
  readonly description: string;
  readonly defaults: RuleParams;
  apply(ctx: RuleContext): void;
}

/** Visits every block a rule may change, oldest first (indexes stay valid: removals apply after the rule). */
export function eachChangeable(ctx: RuleContext, visit: (m: number, i: number, b: Block) => void): void {
  ctx.messages.forEach((msg, m) => {
    if (ctx.pinned.has(m)) return;
    msg.blocks.forEach((b, i) => { if (ctx.canChange(m, b)) visit(m, i, b); });
  });
}
