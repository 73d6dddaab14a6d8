// What stays verbatim: the work the agent is in the middle of (latest prompt, pending calls, the results it
// is acting on, the recent turns' own words and calls), not a share of the bytes.
import type { Block, Session } from '../model/transcript';
import { typedTexts } from '../text/harnessText';
import { PLAN_TOOLS } from './argRecords';
import type { CleanupOptions } from './types';

/** Why something was kept verbatim, for the report. */
export type ProtectReason = 'latest-prompt' | 'todo-list' | 'recent-turns' | 'latest-results' | 'recent-results' | 'pending-calls';

export interface ProtectedPart {
  readonly reason: ProtectReason;
  /** Blocks kept for this reason (a later reason never counts a block an earlier one counted). */
  readonly blocks: number;
  /** Offline estimate, uncalibrated. */
  readonly tokens: number;
}

export interface Protection {
  /** First message of the recent part (a turn start); messages.length when nothing is recent. */
  readonly fromMessage: number;
  readonly fromTurn: number;
  /** The latest user prompt, always kept verbatim even when older than the recent part. */
  readonly latestPrompt?: number;
  /** The agent's reply the latest prompt answers (its question, its options), kept verbatim with it. */
  readonly promptContext?: number;
  /**
   * Tool results inside the recent part that stay verbatim. The recent part's own words, reasoning and
   * small calls always do; its older results become records once the newest have used the tool budget.
   */
  readonly keptResults: ReadonlySet<string>;
  /** Calls kept verbatim whatever their place: the latest plan, and large recent calls within the budget. */
  readonly keptCalls: ReadonlySet<string>;
  /** First message of the newest model turn: reasoning before it goes even inside the recent part. */
  readonly latestTurnFrom: number;
  /** What is kept verbatim and why. */
  readonly parts: readonly ProtectedPart[];
}

/** Default verbatim budget for tool data inside the recent part (the latest results still fit whole). */
export const DEFAULT_RECENT_RESULT_TOKENS = 3000;
const RECENT_SHARE = 0.06;
/** Calls up to this size stay verbatim in the recent part without using the budget. */
export const SMALL_CALL_TOKENS = 200;

/** The recent part's own words and calls stay within this share of the history (at least RECENT_WORDS_MIN tokens). */
const RECENT_WORDS_SHARE = 0.04;
const RECENT_WORDS_MIN = 1500;

/**
 * The first recent turn once the recent turns' words, reasoning and calls (results have their own budget) fit in a
 * share of the history: a long recent stretch of replies is most of what a compaction keeps otherwise. The newest
 * model turn always stays whole.
 */
function wordsWithinShare(session: Session, fromTurn: number): number {
  const { turns, messages } = session;
  let history = 0;
  for (const m of messages) for (const b of m.blocks) history += b.tokens;
  let room = Math.max(RECENT_WORDS_MIN, history * RECENT_WORDS_SHARE);
  const lastModel = [...turns].reverse().find((t) => t.kind === 'model')?.index ?? turns.length;
  for (let t = turns.length - 1; t >= fromTurn; t--) {
    if (t >= lastModel) continue;
    for (let i = turns[t]!.start; i < turns[t]!.end; i++) {
      for (const b of messages[i]!.blocks) if (b.type !== 'tool_result' && b.type !== 'reasoning' && b.type !== 'meta') room -= Math.min(b.tokens, SMALL_CALL_TOKENS * 2);
    }
    if (room < 0) return t + 1;
  }
  return fromTurn;
}

export function protectedPart(session: Session, options: CleanupOptions): Protection {
  const turns = session.turns;
  const messages = session.messages;
  let fromTurn = turns.length;
  if ((options.keepRecentTokens ?? 0) > 0) {
    let budget = options.keepRecentTokens!;
    for (let t = turns.length - 1; t >= 0; t--) {
      const turn = turns[t]!;
      let size = 0;
      for (let i = turn.start; i < turn.end; i++) for (const b of messages[i]!.blocks) size += b.tokens;
      if (size > budget && t < turns.length - 1) break;
      budget -= size;
      fromTurn = t;
    }
  } else {
    let models = 0;
    for (let t = turns.length - 1; t >= 0 && models < options.keepRecentTurns; t--) {
      if (turns[t]!.kind === 'model') models++;
      fromTurn = t;
    }
  }
  if (!(options.keepRecentTokens ?? 0)) fromTurn = wordsWithinShare(session, fromTurn);
  // Never start the recent part between a prompt and the reply that answers it.
  while (fromTurn > 0 && fromTurn < turns.length && turns[fromTurn - 1]!.kind === 'user' && turns[fromTurn]!.kind === 'model') fromTurn--;
  const fromMessage = fromTurn < turns.length ? turns[fromTurn]!.start : messages.length;
  // The latest request is the latest turn the person typed in: a turn of only harness text (a local command's output
  // such as /exit's "Bye!", a canceled /compact's error, "[Request interrupted by user]") asks for nothing.
  const typedIn = (t: { start: number; end: number }): Set<string> => {
    const texts: string[] = [];
    for (let i = t.start; i < t.end; i++) for (const b of messages[i]!.blocks) if (b.type === 'text') texts.push(b.text);
    return new Set(typedTexts(texts));
  };
  const userTurns = turns.filter((t) => t.kind === 'user');
  let words = new Set<string>();
  const prompt = [...userTurns].reverse().find((t) => (words = typedIn(t)).size > 0) ?? userTurns.at(-1);
  const typed = (i: number): boolean => messages[i]!.blocks.some((b) => b.type === 'text' && (words.size === 0 || words.has(b.text)));
  let latestPrompt = prompt?.start;
  // A summary is written right before the prompt it keeps, so both read as one user turn: the prompt is the user's own words.
  while (latestPrompt !== undefined && latestPrompt + 1 < prompt!.end && messages[latestPrompt]!.blocks.every((b) => b.type === 'summary')) latestPrompt++;
  // Several prompts in a row (queued, or replayed after a compaction) are one turn: the latest is the last with words.
  if (latestPrompt !== undefined) for (let i = prompt!.end - 1; i > latestPrompt; i--) if (typed(i)) { latestPrompt = i; break; }
  // An earlier compaction's summary with no prompt after it holds no words of the user: once older than the recent
  // part it is history like the rest (the state snapshot carries it, its opening first).
  if (latestPrompt !== undefined && latestPrompt < fromMessage && messages[latestPrompt]!.blocks.every((b) => b.type === 'summary' || b.type === 'meta') && messages[latestPrompt]!.blocks.some((b) => b.type === 'summary')) latestPrompt = undefined;

  const answered = new Set<string>();
  for (const m of messages) for (const b of m.blocks) if (b.type === 'tool_result') answered.add(b.id);
  const keptResults = new Set<string>();
  const parts = new Map<ProtectReason, { blocks: number; tokens: number }>();
  const count = (reason: ProtectReason, b: Block): void => {
    const p = parts.get(reason) ?? { blocks: 0, tokens: 0 };
    p.blocks++;
    p.tokens += b.tokens;
    parts.set(reason, p);
  };
  if (latestPrompt !== undefined) for (let i = latestPrompt; i < prompt!.end; i++) for (const b of messages[i]!.blocks) count('latest-prompt', b);
  // The latest plan states the whole todo list: users complain most that compaction loses it.
  const keptCalls = new Set<string>();
  findLatestPlan: for (let i = messages.length - 1; i >= 0; i--) {
    for (const b of messages[i]!.blocks) {
      if (b.type === 'tool_call' && PLAN_TOOLS.has(b.name)) { keptCalls.add(b.id); if (i < fromMessage) count('todo-list', b); break findLatestPlan; }
    }
  }
  const before = latestPrompt !== undefined ? messages[latestPrompt - 1] : undefined;
  const promptContext = before?.role === 'assistant' && before.blocks.some((b) => b.type === 'text') && latestPrompt! - 1 < fromMessage ? latestPrompt! - 1 : undefined;
  if (promptContext !== undefined) for (const b of messages[promptContext]!.blocks) count('latest-prompt', b);

  // Inside the recent part the agent's words, reasoning and small calls stay. Its results stay newest first within a
  // budget (those of a last turn the model has not answered yet first); large call arguments (whole files, patches)
  // become records of their shape; calls still waiting for a result always stay.
  // Only the newest model turn keeps its reasoning: earlier thinking led to words and calls that stay.
  const latestTurnFrom = [...turns].reverse().find((t) => t.kind === 'model')?.start ?? messages.length;
  const tools: { b: Block & { type: 'tool_result' | 'tool_call' }; turn: number }[] = [];
  for (let t = fromTurn; t < turns.length; t++) {
    for (let i = turns[t]!.start; i < turns[t]!.end; i++) {
      if (i === latestPrompt) continue;
      for (const b of messages[i]!.blocks) {
        if (b.type === 'tool_call' && !answered.has(b.id) && !b.standalone) count('pending-calls', b);
        else if (b.type === 'tool_result' || (b.type === 'tool_call' && b.tokens > SMALL_CALL_TOKENS && !keptCalls.has(b.id))) tools.push({ b, turn: t });
        else if (b.type !== 'reasoning' || i >= latestTurnFrom) count('recent-turns', b);
      }
    }
  }
  const lastTurn = turns[turns.length - 1];
  const midLoop = lastTurn?.kind === 'model' && tools.some((r) => r.turn === lastTurn.index && r.b.type === 'tool_result');
  // A small session's recent part must not be most of it: by default the budget is also capped at a tenth of
  // the history (a 150k-token session gets the whole default).
  let history = 0;
  for (const m of messages) for (const b of m.blocks) history += b.tokens;
  let budget = options.keepRecentResultTokens || Math.min(DEFAULT_RECENT_RESULT_TOKENS, Math.round(history * RECENT_SHARE));
  // A turn the model has not answered yet (an agent compacts mid-loop) has its results first in line, newest first,
  // within the same budget: what it read beyond it becomes records (status, first and last lines, errors, every
  // identifier) rather than staying whole — ten files read in that turn were most of a compaction's output.
  for (let k = tools.length - 1; k >= 0; k--) {
    const { b, turn } = tools[k]!;
    const keep = b.type === 'tool_result' ? keptResults : keptCalls;
    // A large argument (a file written, a patch applied) is the agent's own output, already on disk: it keeps its
    // shape as a record; the budget is for what the agent read.
    if (b.type === 'tool_call') continue;
    if (b.tokens > budget) continue; // a big one does not fit; smaller, older ones may still
    budget -= b.tokens;
    keep.add(b.id);
    count(midLoop && turn === lastTurn!.index ? 'latest-results' : 'recent-results', b);
  }
  const order: ProtectReason[] = ['latest-prompt', 'todo-list', 'pending-calls', 'latest-results', 'recent-results', 'recent-turns'];
  return {
    fromMessage, fromTurn, latestPrompt, promptContext, keptResults, keptCalls, latestTurnFrom,
    parts: order.flatMap((reason) => { const p = parts.get(reason); return p ? [{ reason, blocks: p.blocks, tokens: Math.round(p.tokens) }] : []; }),
  };
}
