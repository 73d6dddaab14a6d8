// A conversation from another agent (core/convert) as a NEW session in the JSON `goose session import <file>` reads:
// tool requests in the assistant's message, their responses in the user message after it, as Goose records them.
import type { Conversation } from '../../convert/conversation';
import type { WriteContext } from '../../write/blockMap';
import type { OutLine } from '../../write/serialize';
import { stringifySafe } from '../../read/safeJson';
import { gooseSessionId } from './write';

type Obj = Record<string, unknown>;
const VISIBLE = { userVisible: true, agentVisible: true };
const AGENT_ONLY = { userVisible: false, agentVisible: true };

export function gooseFromConversation(conv: Conversation, ctx: WriteContext): { sessionId: string; lines: OutLine[] } {
  const now = ctx.now();
  const sessionId = gooseSessionId(ctx.newId(), now);
  const created = Math.floor(now.getTime() / 1000);
  const conversation: Obj[] = [];
  const push = (role: 'user' | 'assistant', content: Obj[], metadata: Obj = VISIBLE): void => { conversation.push({ id: `msg_${ctx.newId()}`, role, created, content, metadata }); };
  for (const m of conv.messages) {
    // Goose's own compaction: the summary a user message only the agent sees.
    if (m.role === 'user' && m.summary) { push('user', [{ type: 'text', text: m.text }], AGENT_ONLY); continue; }
    if (m.role === 'user') { push('user', [{ type: 'text', text: m.text }]); continue; }
    const responses: Obj[] = [];
    push('assistant', m.parts.map((p): Obj => {
      if (p.type === 'text') return { type: 'text', text: p.text };
      responses.push({
        type: 'toolResponse', id: p.id,
        toolResult: p.result.isError ? { status: 'error', error: p.result.text } : { status: 'success', value: { content: [{ type: 'text', text: p.result.text }], isError: false } },
      });
      return { type: 'toolRequest', id: p.id, toolCall: { status: 'success', value: { name: p.name, arguments: p.input } } };
    }));
    if (responses.length > 0) push('user', responses);
  }
  const at = now.toISOString().replace(/\.\d+Z$/, 'Z');
  // The fields of Goose's own import JSON; usage starts empty (the original was billed by the agent it came from).
  const session = {
    id: sessionId, working_dir: conv.cwd ?? '', name: conv.title ? `${conv.title} (continued)` : 'continued session', user_set_name: false,
    session_type: 'user', created_at: at, updated_at: at, extension_data: {}, total_tokens: null, input_tokens: null, output_tokens: null,
    accumulated_total_tokens: null, accumulated_input_tokens: null, accumulated_output_tokens: null, accumulated_cost: null, schedule_id: null,
    recipe: null, user_recipe_values: null, conversation, message_count: conversation.length, provider_name: null, model_config: null,
    goose_mode: 'auto', archived_at: null, project_id: null,
  };
  return { sessionId, lines: [{ raw: stringifySafe(session) }] };
}
