// The real o200k_base tokenizer, loaded on first use (~300 ms), and the text each block is estimated from.
import type { Block, Session } from '../../src/core/model/transcript';

type Encoding = typeof import('gpt-tokenizer/encoding/o200k_base');
let encoding: Encoding | undefined;

/** Special-token strings inside transcripts are plain text to us, never control tokens. */
const PLAIN = { disallowedSpecial: new Set<string>() };

export function loadO200k(): Encoding {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  encoding ??= require('gpt-tokenizer/encoding/o200k_base') as Encoding;
  return encoding;
}

export function countO200k(text: string): number {
  return text.length === 0 ? 0 : loadO200k().countTokens(text, PLAIN);
}

/** The text estimateTokens() was given for this block (tool calls: their JSON input), or undefined for media. */
export function blockText(b: Block): string | undefined {
  switch (b.type) {
    case 'tool_call': return b.inputText;
    case 'media': return undefined;
    default: return b.text;
  }
}

/** Every non-empty block text of the live messages, in order. */
export function liveTexts(session: Session): string[] {
  const out: string[] = [];
  for (const m of session.messages) for (const b of m.blocks) { const t = blockText(b); if (t) out.push(t); }
  return out;
}
