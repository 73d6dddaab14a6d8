// Where the protected recent part starts: a turn boundary, counted in model turns or tokens.
import type { Session } from '../model/transcript';
import type { CleanupOptions } from './types';

export interface Protection {
  /** First protected message index (a turn start); messages.length when nothing is protected. */
  readonly fromMessage: number;
  readonly fromTurn: number;
  /** The latest user prompt, always kept verbatim even when older than the protected part. */
  readonly latestPrompt?: number;
}

export function protectedPart(session: Session, options: CleanupOptions): Protection {
  const turns = session.turns;
  let fromTurn = turns.length;
  if ((options.keepRecentTokens ?? 0) > 0) {
    let budget = options.keepRecentTokens!;
    for (let t = turns.length - 1; t >= 0; t--) {
      const turn = turns[t]!;
      let size = 0;
      for (let i = turn.start; i < turn.end; i++) for (const b of session.messages[i]!.blocks) size += b.tokens;
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
  // Never start the protected part between a prompt and the reply that answers it.
  while (fromTurn > 0 && fromTurn < turns.length && turns[fromTurn - 1]!.kind === 'user' && turns[fromTurn]!.kind === 'model') fromTurn--;
  const fromMessage = fromTurn < turns.length ? turns[fromTurn]!.start : session.messages.length;
  const prompt = [...turns].reverse().find((t) => t.kind === 'user');
  return { fromMessage, fromTurn, latestPrompt: prompt?.start };
}
