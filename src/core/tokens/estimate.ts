// Fast offline token estimate: characters per token by content class, measured with o200k_base.
//
// Tokenizing every byte runs at ~4-6 MB/s here, far too slow for inspect's target (≤ 3× a JSON.parse
// pass), so each block is estimated from its length and a content class; `scripts/calibrate.ts`
// re-measures the ratios with the real tokenizer, and per-session calibration against recorded usage
// (see calibrate.ts) corrects what is left.
import { CHARS_PER_TOKEN, type ContentClass } from './ratios';

export type { ContentClass };

/** Anthropic bills a typical screenshot at ~1,600 tokens (width×height/750, capped by resizing). */
export const IMAGE_TOKENS = 1600;

const OTHER = 0, SPACE = 1, NEWLINE = 2, PUNCT = 3, NON_ASCII = 4;
/** What each ASCII code counts as: ' ', '\n', JSON/code punctuation ({}":;()[]=) or nothing. */
const ASCII_CLASS = ((): Uint8Array => {
  const t = new Uint8Array(128).fill(OTHER);
  t[32] = SPACE;
  t[10] = NEWLINE;
  for (const ch of '{}":;()[]=') t[ch.charCodeAt(0)] = PUNCT;
  return t;
})();
const COUNTS = new Uint32Array(5);

/** Cheap classification from a prefix of the text. */
export function classify(text: string): ContentClass {
  const n = Math.min(text.length, 600);
  if (n === 0) return 'prose';
  // One table lookup per character instead of a chain of comparisons (every block is classified while reading).
  const counts = COUNTS.fill(0);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    counts[c < 128 ? ASCII_CLASS[c]! : NON_ASCII]!++;
  }
  const spaces = counts[SPACE]!, punct = counts[PUNCT]!, nonAscii = counts[NON_ASCII]!, newlines = counts[NEWLINE]!;
  if (nonAscii > n * 0.3) return 'cjk';
  if (n >= 200 && spaces + newlines < n * 0.01) return 'opaque';
  if (punct > n * 0.08) return text.charCodeAt(0) === 123 || text.charCodeAt(0) === 91 ? 'json' : 'code';
  if (newlines > n * 0.02 && punct > n * 0.03) return 'code';
  return 'prose';
}

export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  return Math.ceil(text.length / CHARS_PER_TOKEN[classify(text)]);
}
