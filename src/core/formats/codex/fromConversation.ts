// A conversation from another agent (core/convert) as a NEW Codex rollout: session_meta, then the response items
// `codex resume <id>` replays (messages, function calls and apply_patch custom calls with their outputs).
import type { Conversation } from '../../convert/conversation';
import type { WriteContext } from '../../write/blockMap';
import type { OutLine } from '../../write/serialize';
import { stringifySafe } from '../../read/safeJson';

type Obj = Record<string, unknown>;

export function codexFromConversation(conv: Conversation, ctx: WriteContext): { sessionId: string; lines: OutLine[] } {
  const sessionId = ctx.newId();
  const start = ctx.now().getTime();
  const lines: OutLine[] = [];
  const push = (type: string, payload: Obj): void => {
    lines.push({ raw: stringifySafe({ timestamp: new Date(start + lines.length).toISOString(), ordinal: lines.length, type, payload }) });
  };
  // The fields current Codex requires of session metadata (as the legacy rollouts' upgrade writes them).
  push('session_meta', {
    id: sessionId, timestamp: new Date(start).toISOString(), cwd: conv.cwd ?? '', originator: 'codex_cli_rs', cli_version: '0.0.0',
    source: 'cli', model_provider: conv.modelProvider ?? 'openai',
  });
  const history: Obj[] = [];
  const typed = conv.messages.some((m) => m.role === 'user' && !m.summary);
  const item = (payload: Obj): void => { history.push(payload); push('response_item', payload); };
  for (const m of conv.messages) {
    if (m.role === 'user' && m.summary) {
      // Codex's own compaction: the history it resumes from, the summary last as a user message. No user_message event
      // (the picker's title stays the first typed prompt) unless no prompt was typed at all: Codex lists, and
      // `resume --last` finds, only a rollout that holds one.
      const replacement = [...history, { type: 'message', role: 'user', content: [{ type: 'input_text', text: m.text }] }];
      push('compacted', { message: m.text, replacement_history: replacement });
      if (!typed) push('event_msg', { type: 'user_message', message: m.text, images: [] });
      history.splice(0, history.length, ...replacement);
      continue;
    }
    if (m.role === 'user') {
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: m.text }] });
      push('event_msg', { type: 'user_message', message: m.text, images: [] });
      continue;
    }
    const outputs: Obj[] = [];
    for (const p of m.parts) {
      if (p.type === 'text') { item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: p.text }] }); continue; }
      if (typeof p.input === 'string') {
        item({ type: 'custom_tool_call', status: 'completed', call_id: p.id, name: p.name, input: p.input });
        outputs.push({ type: 'custom_tool_call_output', call_id: p.id, output: p.result.text });
      } else {
        item({ type: 'function_call', name: p.name, arguments: JSON.stringify(p.input), call_id: p.id });
        outputs.push({ type: 'function_call_output', call_id: p.id, output: p.result.text });
      }
    }
    for (const o of outputs) item(o);
  }
  return { sessionId, lines };
}
