// tool-records: old tool calls and results shrink to small records (name, argument shapes, status, summary);
// the newest `detailTurns` model turns before the recent part keep first/last lines, older ones one line.
import type { ToolCallBlock, ToolResultBlock, Turn } from '../../model/transcript';
import { callRecord } from '../argRecords';
import { foldedCall } from '../fold';
import { resultRecord, type RecordParams } from '../records';
import { eachChangeable, type CleanupRule, type RuleContext, type RuleParams } from '../types';

/** Far from the recent part a record keeps its status, its last line, a short error and its identifiers. */
const FAR: Omit<RecordParams, 'identifierChars'> & { argChars: number; keepUnderTokens: number } = { headLines: 0, tailLines: 1, lineChars: 100, maxErrorChars: 400, argChars: 80, keepUnderTokens: 40 };

/** First message of the detailed tier: the start of the `detailTurns`-th model turn before `protectedFrom`. */
export function detailFrom(turns: readonly Turn[], protectedFrom: number, detailTurns: number): number {
  let seen = 0;
  let from = protectedFrom;
  for (let t = turns.length - 1; t >= 0 && seen < detailTurns; t--) {
    if (turns[t]!.start >= protectedFrom) continue;
    if (turns[t]!.kind === 'model') seen++;
    from = turns[t]!.start;
  }
  return from;
}

function tier(p: RuleParams, far: boolean): RecordParams & { argChars: number; keepUnderTokens: number } {
  const near = { headLines: p.headLines!, tailLines: p.tailLines!, lineChars: p.lineChars!, maxErrorChars: p.maxErrorChars!, argChars: p.argChars!, keepUnderTokens: p.keepUnderTokens! };
  // A user who asked for less detail than the far tier keeps it everywhere.
  const f = far ? Object.fromEntries(Object.entries(near).map(([k, v]) => [k, Math.min(v, FAR[k as keyof typeof FAR])])) as typeof near : near;
  return { ...f, identifierChars: p.identifierChars! };
}

/** Folds a far call and its result into one line; false when the pair cannot go together. */
function fold(ctx: RuleContext, m: number, i: number, call: ToolCallBlock, at: { m: number; i: number } | undefined, nearFrom: number, identifierChars: number): boolean {
  const result = at ? ctx.messages[at.m]!.blocks[at.i] : undefined;
  if (!call.standalone && (!at || at.m >= nearFrom || !result || result.type !== 'tool_result' || ctx.pinned.has(at.m) || !ctx.canChange(at.m, result))) return false;
  const r = result?.type === 'tool_result' ? result : undefined;
  const line = foldedCall(call, r, { call: ctx.originalOf(call) as ToolCallBlock, result: r && (ctx.originalOf(r) as ToolResultBlock) }, ctx.listing, identifierChars);
  ctx.replace(m, i, line.block);
  if (at && r) ctx.replace(at.m, at.i, undefined);
  ctx.listing.commit(line.identifiers);
  return true;
}

export const toolRecords: CleanupRule = {
  id: 'tool-records',
  label: 'Shrink old tool calls and results',
  description: 'Old tool calls keep their name, paths, commands and the shape of their edits; old results keep status, size, first and last lines, errors and identifiers; in the oldest turns each call and its result fold into one line',
  defaults: { keepUnderTokens: 120, argChars: 160, headLines: 3, tailLines: 2, lineChars: 160, maxErrorChars: 2000, identifierChars: 32000, detailTurns: 10, foldFar: 1 },
  apply(ctx) {
    const nearFrom = detailFrom(ctx.session.turns, ctx.protectedFrom, ctx.params.detailTurns!);
    const tiers = { near: tier(ctx.params, false), far: tier(ctx.params, true) };
    const results = new Map<string, { m: number; i: number }>();
    ctx.messages.forEach((msg, m) => msg.blocks.forEach((b, i) => { if (b.type === 'tool_result') results.set(b.id, { m, i }); }));
    const folded = new Set<string>();
    eachChangeable(ctx, (m, i, b) => {
      const far = m < nearFrom;
      const p = far ? tiers.far : tiers.near;
      if (b.type === 'tool_result' && folded.has(b.id)) return;
      if (far && ctx.params.foldFar && b.type === 'tool_call' && fold(ctx, m, i, b, results.get(b.id), nearFrom, p.identifierChars)) { folded.add(b.id); return; }
      if (b.type === 'tool_call') {
        const next = callRecord(b, { argChars: p.argChars, identifierChars: p.identifierChars }, ctx.listing);
        if (next && next.tokens < b.tokens) ctx.replace(m, i, next);
      } else if (b.type === 'tool_result' && b.tokens > p.keepUnderTokens && !b.text.startsWith('[context-compactor: superseded')) {
        const next = resultRecord(b, ctx.toolNames.get(b.id), p, ctx.listing, ctx.originalOf(b) as typeof b);
        if (next.block.tokens < b.tokens) {
          ctx.replace(m, i, next.block);
          ctx.listing.commit(next.identifiers);
        }
      }
    });
  },
};
