// The searchable texts of a Session: one entry per block a person would look for, with its kind and where it sits.
import type { Session } from '../model/transcript';

export type SearchKind = 'prompt' | 'reply' | 'tool call' | 'tool result' | 'reasoning' | 'summary';

/** One letter per kind in the index file (index.ts); order fixed, the index's version covers it. */
export const KIND_CODES: Record<SearchKind, string> = { prompt: 'p', reply: 'r', 'tool call': 'c', 'tool result': 't', reasoning: 'k', summary: 's' };
export const KIND_BY_CODE: Record<string, SearchKind> = Object.fromEntries(Object.entries(KIND_CODES).map(([k, c]) => [c, k as SearchKind]));

export interface SearchEntry {
  readonly kind: SearchKind;
  /** Index into Session.messages (the composition view opens at it). */
  readonly message: number;
  /** 0-based record (line) the block came from; -1 when the reader made it. */
  readonly record: number;
  readonly text: string;
}

/**
 * Texts of the live branch, in order. Harness-injected context (meta blocks) and media are left out: they are the
 * agent's, not the conversation's, and would answer most queries with the same system reminder in every session.
 */
export function searchEntries(session: Session): SearchEntry[] {
  const out: SearchEntry[] = [];
  session.messages.forEach((m, message) => {
    for (const b of m.blocks) {
      const record = b.ref.record;
      switch (b.type) {
        case 'text':
          if (b.text) out.push({ kind: m.role === 'assistant' ? 'reply' : 'prompt', message, record, text: b.text });
          break;
        case 'reasoning':
          if (b.text) out.push({ kind: 'reasoning', message, record, text: b.text });
          break;
        case 'tool_call':
          out.push({ kind: 'tool call', message, record, text: b.inputText ? `${b.name} ${b.inputText}` : b.name });
          break;
        case 'tool_result':
          if (b.text) out.push({ kind: 'tool result', message, record, text: b.text });
          break;
        case 'summary':
          if (b.text) out.push({ kind: 'summary', message, record, text: b.text });
          break;
        default:
          break;
      }
    }
  });
  return out;
}
