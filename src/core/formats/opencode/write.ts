// Writes a cleaned OpenCode session as NEW `opencode export` JSON (new session, message and part ids; unchanged
// parts copied; changed ones rebuilt) that `opencode import <file>` adds to OpenCode's sessions.
import type { InsertedText } from '../../agents/agent';
import type { Block, Session } from '../../model/transcript';
import { blocksByRecord, cutRecords, sameBlocks, type WriteContext } from '../../write/blockMap';
import { rebuiltLine, type OutLine } from '../../write/serialize';
import { idMaker, sessionIdFrom } from './ids';
import { PRUNED_OUTPUT, type OcRef } from './read';
import { isObj, type Obj, type OcMessage, type OcSession } from './sources';

const ZERO_TOKENS = { total: 0, input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };

export function writeOpencode(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): { sessionId: string; lines: OutLine[] } {
  const oc = original.extra.oc as OcSession | undefined;
  const refs = original.extra.refs as readonly OcRef[] | undefined;
  if (!oc || !refs) throw new Error('the session was read without keepRaw; cannot write it back');
  const sessionId = sessionIdFrom(ctx.newId());
  const nextId = idMaker(ctx.now().getTime(), () => ctx.newId());
  const before = blocksByRecord(original.messages);
  const after = blocksByRecord(cleaned.messages);
  const cut = cutRecords(original.messages);
  // Record index of each part, by message and part position.
  const recordOf = new Map<string, number>();
  refs.forEach((r, i) => { if (r.p >= 0) recordOf.set(`${r.m}:${r.p}`, i); });
  const insertAt = insert ? (refs[insert.beforeRecord]?.m ?? oc.messages.length) : -1;

  const out: { info: Obj; parts: Obj[] }[] = [];
  const newIds = new Map<string, string>();
  let lastUser: Obj | undefined;
  const addSummary = (next: OcMessage | undefined): void => {
    const id = nextId('msg');
    const created = next && isObj(next.info.time) && typeof next.info.time.created === 'number' ? next.info.time.created - 1 : ctx.now().getTime();
    const like = lastUser ?? oc.messages.find((m) => m.info.role === 'user')?.info ?? {};
    const info: Obj = { id, sessionID: sessionId, role: 'user', time: { created }, agent: like.agent ?? 'build', model: like.model };
    out.push({ info, parts: [{ id: nextId('prt'), sessionID: sessionId, messageID: id, type: 'text', text: insert!.text }] });
    lastUser = info;
  };

  oc.messages.forEach((msg, mi) => {
    if (mi === insertAt) addSummary(msg);
    const records = msg.parts.map((_p, pi) => recordOf.get(`${mi}:${pi}`)!);
    if (!records.some((r) => after.has(r))) return;
    const id = nextId('msg');
    newIds.set(String(msg.info.id), id);
    const info: Obj = { ...msg.info, id, sessionID: sessionId };
    if (info.role === 'assistant') {
      // The user message it answers, or the nearest one before it that was kept.
      info.parentID = newIds.get(String(msg.info.parentID)) ?? (lastUser ? lastUser.id : info.parentID);
      // Copies carry no usage: the original was billed once, and stale figures would make OpenCode compact at once.
      info.tokens = ZERO_TOKENS;
      info.cost = 0;
    }
    const parts: Obj[] = [];
    msg.parts.forEach((part, pi) => {
      const r = records[pi]!;
      const was = before.get(r);
      const now = after.get(r);
      if (was && !now) return; // sent to the model before, dropped by cleanup or replaced by the summary
      if (cut.has(r) && !now) return; // only a repeated tool call or result, dropped when read
      const base = { id: nextId('prt'), sessionID: sessionId, messageID: id };
      if (!cut.has(r) && (!was || sameBlocks(was, now))) {
        const copy: Obj = { ...part, ...base };
        if (part.type === 'step-finish') { copy.tokens = ZERO_TOKENS; copy.cost = 0; }
        parts.push(copy);
        return;
      }
      const rebuilt = rebuildPart(part, now!);
      if (rebuilt) parts.push({ ...rebuilt, ...base });
    });
    out.push({ info, parts });
    if (info.role === 'user') lastUser = info;
  });
  if (insert && insertAt >= oc.messages.length) addSummary(undefined);

  const now = ctx.now().getTime();
  const info: Obj = { ...oc.info, id: sessionId, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0, time: { created: now, updated: now } };
  // A new top-level session: not a child of the original's parent, not shared, nothing to revert.
  for (const k of ['parentID', 'share', 'revert']) delete info[k];
  return { sessionId, lines: [rebuiltLine(original, { info, messages: out })] };
}

/** A part whose blocks cleanup changed, rebuilt from them (undefined: nothing of it is left). */
function rebuildPart(part: Obj, blocks: readonly Block[]): Obj | undefined {
  const call = blocks.find((b) => b.type === 'tool_call');
  const result = blocks.find((b) => b.type === 'tool_result');
  if (part.type === 'tool' && call && result && isObj(part.state)) {
    const state: Obj = { ...part.state, input: call.type === 'tool_call' ? call.input : part.state.input };
    const text = result.type === 'tool_result' ? result.text : '';
    const was = part.state;
    const resultChanged = text !== (was.status === 'completed' ? (isObj(was.time) && was.time.compacted ? PRUNED_OUTPUT : was.output) : was.error);
    if (resultChanged) {
      if (state.status === 'error') state.error = text; else state.output = text;
      // The display metadata repeats the output (and attachments the media): they go with it.
      state.metadata = {};
      delete state.attachments;
      if (isObj(state.time)) { const time = { ...state.time }; delete time.compacted; state.time = time; }
    }
    return { ...part, state };
  }
  // Anything else left as words: a call folded into one line, a text, a summary, a media placeholder.
  const words = blocks.filter((b) => 'text' in b && b.type !== 'tool_result' && b.type !== 'reasoning').map((b) => (b as { text: string }).text);
  const thought = blocks.find((b) => b.type === 'reasoning');
  if (part.type === 'reasoning' && thought && thought.type === 'reasoning') {
    // Changed thinking no longer matches its signature: sent without it.
    return { ...part, text: thought.text, metadata: {} };
  }
  if (words.length === 0) return undefined;
  const text = words.join('\n\n');
  if (part.type === 'text') return { ...part, text };
  return { type: 'text', text, ...(part.type === 'file' ? { synthetic: true } : {}) };
}
