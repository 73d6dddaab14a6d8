// state-snapshot: the oldest part of the history (all but a middle band of recent-ish turns before the recent
// part) becomes one structured block built by code, in place of a record per call; calls go with their results.
import type { Block, Message } from '../../model/transcript';
import { buildSnapshot, snapshotBudget } from '../../snapshot';
import { SUMMARY_HEADER } from '../../summary/prompt';
import { INSTRUCTIONS } from './oldContext';
import { detailFrom } from './toolRecords';
import type { CleanupRule, RuleContext } from '../types';

/** Blocks that stay where they are even in the replaced part: the opening harness and instruction files. */
function staysPut(b: Block, m: number, firstPrompt: number): boolean {
  return b.type === 'meta' && (m < firstPrompt || INSTRUCTIONS.test(b.text.slice(0, 4000)));
}

/** The messages (blocks as read) the snapshot stands for, and where the replaced part begins (-1: nothing to do). */
function replacedPart(ctx: RuleContext, until: number): { at: number; drop: { m: number; i: number }[]; originals: Message[] } {
  const msgs = ctx.messages;
  const firstPrompt = msgs.findIndex((m) => m.role === 'user' && !m.toolResultsOnly && m.blocks.some((b) => b.type === 'text'));
  const drop: { m: number; i: number }[] = [];
  const dropped = new Set<string>(), kept = new Set<string>();
  const originals: Message[] = [];
  let at = -1;
  for (let m = 0; m < until; m++) {
    if (ctx.pinned.has(m)) continue;
    const blocks: Block[] = [];
    msgs[m]!.blocks.forEach((b, i) => {
      if (staysPut(b, m, firstPrompt)) return;
      // A call that must stay (waiting, or the latest plan) keeps its result; any other call goes with its result.
      if (b.type === 'tool_call' && !ctx.canChange(m, b)) { kept.add(b.id); return; }
      if (b.type === 'tool_result' && kept.has(b.id)) return;
      if (b.type === 'tool_call') dropped.add(b.id);
      drop.push({ m, i });
      blocks.push(b);
    });
    if (blocks.length) { if (at < 0) at = m; originals.push({ ...ctx.session.messages[m]!, blocks: blocks.map((b) => ctx.originalOf(b)) }); }
  }
  // A result kept outside the replaced part (the latest prompt's message, or past the cut) whose call went goes too.
  msgs.forEach((msg, m) => {
    if (m < until && !ctx.pinned.has(m)) return;
    msg.blocks.forEach((b, i) => { if (b.type === 'tool_result' && dropped.has(b.id)) { drop.push({ m, i }); originals.push({ ...ctx.session.messages[m]!, blocks: [b] }); } });
  });
  return { at, drop, originals };
}

/** Share of the replaced turns' identifiers always listed: what keeps identifier recall ≥ 0.9 on real sessions. */
const IDENTIFIER_FLOOR = 0.95;
/** Upper bound of a snapshot that carries an earlier one forward (the facts it drops first are the oldest). */
const MAX_WITH_EARLIER = 12_000;
/** Share of the snapshot's room cleanup spends (the summary's snapshot spends all of it); requests keep REQUEST_SHARE of the room. */
const CLEANUP_BUDGET_SHARE = 0.5;
const REQUEST_SHARE = 0.45;
/** Most tokens the snapshot's budget grows by for an agent's own summary among the replaced turns. */
const AGENT_SUMMARY_ROOM = 1500;

export const stateSnapshot: CleanupRule = {
  id: 'state-snapshot',
  label: 'Replace the oldest turns with a state snapshot',
  description: 'The oldest turns become one block built from them: the requests as written, the plan, files and how each changed, commands and how they ended, errors and whether they were fixed, and identifiers by kind; the turns just before the recent part keep their records',
  defaults: { middleTurns: 3, minTokens: 2000, budgetTokens: 0, identifierShare: 2 },
  apply(ctx) {
    const p = ctx.params;
    const until = detailFrom(ctx.session.turns, ctx.protectedFrom, p.middleTurns!);
    const part = replacedPart(ctx, until);
    if (part.at < 0) return;
    let tokens = 0, earlier = 0;
    let agent = 0;
    for (const m of part.originals) for (const b of m.blocks) if (b.type === 'summary' && b.origin === 'context-compactor') earlier += b.tokens; else tokens += b.tokens;
    // The agent's own summary with no prompt after it (the protected part no longer pins it) is the only account of
    // what came before: its opening and rule lines keep some room.
    const msgs = ctx.session.messages;
    let lastPrompt = msgs.length - 1;
    while (lastPrompt >= 0 && !(msgs[lastPrompt]!.role === 'user' && !msgs[lastPrompt]!.toolResultsOnly && msgs[lastPrompt]!.blocks.some((b) => b.type === 'text'))) lastPrompt--;
    for (let m = Math.max(0, lastPrompt); m < until; m++) for (const b of msgs[m]!.blocks) if (b.type === 'summary' && b.origin === 'agent') agent = b.tokens;
    if (tokens + earlier < p.minTokens!) return; // a short old part reads better as it is
    const kept = ctx.session.messages.filter((_, m) => m >= until || ctx.pinned.has(m));
    // An earlier summary of ours is already compact: its facts keep their room, so five compactions in a row keep them.
    const room = Math.min(MAX_WITH_EARLIER, snapshotBudget(tokens) + earlier + Math.min(AGENT_SUMMARY_ROOM, Math.round(agent * 0.4)));
    // The user's requests and constraints keep the room they have in a full budget; the rest (plan, errors, files,
    // commands, identifiers beyond the floor) gets a share of the fresh turns' part of it (an earlier summary's facts
    // keep theirs): the middle band's records and the recent part follow, and what fills a whole budget is mostly
    // older commands and identifiers.
    const budget = p.budgetTokens || Math.min(MAX_WITH_EARLIER, Math.round(snapshotBudget(tokens) * CLEANUP_BUDGET_SHARE) + earlier + Math.min(AGENT_SUMMARY_ROOM, Math.round(agent * 0.4)));
    const requestTokens = p.budgetTokens ? undefined : Math.floor(room * REQUEST_SHARE);
    const snap = buildSnapshot(part.originals, { cwd: ctx.session.cwd, budgetTokens: budget, kept, identifierChars: Math.round((tokens * p.identifierShare!) / 100), identifierFloor: IDENTIFIER_FLOOR, requestTokens });
    if (!snap.text || snap.tokens >= tokens + earlier) return;
    for (const d of part.drop) ctx.replace(d.m, d.i, undefined);
    // The summary header: every reader takes the message back as our summary, so a later run carries it forward.
    ctx.insertBefore(part.at, `${SUMMARY_HEADER}\n\n${snap.text}`);
  },
};
