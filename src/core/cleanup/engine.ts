// Applies the enabled cleanup rules to the part of the live context older than the protected turns.
import type { Block, Message, Session } from '../model/transcript';
import { buildTurns } from '../read/turns';
import { estimateTokens } from '../tokens/estimate';
import { toolNames } from '../tokens/composition';
import { protectedPart, SMALL_CALL_TOKENS, type Protection } from './protect';
import { IdentifierListing } from './listing';
import { RULES } from './rules';
import { RULE_IDS, type CleanupOptions, type RuleContext, type RuleId, type RuleSetting } from './types';

export interface RuleOutcome { readonly applied: number; readonly tokensSaved: number }

export interface CleanupResult {
  /** The session as it would be resumed after cleanup (new message objects; records untouched). */
  readonly session: Session;
  readonly protection: Protection;
  readonly rules: Record<RuleId, RuleOutcome>;
  /** Original blocks each rule replaced or removed, for fidelity measurement. */
  readonly changedOriginals: Block[];
  /** The state snapshot written in place of the oldest turns: its text and the record it goes before. */
  readonly snapshot?: { readonly text: string; readonly beforeRecord: number };
}

export function ruleSettings(options: CleanupOptions): Record<RuleId, RuleSetting> {
  const out = {} as Record<RuleId, RuleSetting>;
  for (const rule of RULES) {
    const o = options.rules?.[rule.id];
    const params: Record<string, number> = { ...rule.defaults };
    // Every parameter is a count (lines, characters, tokens): a whole number ≥ 0, else the default stays.
    for (const [k, v] of Object.entries(o?.params ?? {})) if (k in rule.defaults && typeof v === 'number' && Number.isFinite(v)) params[k] = Math.max(0, Math.floor(v));
    out[rule.id] = { enabled: o?.enabled ?? true, params };
  }
  return out;
}

export function cleanupSession(session: Session, options: CleanupOptions): CleanupResult {
  const protection = protectedPart(session, options);
  const messages: Message[] = session.messages.map((m) => ({ ...m, blocks: [...m.blocks] }));
  const settings = ruleSettings(options);
  const outcomes = Object.fromEntries(RULE_IDS.map((id) => [id, { applied: 0, tokensSaved: 0 }])) as Record<RuleId, { applied: number; tokensSaved: number }>;
  const names = toolNames(messages);
  const answered = new Set<string>();
  for (const m of messages) for (const b of m.blocks) if (b.type === 'tool_result') answered.add(b.id);
  const pinned = new Set<number>([protection.latestPrompt, protection.promptContext].filter((m): m is number => m !== undefined));
  const from = protection.fromMessage;
  const canChange = (m: number, b: Block): boolean => {
    if (pinned.has(m)) return false;
    if (b.type === 'tool_call' && ((!b.standalone && !answered.has(b.id)) || protection.keptCalls.has(b.id))) return false; // waiting, or the latest plan
    if (m < from) return true;
    // The recent part: only tool data outside its budget (small calls are never in `keptCalls` and never change).
    if (b.type === 'tool_result') return !protection.keptResults.has(b.id);
    if (b.type === 'reasoning') return m < protection.latestTurnFrom;
    return b.type === 'tool_call' && b.tokens > SMALL_CALL_TOKENS && !protection.keptCalls.has(b.id);
  };
  const original = new Map<Block, Block>(); // current block → the original it stands for
  const changedOriginals: Block[] = [];
  const listing = new IdentifierListing(session.cwd);
  let inserted: { m: number; text: string; tokens: number } | undefined;

  for (const rule of RULES) {
    const setting = settings[rule.id];
    if (!setting.enabled) continue;
    const removed = new Set<Block>();
    const ctx: RuleContext = {
      session, messages, protectedFrom: from, pinned, canChange, toolNames: names, answered, params: setting.params, listing,
      originalOf: (b) => original.get(b) ?? b,
      replace(m, b, next) {
        const msg = messages[m]!;
        const old = msg.blocks[b]!;
        const root = original.get(old) ?? old;
        if (!original.has(old)) changedOriginals.push(old);
        outcomes[rule.id].applied++;
        outcomes[rule.id].tokensSaved += old.tokens - (next?.tokens ?? 0);
        if (next) { msg.blocks[b] = next; original.set(next, root); } else removed.add(old);
      },
      insertBefore(m, text) {
        inserted = { m, text, tokens: estimateTokens(text) };
        outcomes[rule.id].tokensSaved -= inserted.tokens;
      },
    };
    rule.apply(ctx);
    if (removed.size) for (const m of messages) if (m.blocks.some((b) => removed.has(b))) m.blocks.splice(0, m.blocks.length, ...m.blocks.filter((b) => !removed.has(b)));
  }
  const kept: Message[] = [];
  let snapshot: CleanupResult['snapshot'];
  messages.forEach((m, i) => {
    if (inserted && !snapshot && i >= inserted.m && m.blocks.length > 0) {
      snapshot = { text: inserted.text, beforeRecord: m.records[0] ?? Number.MAX_SAFE_INTEGER };
      kept.push(snapshotMessage(inserted.text, inserted.tokens));
    }
    if (m.blocks.length > 0) kept.push(m);
  });
  if (inserted && !snapshot) { snapshot = { text: inserted.text, beforeRecord: Number.MAX_SAFE_INTEGER }; kept.push(snapshotMessage(inserted.text, inserted.tokens)); }
  for (const o of Object.values(outcomes)) o.tokensSaved = Math.round(o.tokensSaved);
  return { session: { ...session, messages: kept, turns: buildTurns(kept) }, protection, rules: outcomes, changedOriginals, snapshot };
}

/** The snapshot as the agent reads it: a user message of ours (no record of the original), like a summary. */
function snapshotMessage(text: string, tokens: number): Message {
  return { role: 'user', records: [], blocks: [{ type: 'summary', text, origin: 'context-compactor', ref: { record: -1 }, tokens }] };
}
