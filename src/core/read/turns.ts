// Splits the live message list into turns: user prompts and model turns (reply + its tool results).
import type { Message, Turn } from '../model/transcript';

const isPrompt = (m: Message): boolean =>
  m.role === 'user' && !m.toolResultsOnly && m.blocks.some((b) => b.type === 'text' || b.type === 'media' || b.type === 'summary');

export function buildTurns(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  let start = 0;
  let kind: Turn['kind'] | undefined;
  let recorded: number | undefined;
  const close = (end: number): void => {
    if (kind !== undefined && end > start) turns.push({ index: turns.length, kind, start, end, recordedContext: recorded });
  };
  messages.forEach((m, i) => {
    const opens: Turn['kind'] | undefined = m.role === 'assistant' ? 'model' : isPrompt(m) ? 'user' : kind === undefined ? 'meta' : undefined;
    // Consecutive prompt-like records (prompt + pasted image, or several queued prompts) stay one turn.
    if (opens && !(opens === 'user' && kind === 'user')) {
      close(i);
      start = i;
      kind = opens;
      recorded = m.usage ? m.usage.inputTokens + m.usage.cacheReadTokens + m.usage.cacheCreationTokens : undefined;
    }
  });
  close(messages.length);
  return turns;
}
