// The reply the latest prompt answers, kept verbatim beside it when a summary stands for the rest (see split.ts).
import type { CleanupResult } from '../cleanup/engine';
import type { Block, Message, Session, TextBlock } from '../model/transcript';
import { answeredReply, typedWords } from '../model/userWords';
import { classify, estimateTokens } from '../tokens/estimate';
import { CHARS_PER_TOKEN } from '../tokens/ratios';

/** Of the reply the latest prompt answers, this many tokens of its words stay verbatim at most (its end). */
export const REPLY_MAX_TOKENS = 250;
/** A prompt up to this size (a sentence or two) may be a reply to the agent; a longer one states its own request. */
export const SHORT_PROMPT_TOKENS = 40;

export interface KeptReply {
  /** Index of the reply among the original's messages. */
  readonly at: number;
  /** The reply as cleaned (an object of the cleaned session's messages). */
  readonly cleaned: Message;
  /** Its words as they stay: whole text blocks, and the first of them cut to its end when the room ran out. */
  readonly message: Message;
  readonly tokens: number;
}

/**
 * The reply the latest prompt answers, for when the summary would stand for it: a short prompt ("yes", "option 2",
 * "1 + 2", "is that saved anywhere?") means nothing without the question or the options it answers, so the reply's
 * words stay verbatim right before it (a longer prompt states its own request and goes without) — its text only (its
 * thinking goes like any other, its calls stay with their results in the summary), and only its end within
 * REPLY_MAX_TOKENS (where a reply asks and lists the options): a long report costs the cut little.
 */
export function replyOf(original: Session, cleanup: CleanupResult): KeptReply | undefined {
  const prompt = cleanup.protection.latestPrompt;
  if (prompt === undefined) return undefined;
  // The person's words only: Claude Code's VS Code extension attaches the file opened (~60 tokens) to nearly every prompt.
  const promptTokens = original.messages[prompt]!.blocks.reduce((n, b) => n + (b.type === 'text' ? estimateTokens(typedWords(b.text)) : 0), 0);
  if (promptTokens > SHORT_PROMPT_TOKENS) return undefined;
  const at = answeredReply(original.messages, prompt);
  const record = at !== undefined ? original.messages[at]!.records[0] : undefined;
  const cleaned = record !== undefined ? cleanup.session.messages.find((m) => m.role === 'assistant' && m.records[0] === record) : undefined;
  if (at === undefined || !cleaned) return undefined;
  const words = cleaned.blocks.filter((b): b is TextBlock => b.type === 'text' && b.text.trim() !== '');
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
  return { at, cleaned, message: { ...cleaned, blocks: kept }, tokens: kept.reduce((n, b) => n + b.tokens, 0) };
}

/** The aging part without the reply's words kept whole (a reply cut short stays there whole, for the summary). */
export function withoutReply(aging: readonly Message[], reply: KeptReply): Message[] {
  const whole = new Set<Block>(reply.message.blocks);
  return aging.flatMap((m) => {
    if (m !== reply.cleaned) return [m];
    const left = m.blocks.filter((b) => !whole.has(b));
    return left.length ? [{ ...m, blocks: left }] : [];
  });
}

/**
 * The last lines of `text` within `tokens` (the end of one long line when none fits), saying how much is left to the
 * summary. Measured as the estimator counts the kept text whole: lines measured one by one can count less than their
 * join (a CJK reply's short lines class as prose, the whole as CJK, ~0.7 characters a token), so the tail is cut again
 * until the whole, note included, fits.
 */
function tailOf(text: string, tokens: number): string | undefined {
  const whole = text.trimEnd();
  const lines = whole.split('\n');
  let from = lines.length;
  let size = 0;
  while (from > 0 && size + estimateTokens(lines[from - 1]!) + 1 <= tokens - 20) size += estimateTokens(lines[--from]!) + 1;
  let tail = lines.slice(from).join('\n');
  // One long last line: its end, as many characters as the estimator's ratio for its class allows.
  if (!tail.trim()) { const line = lines[lines.length - 1]!; tail = line.slice(Math.max(0, line.length - Math.floor((tokens - 20) * CHARS_PER_TOKEN[classify(line)]))); }
  const kept = (n: number): string => {
    let t = tail.slice(tail.length - n);
    if (/^[\udc00-\udfff]/.test(t)) t = t.slice(1); // never half a surrogate pair
    return `[context-compactor: the first ${whole.length - t.length} characters of this reply are in the summary above]\n…${t}`;
  };
  // The longest end that fits, one character at a time: the estimate does not grow steadily with the length (the
  // class of a short end follows the ASCII note before it), and the tail is a few thousand characters at most.
  let n = tail.length;
  while (n > 0 && estimateTokens(kept(n)) > tokens) n--;
  const out = kept(n);
  return out.slice(out.indexOf('\n…') + 2).trim() ? out : undefined;
}
