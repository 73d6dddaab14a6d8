// Writes a cleaned Claude Code session as a NEW session file that `claude --resume <id>` loads:
// fresh ids, one linear parentUuid chain, changed content rebuilt, everything else verbatim.
import { requireLineText, type Block, type Session } from '../../model/transcript';
import { rebuiltLine, type OutLine } from '../../write/serialize';
import { blocksByRecord, copyEnvelope, cutRecords, recordOrder, sameBlocks, type WriteContext } from '../../write/blockMap';

type Obj = Record<string, unknown>;

export interface ClaudeWriteResult { readonly sessionId: string; readonly lines: OutLine[] }

/** Extra user text inserted before a record of the kept messages (the summary). */
export interface InsertedPrompt { readonly beforeRecord: number; readonly text: string }

export function writeClaudeCode(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedPrompt): ClaudeWriteResult {
  const sessionId = ctx.newId();
  const before = blocksByRecord(original.messages);
  const after = blocksByRecord(cleaned.messages);
  const cut = cutRecords(original.messages);
  const uuidMap = new Map<string, string>();
  const lines: OutLine[] = [];
  let parent: string | null = null;
  let template: Obj | undefined;
  let lastTs = '';

  const emit = (o: Obj): void => {
    const uuid = ctx.newId();
    if (typeof o.uuid === 'string') uuidMap.set(o.uuid, uuid);
    // Claude Code's fast loader expects parentUuid first and uuid right before timestamp, as it writes them:
    // overwrite values in place so every key keeps its position.
    const { logicalParentUuid: _l, ...rest } = o;
    const rec: Obj = { parentUuid: parent, ...rest };
    rec.parentUuid = parent;
    rec.uuid = uuid;
    rec.sessionId = sessionId;
    rec.isSidechain = false;
    // Claude Code resumes from the newest timestamp: keep them non-decreasing so our last record wins.
    if (typeof rec.timestamp === 'string') { if (rec.timestamp < lastTs) rec.timestamp = lastTs; lastTs = rec.timestamp as string; }
    if (typeof rec.sourceToolAssistantUUID === 'string') rec.sourceToolAssistantUUID = uuidMap.get(rec.sourceToolAssistantUUID) ?? parent;
    lines.push(rebuiltLine(original, rec));
    parent = uuid;
  };

  const order = recordOrder(cleaned.messages);
  const anchor = insert ? Math.max(0, order.indexOf(insert.beforeRecord)) : -1;
  order.forEach((r, pos) => {
    const rec = original.records[r];
    // Decoded only when copied or re-parsed: line texts may live outside the heap (Session.rawLines).
    const text = (): string => requireLineText(original, r);
    if (template && !(insert && pos === anchor) && !cut.has(r) && sameBlocks(before.get(r), after.get(r))) {
      const fast = rewriteUnchanged(text(), rec!.id, original.id, sessionId, parent, lastTs, uuidMap, ctx);
      if (fast) { lines.push({ raw: fast.line }); parent = fast.uuid; lastTs = fast.timestamp; return; }
    }
    const now = after.get(r) ?? [];
    const was = before.get(r) ?? [];
    // A changed record whose blocks all changed is rebuilt from the envelope kept at read time, without
    // parsing its (usually large) line again.
    const o = rec!.envelope && now.length > 0 && now.every((b) => !was.includes(b)) ? copyEnvelope(rec!.envelope, 'message') : (JSON.parse(text().trim()) as Obj);
    template ??= o;
    if (insert && pos === anchor) emit(userRecord(template, insert.text, ctx, o.timestamp));
    if (o.type === 'assistant' && typeof o.message === 'object' && o.message) zeroUsage(o.message as Obj);
    if (cut.has(r) || !sameBlocks(was, now)) {
      if (now.length === 0) return;
      rebuildContent(o, was, now);
      delete o.toolUseResult;
    }
    emit(o);
  });
  // The copy keeps the name Claude Code gave the session (2.1.1xx `ai-title`), as its /resume list shows it.
  if (typeof original.extra.aiTitle === 'string') lines.push({ raw: JSON.stringify({ type: 'ai-title', aiTitle: original.extra.aiTitle, sessionId }) });
  return { sessionId, lines };
}

const USAGE_FIELD = /"(input_tokens|output_tokens|cache_read_input_tokens|cache_creation_input_tokens)":\d+/g;
const SOURCE_TOOL = /"sourceToolAssistantUUID":"([^"]*)"/;

/**
 * Rewrites an unchanged record as text: new parentUuid/uuid/sessionId, usage zeroed. Re-parsing every
 * kept line would cost as much as reading the file again. Returns undefined when the line does not have
 * the shape Claude Code writes (then the caller parses it).
 */
function rewriteUnchanged(raw: string, id: string | undefined, oldSession: string, sessionId: string, parent: string | null, lastTs: string, uuidMap: Map<string, string>, ctx: WriteContext): { line: string; uuid: string; timestamp: string } | undefined {
  if (!id || !raw.startsWith('{"parentUuid":') || raw.includes('"logicalParentUuid"') || raw.includes('"isSidechain":true')) return undefined;
  const head = /^\{"parentUuid":(?:null|"[^"]*")/.exec(raw);
  const idAt = raw.indexOf(`"uuid":"${id}","timestamp":"`);
  if (!head || idAt < 0) return undefined;
  const tsStart = idAt + id.length + 23;
  const timestamp = raw.slice(tsStart, raw.indexOf('"', tsStart));
  if (timestamp < lastTs) return undefined;
  const uuid = ctx.newId();
  uuidMap.set(id, uuid);
  let line = `{"parentUuid":${JSON.stringify(parent)}${raw.slice(head[0].length, idAt)}"uuid":"${uuid}"${raw.slice(idAt + id.length + 9)}`;
  if (oldSession) line = line.split(`"sessionId":"${oldSession}"`).join(`"sessionId":"${sessionId}"`);
  line = line.replace(USAGE_FIELD, '"$1":0').replace(SOURCE_TOOL, (_m, old: string) => `"sourceToolAssistantUUID":"${uuidMap.get(old) ?? parent ?? ''}"`);
  return { line, uuid, timestamp };
}

function userRecord(template: Obj, text: string, ctx: WriteContext, timestamp: unknown): Obj {
  const keep = ['userType', 'entrypoint', 'cwd', 'version', 'gitBranch'];
  const o: Obj = { isSidechain: false, type: 'user', message: { role: 'user', content: text } };
  for (const k of keep) if (template[k] !== undefined) o[k] = template[k];
  o.uuid = ctx.newId();
  o.timestamp = typeof timestamp === 'string' ? timestamp : ctx.now().toISOString();
  return o;
}

/** Copies keep their message ids but not their usage: they were billed once, in the original. */
function zeroUsage(message: Obj): void {
  const u = message.usage as Obj | undefined;
  if (!u || typeof u !== 'object') return;
  // A new object: the message may share its usage with the session read in memory.
  const zeroed: Obj = { ...u };
  for (const k of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens']) if (typeof zeroed[k] === 'number') zeroed[k] = 0;
  message.usage = zeroed;
}

export function rebuildContent(o: Obj, was: readonly Block[], now: readonly Block[]): void {
  const msg = o.message as Obj | undefined;
  if (o.type === 'attachment' || !msg) return;
  const items: unknown[] = Array.isArray(msg.content) ? msg.content : [];
  msg.content = now.map((b) => {
    const unchanged = was.includes(b);
    if (unchanged && b.ref.index !== undefined && items[b.ref.index] !== undefined) return items[b.ref.index];
    return toApiBlock(b);
  });
}

function toApiBlock(b: Block): Obj {
  switch (b.type) {
    case 'text': return { type: 'text', text: b.text };
    case 'meta': return { type: 'text', text: b.text };
    case 'summary': return { type: 'text', text: b.text };
    case 'tool_call': return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
    case 'tool_result': return { type: 'tool_result', tool_use_id: b.id, content: b.text, ...(b.isError ? { is_error: true } : {}) };
    case 'reasoning': return { type: 'text', text: b.text };
    case 'media': return { type: 'text', text: `[${b.mime}]` };
  }
}
