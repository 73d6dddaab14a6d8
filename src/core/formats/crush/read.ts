// Crush session → the model: the `sessions` row and its `messages` rows (parts JSON: text, reasoning, image_url,
// binary, tool_call, tool_result, finish, shell_command) from a project's .crush/crush.db. From the summary message
// the session names (sessions.summary_message_id, Crush's own compaction) on is what Crush sends. Crush keeps the last
// request's prompt/completion tokens on the session (overwritten each request) and the accumulated cost; no message
// holds its own usage.
import type { Block, Message, RawRecord, Session } from '../../model/transcript';
import { repairToolPairs } from '../../read/pairs';
import type { Row, SqliteDatabase } from '../../read/sqlite/database';
import { buildTurns } from '../../read/turns';
import { plausibleTokens } from '../../read/usageNumbers';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages } from '../../usage/title';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const json = (v: unknown): unknown => { try { return typeof v === 'string' ? JSON.parse(v) : undefined; } catch { return undefined; } };

/** Throws unless the database has Crush's sessions and messages tables. */
export function checkCrushDb(db: SqliteDatabase): void {
  if (!db.hasTable('sessions') || !db.hasTable('messages') || !db.columns('messages').includes('parts')) throw new Error('not a Crush database (no sessions and messages tables)');
}

/** Top-level sessions of a crush.db (not the sub-agents' sessions a task tool starts), newest first. */
export function crushSessions(db: SqliteDatabase): { id: string; updated: number }[] {
  checkCrushDb(db);
  return [...db.rows('sessions')].filter((r) => !r.parent_session_id).map((r) => ({ id: String(r.id), updated: Number(r.updated_at ?? 0) })).sort((a, b) => b.updated - a.updated || b.id.localeCompare(a.id));
}

function blockOf(part: Obj, record: number, index: number): Block | undefined {
  const d = isObj(part.data) ? part.data : {};
  const ref = { record, index };
  switch (part.type) {
    case 'text': { const text = str(d.text); return text ? { type: 'text', text, ref, tokens: estimateTokens(text) } : undefined; }
    case 'reasoning': {
      const text = str(d.thinking);
      const opaque = str(d.signature).length + str(d.thought_signature).length;
      return text || opaque ? { type: 'reasoning', text, opaqueBytes: opaque, ref, tokens: estimateTokens(text) + Math.ceil(opaque / 4) } : undefined;
    }
    case 'tool_call': {
      const raw = str(d.input);
      const input = json(raw) ?? raw;
      return { type: 'tool_call', id: str(d.id), name: str(d.name) || 'unknown', input, inputText: raw, ref, tokens: estimateTokens(raw) + 8 };
    }
    case 'tool_result': {
      const text = str(d.content);
      const media = str(d.data) ? 1 : 0;
      return { type: 'tool_result', id: str(d.tool_call_id), text, isError: d.is_error === true, mediaCount: media, persisted: false, ref, tokens: estimateTokens(text) + media * IMAGE_TOKENS };
    }
    case 'image_url': case 'binary': return { type: 'media', mime: str(d.mime_type) || 'image/*', bytes: Math.floor((str(d.data).length * 3) / 4), ref, tokens: IMAGE_TOKENS };
    case 'shell_command': {
      // A command the user ran with `!`: its output goes to the model as user text.
      const text = `$ ${str(d.command)}\n${str(d.output)}`;
      return { type: 'text', text, ref, tokens: estimateTokens(text) };
    }
    default: return undefined; // finish: how the reply ended, not sent
  }
}

/** Crush stored Unix seconds (milliseconds in its first builds). */
const isoOf = (v: unknown): string | undefined => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? new Date(n < 1e11 ? n * 1000 : n).toISOString() : undefined;
};

export function crushSession(db: SqliteDatabase, id: string, cwd: string | undefined, warnings: string[]): Session {
  const row = db.rowsWhere('sessions', 'id', id)[0];
  if (!row) throw new Error(`no session ${id} in the database`);
  const rows = db.rowsWhere('messages', 'session_id', id).sort((a, b) => Number(a.created_at) - Number(b.created_at) || a.rowid - b.rowid);
  const records: RawRecord[] = [{ kind: 'session', inContext: false }];
  const summaryId = str(row.summary_message_id);
  const from = Math.max(0, rows.findIndex((r) => summaryId !== '' && r.id === summaryId));
  const messages: Message[] = [];
  const models = new Set<string>();
  let bad = 0;
  rows.forEach((r: Row, i) => {
    const record = records.length;
    records.push({ kind: `message:${str(r.role)}`, inContext: false, id: str(r.id) });
    if (i < from) return;
    const parts = json(r.parts);
    if (!Array.isArray(parts)) { bad++; return; }
    const model = str(r.model);
    if (model) models.add(model);
    const summary = i === from && summaryId !== '';
    const blocks = parts.flatMap((p, index): Block[] => {
      const b = isObj(p) ? blockOf(p, record, index) : undefined;
      if (!b) return [];
      // Crush sends its summary message as the user's, in place of everything before it.
      return [summary && b.type === 'text' ? { type: 'summary', text: b.text, origin: b.text.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref: b.ref, tokens: b.tokens } : b];
    });
    if (blocks.length === 0) return;
    const role = r.role === 'assistant' && !summary ? 'assistant' : 'user';
    messages.push({ role, blocks, records: [record], timestamp: isoOf(r.created_at), ...(model && role === 'assistant' ? { model } : {}), toolResultsOnly: r.role === 'tool' && blocks.every((b) => b.type === 'tool_result') });
  });
  if (from > 0) warnings.push(`${from} message(s) before Crush's latest summary are not sent to the model and were left out`);
  if (bad) warnings.push(`${bad} message row(s) hold no parts array and were skipped`);
  const live = repairToolPairs(messages, warnings);
  for (const m of live) for (const r of m.records) records[r]!.inContext = true;
  const last = [...models].at(-1);
  const prompt = plausibleTokens(row.prompt_tokens);
  const title = str(row.title);
  return {
    format: 'crush', id, cwd, title: title && !/^(new session|untitled( session)?)$/i.test(title.trim()) ? title : titleFromMessages(live), models: [...models],
    records, messages: live, turns: buildTurns(live),
    // The session's prompt tokens are its last request's (input and cache reads), the context Crush shows.
    recordedContext: prompt ? prompt : undefined,
    contextWindow: last ? contextWindowOf(last.replace(/^[^/]+\//, '')) ?? contextWindowOf(last) : undefined,
    warnings, endsWithNewline: true, extra: { crush: { cost: typeof row.cost === 'number' ? row.cost : undefined } },
  };
}
