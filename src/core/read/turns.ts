// Splits the live message list into turns: user prompts and model turns (reply + its tool results).
import type { Message, Turn } from '../model/transcript';

const isPrompt = (m: Message): boolean =>
  m.role === 'user' && !m.toolResultsOnly && m.blocks.some((b) => b.type === 'text' || b.type === 'media' || b.type === 'summary');

export function buildTurns(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  let start = 0;
  let kind: Turn['kind'] | undefined;
  let recorded: number | undefined;
  // A plain loop, no closures: made per call, their optimized code would not outlive the call (see transcriptReader.ts).
  for (let i = 0; i <= messages.length; i++) {
    const m = messages[i];
    const opens: Turn['kind'] | undefined = !m ? undefined : m.role === 'assistant' ? 'model' : isPrompt(m) ? 'user' : kind === undefined ? 'meta' : undefined;
    // Consecutive prompt-like records (prompt + pasted image, or several queued prompts) stay one turn.
    if (m && (!opens || (opens === 'user' && kind === 'user'))) continue;
    // A turn closes where the next one opens, and after the last message.
    if (kind !== undefined && i > start) turns.push({ index: turns.length, kind, start, end: i, recordedContext: recorded });
    if (!m) break;
    start = i;
    kind = opens;
    recorded = m.usage ? m.usage.inputTokens + m.usage.cacheReadTokens + m.usage.cacheCreationTokens : undefined;
  }
  return turns;
}
