// Writes a cleaned Droid session as a NEW session: session_start with a fresh id, then its message events re-chained
// (fresh ids, each parentId the one before), changed content rebuilt as Anthropic blocks, everything else copied.
// No .settings.json: the copy carries no usage (the original was billed once); Droid writes one when it continues.
import type { InsertedText } from '../../agents/agent';
import type { Session } from '../../model/transcript';
import { blocksByRecord, cutRecords, recordOrder, sameBlocks, type WriteContext } from '../../write/blockMap';
import { rebuiltLine, type OutLine } from '../../write/serialize';
import { rebuildContent } from '../claude-code/write';
import { isObj, type DroidData, type Obj } from './read';

export function writeDroid(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): { sessionId: string; lines: OutLine[] } {
  const data = original.extra.droid as DroidData | undefined;
  if (!data) throw new Error('the session was read without its events; cannot write it back');
  const sessionId = ctx.newId();
  const before = blocksByRecord(original.messages);
  const after = blocksByRecord(cleaned.messages);
  const cut = cutRecords(original.messages);
  const start = data.events.find((e): e is Obj => e?.type === 'session_start') ?? {};
  const title = typeof start.title === 'string' && start.title ? `${start.title} (compacted)` : 'compacted session';
  const lines: OutLine[] = [rebuiltLine(original, { ...start, type: 'session_start', id: sessionId, title, isSessionTitleManuallySet: false })];
  let parent: string | undefined;
  let lastTs = ctx.now().toISOString();
  const emit = (o: Obj): void => {
    const id = ctx.newId();
    const rec: Obj = { ...o, id };
    if (parent) rec.parentId = parent; else delete rec.parentId;
    lines.push(rebuiltLine(original, rec));
    parent = id;
  };
  const userText = (text: string, timestamp: string): Obj => ({ type: 'message', id: '', timestamp, message: { role: 'user', content: [{ type: 'text', text }] } });
  const order = recordOrder(cleaned.messages);
  const anchor = insert ? Math.max(0, order.indexOf(insert.beforeRecord)) : -1;
  let inserted = !insert;
  order.forEach((r, pos) => {
    const ev = data.events[r];
    if (!ev) return;
    if (typeof ev.timestamp === 'string') lastTs = ev.timestamp;
    if (!inserted && pos === anchor) { emit(userText(insert!.text, lastTs)); inserted = true; }
    const was = before.get(r) ?? [];
    const now = after.get(r) ?? [];
    if (ev.type === 'compaction_state') {
      // Droid's own summary, kept as the user text the model continues from.
      const summary = now.find((b) => b.type === 'summary');
      if (summary && summary.type === 'summary') emit(userText(summary.text, lastTs));
      return;
    }
    if (!isObj(ev.message)) return;
    const o: Obj = { ...ev, message: { ...ev.message } };
    if (cut.has(r) || !sameBlocks(was, now)) {
      if (now.length === 0) return;
      rebuildContent(o, was, now);
    }
    emit(o);
  });
  if (!inserted) emit(userText(insert!.text, lastTs));
  return { sessionId, lines };
}
