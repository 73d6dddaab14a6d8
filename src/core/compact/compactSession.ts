// Cleanup-first compaction of one session into a new transcript in the same format, with its report.
import { cleanupSession, type CleanupResult } from '../cleanup/engine';
import type { CleanupOptions, RuleId } from '../cleanup/types';
import { writeClaudeCode } from '../formats/claude-code/write';
import { writeCodex } from '../formats/codex/write';
import type { Session } from '../model/transcript';
import { calibrate } from '../tokens/calibrate';
import { compose } from '../tokens/composition';
import type { WriteContext } from '../write/blockMap';
import type { OutLine } from '../write/serialize';
import { identifierRecall, pairsIntact } from './fidelity';

export interface CompactOutcome {
  readonly sessionId: string;
  readonly lines: OutLine[];
  readonly cleanup: CleanupResult;
  /** The session as it will be resumed (cleaned, plus the summary when there is one). */
  readonly result: Session;
  readonly figures: CompactFigures;
}

export interface CompactFigures {
  readonly before: { readonly tokens: number; readonly messages: number };
  readonly after: { readonly tokens: number; readonly messages: number };
  readonly reduction: number;
  readonly pairsIntact: boolean;
  readonly identifierRecall: number;
  readonly identifiers: { readonly total: number; readonly missing: string[] };
  readonly rules: Record<RuleId, { applied: number; tokensSaved: number }>;
  readonly protectedTurns: { readonly fromTurn: number; readonly of: number };
}

/** Replaces the aging part with a summary: supplied by the summary step (issue 4). */
export interface SummaryInsert { readonly text: string; readonly replaceUpTo: number }

export function compactSession(session: Session, options: CleanupOptions, ctx: WriteContext, summary?: SummaryInsert, precomputed?: CleanupResult): CompactOutcome {
  const cleanup = precomputed ?? cleanupSession(session, options);
  let result = cleanup.session;
  let insert: { beforeRecord: number; text: string } | undefined;
  if (summary) {
    // Everything before the protected part is replaced by the summary message.
    const keptFrom = result.messages.findIndex((m) => m.records.some((r) => r >= summary.replaceUpTo));
    const kept = keptFrom < 0 ? [] : result.messages.slice(keptFrom);
    const anchor = kept[0]?.records[0] ?? summary.replaceUpTo;
    const summaryMessage = { role: 'user' as const, records: [], blocks: [{ type: 'summary' as const, text: summary.text, origin: 'context-compactor' as const, ref: { record: -1 }, tokens: Math.ceil(summary.text.length / 4) }] };
    result = { ...result, messages: [summaryMessage, ...kept] };
    insert = { beforeRecord: anchor, text: summary.text };
  }
  const written = session.format === 'claude-code' ? writeClaudeCode(session, result, ctx, insert) : writeCodex(session, result, ctx, insert);
  const cal = calibrate(session);
  const before = compose(session, 0, cal).total;
  const after = compose(result, 0, cal).total;
  const recall = identifierRecall(cleanup.changedOriginals, result.messages);
  return {
    sessionId: written.sessionId, lines: written.lines, cleanup, result,
    figures: {
      before: { tokens: before, messages: session.messages.length },
      after: { tokens: after, messages: result.messages.length },
      reduction: before > 0 ? 1 - after / before : 0,
      pairsIntact: pairsIntact(result.messages),
      identifierRecall: recall.recall,
      identifiers: { total: recall.total, missing: recall.missing },
      rules: cleanup.rules,
      protectedTurns: { fromTurn: cleanup.protection.fromTurn, of: session.turns.length },
    },
  };
}
