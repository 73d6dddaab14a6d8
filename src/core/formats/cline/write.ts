// Writes a cleaned task as a NEW task folder (new id): the API history the model will see (Cline's truncation and
// edits baked in, no usage copied), a UI log that matches it, the task metadata, and the entry of the task index
// the extension lists tasks from (Cline: state/taskHistory.json; Roo/Kilo: the folder's history_item.json).
import type { InsertedText, WrittenSession } from '../../agents/agent';
import type { Block, Session } from '../../model/transcript';
import { blocksByRecord, cutRecords, sameBlocks, type WriteContext } from '../../write/blockMap';
import { TEXT_RESULT } from './blocks';
import { extraOf, type ClineExtra } from './session';
import { API_FILE, HISTORY_ITEM_FILE, METADATA_FILE, UI_FILE } from './select';
import { taskIndexEntry, openNote } from './taskIndex';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** UI entries that point into the old task's usage, checkpoints or API history and are not copied. */
const UI_DROP = new Set(['api_req_started', 'api_req_finished', 'api_req_retried', 'deleted_api_reqs', 'checkpoint_created', 'subagent_usage', 'error_retry']);

/** Why a task read from ui_messages.json alone is not written. */
export const UI_ONLY_REFUSAL = `this task has only ${UI_FILE}; compaction needs ${API_FILE} to resume`;

export function writeTask(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): WrittenSession {
  const x = extraOf(original);
  // Without the API history there is nothing Cline could resume from: refuse rather than invent one.
  if (x.uiOnly) throw new Error(UI_ONLY_REFUSAL);
  const id = ctx.newId();
  const now = ctx.now().getTime();
  const before = blocksByRecord(original.messages);
  const after = blocksByRecord(cleaned.messages);
  const cut = cutRecords(original.messages);
  const api: Obj[] = [];
  const newIndex = new Map<number, number>();
  const kept = cleaned.messages.filter((m) => m.records.length > 0).map((m) => m.records[0]!);
  const anchor = insert ? (kept.find((r) => r >= insert.beforeRecord) ?? Infinity) : Infinity;
  let inserted = !insert;
  // The tail copied as it was: what the UI log keeps beside the history.
  let tail = kept.length;
  while (tail > 0 && unchanged(kept[tail - 1]!)) tail--;

  function unchanged(r: number): boolean {
    return !cut.has(r) && sameBlocks(before.get(r), after.get(r)) && !x.visible.edits.has(r) && r !== x.visible.stripResultsOf;
  }
  const summary = (): void => {
    const block = { type: 'text', text: insert!.text };
    const prev = api[api.length - 1];
    if (prev?.role === 'user' && Array.isArray(prev.content)) prev.content = [...prev.content, block];
    else api.push({ role: 'user', content: [block], ts: now });
    inserted = true;
  };
  for (const r of kept) {
    if (!inserted && r >= anchor) summary();
    const orig = x.api[r];
    const blocks = after.get(r) ?? [];
    if (!isObj(orig) || blocks.length === 0) continue;
    const { metrics: _usage, ...msg } = orig;
    if (!unchanged(r)) msg.content = rebuild(orig, blocks, before.get(r) ?? [], x, r);
    newIndex.set(r, api.length);
    api.push(msg);
  }
  if (!inserted) summary();

  const apiText = JSON.stringify(api);
  const ui = uiFor(x, kept.slice(tail), newIndex, original, id, now);
  const uiText = JSON.stringify(ui);
  const metadata = x.metadata ?? { files_in_context: [], model_usage: [], environment_history: [] };
  const metaText = JSON.stringify(metadata, null, 2);
  const task = `${taskText(x, original)} (compacted)`;
  const size = utf8Bytes(apiText) + utf8Bytes(uiText) + utf8Bytes(metaText);
  const entry = taskIndexEntry(x, { id, ts: now, task, size, cwd: original.cwd, model: original.models.at(-1) });
  const files = [{ path: API_FILE, text: apiText }, { path: UI_FILE, text: uiText }, { path: METADATA_FILE, text: metaText }];
  if (entry.file) files.push({ path: HISTORY_ITEM_FILE, text: entry.file });
  return { kind: 'files', sessionId: id, files, merges: entry.merge ? [entry.merge] : [], notes: [openNote(x.variant, id)] };
}

/** The content of a changed message: kept blocks as stored (edits applied), changed ones in the stored shape. */
function rebuild(orig: Obj, blocks: readonly Block[], was: readonly Block[], x: ClineExtra, r: number): unknown[] {
  const content: unknown[] = Array.isArray(orig.content) ? orig.content : [{ type: 'text', text: String(orig.content ?? '') }];
  const edits = x.visible.edits.get(r);
  return blocks.map((b) => {
    const i = b.ref.index ?? 0;
    const stored = isObj(content[i]) ? (content[i] as Obj) : undefined;
    if (was.includes(b) && stored) {
      // Cline's edits change text and tool_result blocks only (as the reader applied them).
      const text = edits?.get(i);
      if (text === undefined) return stored;
      if (stored.type === 'text') return { ...stored, text };
      return stored.type === 'tool_result' && 'text' in b ? resultShape(stored, b.text) : stored;
    }
    switch (b.type) {
      case 'tool_call': return { ...(stored?.type === 'tool_use' ? stored : {}), type: 'tool_use', id: b.id, name: b.name, input: b.input };
      case 'tool_result': return stored ? resultShape(stored, b.text) : { type: 'tool_result', tool_use_id: b.id, content: b.text };
      case 'media': return stored ?? { type: 'text', text: '[image]' };
      case 'reasoning': return stored ?? { type: 'text', text: b.text };
      default: return { type: 'text', text: b.text };
    }
  });
}

/** A result in the shape it was stored: a tool_result block, or a "[tool …] Result:" text block (header kept). */
function resultShape(stored: Obj, text: string): Obj {
  if (stored.type === 'tool_result') return { ...stored, content: text };
  const header = TEXT_RESULT.exec(String(stored.text ?? ''))?.[0];
  return { type: 'text', text: header && !text.startsWith(header) ? `${header}\n${text}` : text };
}

function taskText(x: ClineExtra, original: Session): string {
  const first = x.ui.find((u) => isObj(u) && u.type === 'say' && (u.say === 'task' || u.say === 'text') && typeof u.text === 'string') as Obj | undefined;
  return first ? String(first.text) : (original.title ?? original.id);
}

/** The task's opening message, a note on what was compacted, then the UI of the tail copied as it was. */
function uiFor(x: ClineExtra, tail: readonly number[], newIndex: Map<number, number>, original: Session, id: string, now: number): Obj[] {
  const first = x.ui.find((u) => isObj(u) && u.type === 'say' && (u.say === 'task' || u.say === 'text')) as Obj | undefined;
  const out: Obj[] = [{ ...(first ?? { type: 'say', say: 'task' }), ts: now, text: `${taskText(x, original)} (compacted)`, conversationHistoryIndex: -1 }];
  const shown = [...newIndex.values()];
  out.push({ ts: now + 1, type: 'say', say: 'text', text: `Compacted by Context Compactor from task ${original.id} into task ${id}: the older part of the conversation was cleaned up${shown.length < original.messages.length ? ' and summarized' : ''}; the model continues from ${shown.length} messages.`, conversationHistoryIndex: Math.max(0, (newIndex.get(tail[0] ?? -1) ?? shown.length) - 1) });
  if (tail.length === 0) return out;
  const start = tail[0]!;
  const startTs = isObj(x.api[start]) ? (x.api[start] as Obj).ts : undefined;
  const remap = (k: number): number => {
    let best = -1;
    for (const [r, n] of newIndex) if (r <= k && n > best) best = n;
    return best;
  };
  for (const u of x.ui) {
    if (!isObj(u) || u === first || UI_DROP.has(String(u.say))) continue;
    const k = Number.isInteger(u.conversationHistoryIndex) ? (u.conversationHistoryIndex as number) : undefined;
    const inTail = k !== undefined ? k + 1 >= start : typeof startTs === 'number' && typeof u.ts === 'number' && u.ts >= startTs;
    if (!inTail) continue;
    const { lastCheckpointHash: _h, isCheckpointCheckedOut: _c, conversationHistoryDeletedRange: _d, ...rest } = u;
    out.push(k === undefined ? rest : { ...rest, conversationHistoryIndex: remap(k) });
  }
  return out;
}

/** Bytes of `s` in UTF-8 (the task size Cline shows; core has no Buffer). */
function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
