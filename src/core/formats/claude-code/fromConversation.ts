// A conversation from another agent (core/convert) as a NEW Claude Code session file: one linear parentUuid chain,
// each reply one assistant record, each call's result a user record after it, as `claude --resume <id>` loads them.
import type { ConvMessage, Conversation } from '../../convert/conversation';
import type { WriteContext } from '../../write/blockMap';
import type { OutLine } from '../../write/serialize';
import { stringifySafe } from '../../read/safeJson';

type Obj = Record<string, unknown>;

/** The sentence Claude Code opens its compaction summary with. */
const COMPACT_SUMMARY_LEAD = 'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:';

/**
 * The prompts a compaction kept ahead of its summary (Codex's replacement history: the user messages, then the
 * summary) moved after it: Claude Code loads a session from its last `compact_boundary` on (before it they would be
 * dropped), and what its own compaction keeps comes after the summary (2.1.3xx `preservedSegment`, sent summary first).
 */
function keptAfterSummary(messages: readonly ConvMessage[]): ConvMessage[] {
  const isSummary = (m: ConvMessage): boolean => m.role === 'user' && m.summary === true;
  const out = [...messages];
  for (let i = 0; i < out.length; i++) {
    if (!isSummary(out[i]!)) continue;
    let start = i;
    while (start > 0 && out[start - 1]!.role === 'user' && !isSummary(out[start - 1]!)) start--;
    // [start, i) are the prompts before the summary at i: the summary first, they after it.
    if (start < i) { out.splice(start, 0, out.splice(i, 1)[0]!); i = start; }
  }
  return out;
}

export function claudeFromConversation(conv: Conversation, ctx: WriteContext): { sessionId: string; lines: OutLine[] } {
  const sessionId = ctx.newId();
  const start = ctx.now().getTime();
  const lines: OutLine[] = [];
  let parent: string | null = null;
  // One millisecond a record: Claude Code resumes from the newest timestamp, so the order is the file's.
  const emit = (type: 'user' | 'assistant' | 'system', message: Obj | undefined, extra: Obj = {}): void => {
    const uuid = ctx.newId();
    const rec: Obj = {
      parentUuid: parent, isSidechain: false, type, ...(message ? { message } : {}), ...extra, uuid, timestamp: new Date(start + lines.length).toISOString(),
      userType: 'external', entrypoint: 'cli', ...(conv.cwd ? { cwd: conv.cwd } : {}), sessionId, version: '2.1.0',
    };
    lines.push({ raw: stringifySafe(rec) });
    parent = uuid;
  };
  for (const m of keptAfterSummary(conv.messages)) {
    if (m.role === 'user' && m.summary) {
      // Claude Code's own compaction: a boundary, then the summary as a compact-summary user record (never the title).
      emit('system', undefined, { subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger: 'manual', preTokens: 0 } });
      emit('user', { role: 'user', content: `${COMPACT_SUMMARY_LEAD}\n${m.text}` }, { isCompactSummary: true, isVisibleInTranscriptOnly: true });
      continue;
    }
    if (m.role === 'user') { emit('user', { role: 'user', content: m.text }); continue; }
    const calls = m.parts.filter((p) => p.type === 'call');
    const content = m.parts.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'tool_use', id: p.id, name: p.name, input: p.input }));
    emit('assistant', {
      id: `msg_${ctx.newId().replace(/-/g, '')}`, type: 'message', role: 'assistant', model: conv.model ?? 'unknown', content,
      stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null,
      // Copies carry no usage: the conversation was billed once, by the agent it came from.
      usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    });
    if (calls.length > 0) {
      emit('user', { role: 'user', content: calls.map((c) => ({ tool_use_id: c.id, type: 'tool_result', content: c.result.text, ...(c.result.isError ? { is_error: true } : {}) })) });
    }
  }
  return { sessionId, lines };
}
