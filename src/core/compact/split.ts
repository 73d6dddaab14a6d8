// Splits a cleaned session into what a summary replaces and what stays verbatim.
import type { CleanupResult } from '../cleanup/engine';
import type { Block, Message, Session, TextBlock } from '../model/transcript';
import { answeredReply } from '../model/userWords';
import { estimateTokens } from '../tokens/estimate';

export interface AgingSplit {
  /** Harness context at the start (instructions, environment): kept verbatim before the summary. */
  readonly harness: Message[];
  /** Messages older than the protected part: what the summary stands for. */
  readonly aging: Message[];
  /**
   * Kept verbatim between the summary and the recent part: the words of the reply the latest prompt answers when the
   * summary stands for that reply (see keptReply), and the latest user prompt when it is older than the protected part.
   */
  readonly pinned: Message[];
  /** The protected recent turns. */
  readonly recent: Message[];
  /** The aging part as read (before cleanup, messages cleanup removed included): what facts are carried from. */
  readonly agingOriginals: Message[];
  /** The newest earlier summary in the aging part (ours or the agent's own), to anchor on. */
  readonly previousSummary?: { readonly text: string; readonly origin: 'agent' | 'context-compactor' };
}

const harnessOnly = (m: Message): boolean => m.blocks.length > 0 && m.blocks.every((b) => b.type === 'meta');

/** With a summary the recent part keeps this share of the history verbatim (at least SUMMARY_RECENT_MIN tokens). */
const SUMMARY_RECENT_SHARE = 0.01;
const SUMMARY_RECENT_MIN = 400;

/** Tokens of the cleaned messages from record `rec` on (harness context aside). */
function sizeFrom(cleaned: readonly Message[], rec: number): number {
  let size = 0;
  for (const m of cleaned) if (m.records[0]! >= rec) for (const b of m.blocks) if (b.type !== 'meta') size += b.tokens;
  return size;
}

/**
 * Where the verbatim part starts when a summary stands for what is before it: the prose and the snapshot carry the
 * older recent turns, so only the newest turns that fit a small budget stay. The newest model turn stays when it fits
 * too; one larger than the whole budget (4,000 tokens of signed thinking before a 50-token call) goes into the summary
 * with the rest, as the agents' own compactions do, and only the latest prompt stays verbatim.
 */
function summaryFrom(original: Session, cleanup: CleanupResult): number {
  const p = cleanup.protection;
  const turns = original.turns;
  let lastModel = turns.length - 1;
  while (lastModel >= 0 && turns[lastModel]!.kind !== 'model') lastModel--;
  if (lastModel < 0 || turns[lastModel]!.start <= p.fromMessage) return p.fromMessage;
  const pinned = p.latestPrompt !== undefined ? original.messages[p.latestPrompt]?.records[0] : undefined;
  // The share is of the history the summary stands for: the latest prompt stays verbatim whatever its size, and a
  // 60k-token paste must not keep 600 more tokens of other turns.
  let history = 0;
  for (const m of cleanup.session.messages) if (m.records.length === 0 || m.records[0] !== pinned) for (const b of m.blocks) if (b.type !== 'meta') history += b.tokens;
  const budget = Math.max(SUMMARY_RECENT_MIN, history * SUMMARY_RECENT_SHARE);
  // Tokens of the cleaned messages from each record on, newest first.
  const cleaned = cleanup.session.messages.filter((m) => m.records.length > 0 && m.records[0] !== pinned);
  let from = turns[lastModel]!.start;
  if (sizeFrom(cleaned, original.messages[from]?.records[0] ?? Infinity) > budget) return original.messages.length;
  for (let t = lastModel - 1; t >= 0 && turns[t]!.start >= p.fromMessage; t--) {
    if (sizeFrom(cleaned, original.messages[turns[t]!.start]?.records[0] ?? Infinity) > budget) break;
    from = turns[t]!.start;
  }
  return from;
}

export function splitAging(original: Session, cleanup: CleanupResult): AgingSplit {
  const p = { ...cleanup.protection, fromMessage: summaryFrom(original, cleanup) };
  const firstProtected = original.messages[p.fromMessage]?.records[0] ?? Infinity;
  const pinnedRecord = p.latestPrompt !== undefined ? original.messages[p.latestPrompt]?.records[0] : undefined;
  const messages = cleanup.session.messages;
  // A message of ours with no record (cleanup's state snapshot) is part of the aging part.
  const cut = messages.findIndex((m) => (m.records[0] ?? -1) >= firstProtected);
  const aging = cut < 0 ? [...messages] : messages.slice(0, cut);
  const recent = cut < 0 ? [] : messages.slice(cut);
  let lead = 0;
  while (lead < aging.length && harnessOnly(aging[lead]!)) lead++;
  const harness = aging.slice(0, lead);
  // A prompt message may also answer the calls before it (Cline sends results and the next prompt in one user
  // message): those calls go into the summary, so their results stay in the aging part with them.
  const isPrompt = (m: Message): boolean => pinnedRecord !== undefined && m.records[0] === pinnedRecord && m.role === 'user';
  const isResult = (b: Message['blocks'][number]): boolean => b.type === 'tool_result';
  const pinned = aging.filter(isPrompt).map((m) => (m.blocks.some(isResult) ? { ...m, blocks: m.blocks.filter((b) => !isResult(b)) } : m));
  // By position, not by record: the items of one Codex `compacted` line share their record.
  let lead0 = 0;
  while (lead0 < p.fromMessage && harnessOnly(original.messages[lead0]!)) lead0++;
  const agingOriginals = original.messages.slice(lead0, p.fromMessage).filter((_, k) => lead0 + k !== p.latestPrompt);
  // From the originals: cleanup's state snapshot may have taken an earlier summary's place (it carries its text).
  let previousSummary: AgingSplit['previousSummary'];
  for (const m of agingOriginals) for (const b of m.blocks) if (b.type === 'summary' && b.text) previousSummary = { text: b.text, origin: b.origin };
  let rest = aging.slice(lead).flatMap((m) => (!isPrompt(m) ? [m] : m.blocks.some(isResult) ? [{ ...m, blocks: m.blocks.filter(isResult), toolResultsOnly: true }] : []));
  const replyAt = p.latestPrompt !== undefined && p.latestPrompt >= lead0 && answersOnly(original.messages[p.latestPrompt]!) ? answeredReply(original.messages, p.latestPrompt) : undefined;
  const reply = replyAt !== undefined && replyAt < p.fromMessage ? keptReply(rest, original.messages[replyAt]!) : undefined;
  if (reply) {
    rest = reply.aging;
    pinned.unshift(reply.kept);
  }
  return { harness, aging: rest, pinned, recent, agingOriginals, previousSummary };
}

/** Of the reply the latest prompt answers, this many tokens of its words stay verbatim at most (its end). */
export const REPLY_MAX_TOKENS = 250;
/** A prompt up to this size (a sentence or two) may be a reply to the agent; a longer one states its own request. */
export const SHORT_PROMPT_TOKENS = 40;

const answersOnly = (prompt: Message): boolean => prompt.blocks.reduce((n, b) => n + (b.type === 'text' ? b.tokens : 0), 0) <= SHORT_PROMPT_TOKENS;

/**
 * The reply the latest prompt answers, when the summary would stand for it: a short prompt ("yes", "option 2", "1 + 2",
 * "is that saved anywhere?") means nothing without the question or the options it answers, so the reply's words stay
 * verbatim right before it (a longer prompt states its own request and goes without) —
 * its text only (its thinking goes like any other, its calls stay with their results in the summary), and only its
 * end within REPLY_MAX_TOKENS (where a reply asks and lists the options), so a long report costs the cut little.
 * `aging` loses the words kept whole; a reply cut short stays there whole for the summary.
 */
function keptReply(aging: readonly Message[], original: Message): { kept: Message; aging: Message[] } | undefined {
  const at = aging.findIndex((m) => m.role === 'assistant' && m.records[0] === original.records[0]);
  const cleaned = aging[at];
  if (!cleaned) return undefined;
  const words = cleaned.blocks.filter((b): b is TextBlock => b.type === 'text' && b.text.trim() !== '');
  if (!words.length) return undefined;
  const kept: Block[] = [];
  let room = REPLY_MAX_TOKENS;
  for (let k = words.length - 1; k >= 0 && room > 0; k--) {
    const b = words[k]!;
    if (b.tokens <= room) { kept.unshift(b); room -= b.tokens; continue; }
    const text = tailOf(b.text, room);
    if (text) kept.unshift({ ...b, text, tokens: estimateTokens(text) });
    break;
  }
  if (!kept.length) return undefined;
  const whole = new Set<Block>(words.filter((b) => kept.includes(b)));
  const left = cleaned.blocks.filter((b) => !whole.has(b));
  const next = [...aging];
  if (left.length) next[at] = { ...cleaned, blocks: left }; else next.splice(at, 1);
  return { kept: { ...cleaned, blocks: kept }, aging: next };
}

/** The last lines of `text` within `tokens` (the end of one long line when none fits), saying how much is left to the summary. */
function tailOf(text: string, tokens: number): string | undefined {
  const lines = text.trimEnd().split('\n');
  let from = lines.length;
  let size = 0;
  while (from > 0 && size + estimateTokens(lines[from - 1]!) + 1 <= tokens - 20) size += estimateTokens(lines[--from]!) + 1;
  let tail = lines.slice(from).join('\n');
  // One long last line: its end (a token is ~4 characters of prose, ~1.5 of CJK: the smaller keeps within the room).
  if (!tail.trim()) { const line = lines[lines.length - 1]!; tail = line.slice(Math.max(0, line.length - Math.floor((tokens - 20) * 1.5))); }
  if (!tail.trim()) return undefined;
  return `[context-compactor: the first ${text.trimEnd().length - tail.length} characters of this reply are in the summary above]\n…${tail}`;
}
