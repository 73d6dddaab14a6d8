// Writes a cleaned Copilot CLI session as a NEW session folder (<id>/events.jsonl) that `copilot --resume=<id>`
// loads: `session.start` with the new id, then one event per kept prompt, reply and tool result on a fresh parentId
// chain. Events cleanup left as they were are copied (new ids); changed ones are rebuilt from their blocks, without
// the reply's encrypted reasoning (only the service that made it can read it, and it no longer matches). Telemetry,
// usage records and turn markers are left out; the system prompt is kept in the log, though the CLI sends its own.
import type { InsertedText } from '../../agents/agent';
import type { Block, Message, Session } from '../../model/transcript';
import type { WriteContext } from '../../write/blockMap';
import { stringifySafe } from '../../read/safeJson';
import { isObj } from './detect';
import type { CopilotExtra } from './read';

type Obj = Record<string, unknown>;

export function writeCopilotCli(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): { sessionId: string; text: string } {
  const x = (original.extra as { copilot?: CopilotExtra }).copilot;
  if (!x || x.events.size === 0) throw new Error('the session was read without its events; cannot write it back');
  const sessionId = ctx.newId();
  const now = ctx.now().toISOString();
  const unchanged = new Set(original.messages.flatMap((m) => m.blocks));
  const lines: string[] = [];
  let parentId: string | null = null;
  const emit = (type: string, data: Obj, timestamp: string | undefined): void => {
    const id = ctx.newId();
    lines.push(stringifySafe({ type, data, id, timestamp: timestamp ?? now, parentId }));
    parentId = id;
  };
  const source = (m: Message): Obj | undefined => (m.records[0] !== undefined && m.records[0] >= 0 ? x.events.get(m.records[0]) : undefined);
  const start = [...x.events.values()].find((e) => e.type === 'session.start');
  const startData = isObj(start?.data) ? start.data : {};
  emit('session.start', { ...startData, sessionId, startTime: now, ...(original.cwd && !isObj(startData.context) ? { context: { cwd: original.cwd } } : {}) }, now);
  const prompt = (text: string, timestamp: string | undefined): void => emit('user.message', { content: text, transformedContent: text, messageId: ctx.newId() }, timestamp);
  let inserted = !insert;
  for (const m of cleaned.messages) {
    if (!inserted && (m.records[0] ?? -1) >= insert!.beforeRecord) { prompt(insert!.text, m.timestamp); inserted = true; }
    const from = source(m);
    const same = from !== undefined && m.blocks.every((b) => unchanged.has(b)) && isObj(from.data);
    // The CLI sends a system prompt of its own on resume; the log keeps the one it had (as the original does).
    if (m.role === 'system') { emit('system.message', same ? (from.data as Obj) : { role: 'system', content: m.blocks.map(textOf).join('\n\n') }, m.timestamp); continue; }
    if (m.role === 'user' && !m.toolResultsOnly) {
      if (same && from.type === 'user.message') emit('user.message', from.data as Obj, m.timestamp);
      else prompt(m.blocks.map(textOf).filter(Boolean).join('\n\n'), m.timestamp);
    } else if (m.role === 'user') {
      for (const b of m.blocks) if (b.type === 'tool_result') emit('tool.execution_complete', same ? (from.data as Obj) : resultData(b), m.timestamp);
    } else {
      emit('assistant.message', same ? (from.data as Obj) : replyData(m, from, ctx), m.timestamp);
    }
  }
  if (!inserted) prompt(insert!.text, undefined);
  return { sessionId, text: `${lines.join('\n')}\n` };
}

const textOf = (b: Block): string => (b.type === 'text' || b.type === 'summary' || b.type === 'meta' ? b.text : '');

function resultData(b: Extract<Block, { type: 'tool_result' }>): Obj {
  return b.isError ? { toolCallId: b.id, success: false, error: { message: b.text, code: 'failure' } } : { toolCallId: b.id, success: true, result: { content: b.text } };
}

function replyData(m: Message, from: Obj | undefined, ctx: WriteContext): Obj {
  const was = isObj(from?.data) ? from.data : {};
  const calls = m.blocks.flatMap((b) => (b.type === 'tool_call' ? [{ toolCallId: b.id, name: b.name, arguments: b.input, type: 'function' }] : []));
  const reasoning = m.blocks.filter((b) => b.type === 'reasoning').map((b) => b.text).join('\n');
  return {
    messageId: ctx.newId(), ...(m.model ?? was.model ? { model: m.model ?? was.model } : {}),
    content: m.blocks.map(textOf).filter(Boolean).join('\n\n'), toolRequests: calls, ...(reasoning ? { reasoningText: reasoning } : {}),
  };
}
