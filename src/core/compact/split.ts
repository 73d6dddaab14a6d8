// Splits a cleaned session into what a summary replaces and what stays verbatim.
import type { CleanupResult } from '../cleanup/engine';
import type { Message, Session } from '../model/transcript';
import { replyOf, withoutReply } from './replyKept';

export interface AgingSplit {
  /** Harness context at the start (instructions, environment): kept verbatim before the summary. */
  readonly harness: Message[];
  /** Messages older than the protected part: what the summary stands for. */
  readonly aging: Message[];
  /**
   * Kept verbatim between the summary and the recent part: the words of the reply the latest prompt answers when the
   * summary stands for that reply (replyKept.ts), and the latest user prompt when it is older than the protected part.
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
 * with the rest, as the agents' own compactions do, and only the latest prompt stays verbatim (with the words of the
 * reply it answers when it is short and nothing of the model's after it stays).
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
  // The words of the reply a short latest prompt answers, when the summary stands for it and for every turn of the
  // model after the prompt (replyKept.ts): a reply of the model kept verbatim after it says what the prompt meant.
  const answered = recent.some((m) => m.role === 'assistant') ? undefined : replyOf(original, cleanup);
  if (answered && answered.at >= lead0 && answered.at < p.fromMessage && rest.includes(answered.cleaned)) {
    rest = withoutReply(rest, answered);
    pinned.unshift(answered.message);
  }
  return { harness, aging: rest, pinned, recent, agingOriginals, previousSummary };
}
