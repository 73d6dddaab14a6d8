// Cleanup-first compaction of one session into a new transcript in the same format, with its report.
import type { CleanupResult } from '../cleanup/engine';
import type { CleanupOptions, RuleId } from '../cleanup/types';
import type { WrittenSession } from '../agents/agent';
import { convertSession, type Conversation, type ConvertTarget } from '../convert/conversation';
import { agentModule } from '../formats/registry';
import type { Block, Message, Session } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import { buildTurns } from '../read/turns';
import type { ProtectedPart } from '../cleanup/protect';
import type { WriteContext } from '../write/blockMap';
import { measureCompaction, type Measurement } from './measure';
import { calibrationOf, cleanStage, countStage, splitOf } from './stages';

export interface CompactOutcome {
  readonly sessionId: string;
  /** The new transcript (lines, files or a handoff), rendered by the agent's writer on first use. */
  readonly written: WrittenSession;
  readonly cleanup: CleanupResult;
  /** The session as it will be resumed (cleaned, plus the summary when there is one). */
  readonly result: Session;
  readonly figures: CompactFigures;
  /** The agent the output is written for (the session's own unless converted). */
  readonly target: ConvertTarget;
  /** With another target: what was carried over and what not (made by the render, on first use). */
  readonly conversion?: Conversation;
}

export interface CompactFigures extends Measurement {
  readonly rules: Record<RuleId, { applied: number; tokensSaved: number }>;
  readonly protectedTurns: { readonly fromTurn: number; readonly of: number };
  /** What stayed verbatim and why (calibrated tokens). */
  readonly protectedParts: readonly ProtectedPart[];
}

/** A summary that replaces the aging part (everything before the protected turns). */
export interface SummaryInsert { readonly text: string }

/**
 * The messages as resumed with `text` in place of the aging part, the blocks that part held, and the record the
 * summary goes before. `summaryRecords`: records the summary message claims (a replay that compacts again needs it
 * to sort into the aging part); none when it is written to a file.
 */
export function summarizedMessages(session: Session, cleanup: CleanupResult, text: string, summaryRecords: number[] = []): { messages: Message[]; dropped: Block[]; beforeRecord: number } {
  const split = splitOf(session, cleanup);
  const kept = [...split.harness, ...split.pinned, ...split.recent];
  const recent = withoutSettledReasoning(split.recent);
  const dropped = [...split.aging.filter((m) => !kept.includes(m)).flatMap((m) => m.blocks), ...recent.dropped];
  const summaryMessage: Message = { role: 'user', records: summaryRecords, blocks: [{ type: 'summary', text, origin: 'context-compactor', ref: { record: -1 }, tokens: estimateTokens(text) }] };
  const next = split.pinned[0] ?? recent.messages[0];
  return { messages: [...split.harness, summaryMessage, ...split.pinned, ...recent.messages], dropped, beforeRecord: next?.records[0] ?? Number.MAX_SAFE_INTEGER };
}

/**
 * The thinking in the verbatim recent part: the resumed session goes on with a new prompt, before which the API
 * accepts assistant turns without their thinking (as drop-reasoning does for older ones), and the summary stands for
 * how the model got there. A part that ends on a tool result (a tool loop the agent may continue) keeps the thinking
 * of its last assistant message: it must go back with the tool calls it led to. Reasoning that costs nothing on
 * resume (Codex, Gemini CLI: 0 tokens) stays as it is.
 */
export function withoutSettledReasoning(recent: readonly Message[]): { messages: Message[]; dropped: Block[] } {
  const dropped: Block[] = [];
  const inLoop = recent[recent.length - 1]?.blocks.some((b) => b.type === 'tool_result') ?? false;
  let lastAssistant = recent.length - 1;
  while (lastAssistant >= 0 && recent[lastAssistant]!.role !== 'assistant') lastAssistant--;
  const messages = recent.flatMap((m, k) => {
    if (m.role !== 'assistant' || (inLoop && k === lastAssistant) || !m.blocks.some((b) => b.type === 'reasoning' && b.tokens > 0)) return [m];
    const blocks = m.blocks.filter((b) => { const drop = b.type === 'reasoning' && b.tokens > 0; if (drop) dropped.push(b); return !drop; });
    return blocks.length ? [{ ...m, blocks }] : [];
  });
  return { messages, dropped };
}

/**
 * The stages after reading: clean (unless `precomputed` — a summary reuses the cleanup-only outcome's), insert the
 * summary, then measure and render on first use, each once: an outcome a summary replaces is never measured.
 */
export function compactSession(session: Session, options: CleanupOptions, ctx: WriteContext, summary?: SummaryInsert, precomputed?: CleanupResult, target: ConvertTarget = { to: session.format }): CompactOutcome {
  const to = target.to;
  const cleanup = precomputed ?? cleanStage(session, options);
  let result = cleanup.session;
  // The state snapshot cleanup wrote in place of the oldest turns; a summary replaces it (it carries the snapshot).
  let insert: { beforeRecord: number; text: string } | undefined = cleanup.snapshot;
  let dropped: Block[] = [];
  if (summary) {
    const s = summarizedMessages(session, cleanup, summary.text);
    dropped = s.dropped;
    result = { ...result, messages: s.messages, turns: buildTurns(s.messages) };
    insert = { beforeRecord: s.beforeRecord, text: summary.text };
  }
  // The id now (reports and the default path need it); the lines only when asked for, once: a preview that is
  // discarded, or a cleanup-only outcome a summary replaces, is never rendered.
  const sessionId = ctx.newId();
  let issued = false;
  const writeCtx: WriteContext = { newId: () => (issued ? ctx.newId() : ((issued = true), sessionId)), now: ctx.now };
  let written: WrittenSession | undefined;
  let figures: CompactFigures | undefined;
  const measure = (): CompactFigures => {
    countStage('measure');
    const cal = calibrationOf(session);
    return {
      ...measureCompaction(session, result, [...cleanup.changedOriginals, ...dropped], '', cal),
      rules: cleanup.rules,
      protectedTurns: { fromTurn: cleanup.protection.fromTurn, of: session.turns.length },
      protectedParts: cleanup.protection.parts.map((p) => ({ ...p, tokens: Math.round(p.tokens * cal.scale) })),
    };
  };
  let conversion: Conversation | undefined;
  const render = (): WrittenSession => {
    if (to === session.format) { countStage('render'); return agentModule(session.format).write(session, result, writeCtx, insert); }
    // Another agent: the same cleaned result (its snapshot or summary a user message in it), converted once, then
    // rendered by the target's writer from the conversation.
    const writer = agentModule(to).fromConversation;
    if (!writer) throw new Error(`${agentModule(to).label} cannot be written from another agent's session`);
    countStage('convert');
    conversion = convertSession(session, result, target);
    countStage('render');
    return writer(conversion, writeCtx);
  };
  return {
    sessionId, cleanup, result, target,
    get written() { return (written ??= render()); },
    get figures() { return (figures ??= measure()); },
    get conversion() { if (to !== session.format) void this.written; return conversion; },
  };
}
