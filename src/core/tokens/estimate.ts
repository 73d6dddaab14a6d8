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

/** Cheap classification from a prefix of the text. */
export function classify(text: string): ContentClass {
  const n = Math.min(text.length, 600);
  if (n === 0) return 'prose';
  let spaces = 0, punct = 0, nonAscii = 0, newlines = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) spaces++;
    else if (c === 10) newlines++;
    else if (c === 123 || c === 125 || c === 34 || c === 58 || c === 59 || c === 40 || c === 41 || c === 91 || c === 93 || c === 61) punct++;
    else if (c > 127) nonAscii++;
  }
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
