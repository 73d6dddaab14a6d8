// A conversation from another agent (core/convert) as NEW `opencode export` JSON that `opencode import <file>` adds:
// user messages with a text part, assistant messages with text and completed tool parts (call and result in one).
import type { Conversation } from '../../convert/conversation';
import type { WriteContext } from '../../write/blockMap';
import type { OutLine } from '../../write/serialize';
import { stringifySafe } from '../../read/safeJson';
import { idMaker, sessionIdFrom } from './ids';

type Obj = Record<string, unknown>;
const ZERO_TOKENS = { total: 0, input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };

/** The provider a model id belongs to, as OpenCode names providers. */
const providerOf = (model: string): string => (/^claude/.test(model) ? 'anthropic' : /^gemini/.test(model) ? 'google' : 'openai');

export function opencodeFromConversation(conv: Conversation, ctx: WriteContext): { sessionId: string; lines: OutLine[] } {
  const sessionId = sessionIdFrom(ctx.newId());
  const start = ctx.now().getTime();
  const nextId = idMaker(start, () => ctx.newId());
  const cwd = conv.cwd ?? '';
  // The model OpenCode is set up with (it continues with the one the messages name), else the session's own.
  const modelID = conv.targetModel?.modelID ?? conv.model ?? 'unknown', providerID = conv.targetModel?.providerID ?? providerOf(modelID);
  let clock = start;
  const tick = (): number => ++clock;
  const messages: { info: Obj; parts: Obj[] }[] = [];
  let lastUser = '';
  for (const m of conv.messages) {
    const id = nextId('msg');
    const base = { sessionID: sessionId, messageID: id };
    if (m.role === 'user' && m.summary) {
      // OpenCode's own compaction: a user message with a compaction part, answered by a finished summary message.
      messages.push({ info: { id, sessionID: sessionId, role: 'user', time: { created: tick() }, agent: 'build', model: { providerID, modelID } }, parts: [{ id: nextId('prt'), ...base, type: 'compaction', auto: false }] });
      const summaryId = nextId('msg'), created = tick();
      messages.push({
        info: { id: summaryId, sessionID: sessionId, role: 'assistant', parentID: id, mode: 'compaction', agent: 'compaction', summary: true, path: { cwd, root: cwd }, cost: 0, tokens: ZERO_TOKENS, modelID, providerID, time: { created, completed: tick() }, finish: 'stop' },
        parts: [{ id: nextId('prt'), sessionID: sessionId, messageID: summaryId, type: 'text', text: m.text }],
      });
      continue;
    }
    if (m.role === 'user') {
      lastUser = id;
      messages.push({ info: { id, sessionID: sessionId, role: 'user', time: { created: tick() }, agent: 'build', model: { providerID, modelID } }, parts: [{ id: nextId('prt'), ...base, type: 'text', text: m.text }] });
      continue;
    }
    const created = tick();
    const parts = m.parts.map((p): Obj => {
      if (p.type === 'text') return { id: nextId('prt'), ...base, type: 'text', text: p.text };
      const time = { start: tick(), end: tick() };
      const state = p.result.isError
        ? { status: 'error', input: p.input, error: p.result.text, time }
        : { status: 'completed', input: p.input, output: p.result.text, metadata: {}, title: '', time };
      return { id: nextId('prt'), ...base, type: 'tool', tool: p.name, callID: p.id, state };
    });
    const calls = m.parts.some((p) => p.type === 'call');
    messages.push({
      info: {
        id, sessionID: sessionId, role: 'assistant', parentID: lastUser, mode: 'build', agent: 'build', path: { cwd, root: cwd },
        // Copies carry no usage: the conversation was billed once, by the agent it came from.
        cost: 0, tokens: ZERO_TOKENS, modelID, providerID, time: { created, completed: tick() }, finish: calls ? 'tool-calls' : 'stop',
      },
      parts,
    });
  }
  const now = ctx.now().getTime();
  const info: Obj = {
    id: sessionId, slug: 'continued', projectID: 'global', directory: cwd, title: conv.title ? `${conv.title} (continued)` : 'Continued session',
    version: '1.18.33', tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0, time: { created: now, updated: now },
  };
  return { sessionId, lines: [{ raw: stringifySafe({ info, messages }) }] };
}
