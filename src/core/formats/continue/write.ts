// Writes a cleaned Continue session as a NEW session document (new id, no usage): unchanged history items copied,
// changed ones rebuilt from their blocks (an assistant item's calls and their results' outputs together), the
// summary a user item before the kept part. `cn --fork <id>` loads it from <sessions>/<id>.json.
import type { InsertedText } from '../../agents/agent';
import type { Block, Session } from '../../model/transcript';
import { blocksByRecord, cutRecords, sameBlocks, type WriteContext } from '../../write/blockMap';
import type { OutLine } from '../../write/serialize';
import { isObj, type ContinueExtra, type Obj } from './read';

const NO_USAGE = { totalCost: 0, promptTokens: 0, completionTokens: 0, promptTokensDetails: { cachedTokens: 0, cacheWriteTokens: 0 } };

/** An item without the usage its request recorded (the original was billed once). */
function withoutUsage(item: Obj): Obj {
  if (!isObj(item.message) || !('usage' in item.message)) return item;
  const { usage: _u, ...message } = item.message;
  return { ...item, message };
}

const textOf = (b: Block): string => (b.type === 'tool_call' ? `${b.name}(${b.inputText})` : 'text' in b ? b.text : '');

function rebuild(item: Obj, kept: readonly Block[]): Obj {
  const m = isObj(item.message) ? item.message : {};
  const role = m.role === 'assistant' ? 'assistant' : m.role === 'tool' ? 'tool' : 'user';
  if (role !== 'assistant') {
    const text = kept.map(textOf).filter(Boolean).join('\n\n');
    const message = role === 'tool' ? { ...m, content: text } : { role: 'user', content: text };
    return { message, contextItems: [], ...(role === 'user' ? { editorState: text } : {}) };
  }
  const states = new Map((Array.isArray(item.toolCallStates) ? item.toolCallStates : []).filter(isObj).map((s) => [String(s.toolCallId), s]));
  const results = new Map(kept.flatMap((b) => (b.type === 'tool_result' ? [[b.id, b.text] as const] : [])));
  const calls = kept.filter((b): b is Extract<Block, { type: 'tool_call' }> => b.type === 'tool_call');
  const text = kept.filter((b) => b.type !== 'tool_call' && b.type !== 'tool_result' && b.type !== 'reasoning').map(textOf).join('\n\n');
  const toolCalls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.inputText } }));
  const toolCallStates = calls.map((c, i) => {
    const s = states.get(c.id) ?? { toolCallId: c.id, status: 'done' };
    const out = results.get(c.id);
    return { ...s, toolCall: toolCalls[i], parsedArgs: isObj(c.input) ? c.input : {}, output: out === undefined ? [] : [{ content: out, name: 'Tool Result', description: 'Tool execution result' }] };
  });
  const { usage: _u, toolCalls: _t, ...rest } = m;
  return { ...item, message: { ...rest, content: text, ...(toolCalls.length ? { toolCalls } : {}) }, ...(toolCallStates.length ? { toolCallStates } : { toolCallStates: undefined }) };
}

export function writeContinue(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): { sessionId: string; lines: OutLine[] } {
  const x = original.extra as unknown as ContinueExtra;
  const sessionId = ctx.newId();
  const before = blocksByRecord(original.messages);
  const after = blocksByRecord(cleaned.messages);
  const cut = cutRecords(original.messages);
  const history: Obj[] = [];
  let inserted = !insert;
  const summary = (): void => {
    history.push({ message: { role: 'user', content: insert!.text }, contextItems: [], editorState: insert!.text });
    inserted = true;
  };
  x.items.forEach((item, r) => {
    if (!inserted && r >= insert!.beforeRecord) summary();
    const was = before.get(r) ?? [];
    const kept = after.get(r) ?? [];
    if (r < x.from) return;
    if (was.length === 0) { history.push(withoutUsage(item)); return; }
    if (kept.length === 0) return;
    history.push(!cut.has(r) && sameBlocks(was, kept) ? withoutUsage(item) : rebuild(item, kept));
  });
  if (!inserted) summary();
  const title = typeof x.doc.title === 'string' ? x.doc.title : '';
  const { sessionId: _s, history: _h, usage: _u, title: _t, ...rest } = x.doc;
  const doc = { sessionId, title: `${title || 'Untitled Session'} (compacted)`, ...rest, history, usage: NO_USAGE };
  return { sessionId, lines: [{ value: doc }] };
}

