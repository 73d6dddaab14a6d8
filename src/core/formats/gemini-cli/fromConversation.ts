// A conversation from another agent (core/convert) as a NEW Gemini CLI chat (JSONL: header, one line per message)
// that `gemini --resume <id>` loads: each reply a `gemini` message whose toolCalls carry their results, followed by
// the user message of those results, as the CLI itself records them.
import type { Conversation } from '../../convert/conversation';
import { sha256Hex } from '../../usage/sha256';
import type { WriteContext } from '../../write/blockMap';
import type { OutLine } from '../../write/serialize';
import { stringifySafe } from '../../read/safeJson';

type Obj = Record<string, unknown>;

export function geminiFromConversation(conv: Conversation, ctx: WriteContext): { sessionId: string; lines: OutLine[] } {
  const sessionId = ctx.newId();
  const start = ctx.now().getTime();
  const at = (): string => new Date(start + lines.length).toISOString();
  const lines: OutLine[] = [];
  const now = new Date(start).toISOString();
  // The project is the SHA-256 of its root's path, as the CLI hashes process.cwd().
  // `summary` is the title the CLI's session browser shows: the first typed prompt, not the source agent's summary (a
  // `<state_snapshot>` user message, Gemini CLI's own compression form, written as is).
  lines.push({ raw: stringifySafe({ sessionId, projectHash: sha256Hex(conv.cwd ?? ''), startTime: now, lastUpdated: now, kind: 'main', ...(conv.title ? { summary: conv.title } : {}) }) });
  const emit = (m: Obj): void => { lines.push({ raw: stringifySafe({ id: ctx.newId(), timestamp: at(), ...m }) }); };
  for (const m of conv.messages) {
    if (m.role === 'user') { emit({ type: 'user', content: [{ text: m.text }] }); continue; }
    const text = m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n');
    const responses: Obj[] = [];
    const toolCalls = m.parts.flatMap((p) => {
      if (p.type !== 'call') return [];
      const response = { functionResponse: { id: p.id, name: p.name, response: p.result.isError ? { error: p.result.text } : { output: p.result.text } } };
      responses.push(response);
      return [{ id: p.id, name: p.name, args: p.input, result: [response], status: p.result.isError ? 'error' : 'success', timestamp: at() }];
    });
    emit({ type: 'gemini', content: text, thoughts: [], model: conv.model ?? 'unknown', ...(toolCalls.length ? { toolCalls } : {}) });
    if (responses.length > 0) emit({ type: 'user', content: responses });
  }
  return { sessionId, lines };
}
