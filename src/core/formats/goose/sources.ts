// Goose sessions from where they are kept: legacy JSONL (a metadata line, then one Message a line), sessions.db
// (SQLite: sessions and messages tables), and `goose session export --format json` (a Session with its conversation).
import { jsonErrorText } from '../../read/jsonError';
import type { SqliteDatabase } from '../../read/sqlite/database';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The session's metadata (snake_case, as Goose writes it) and its messages (camelCase Message objects). */
export interface GooseSession { readonly meta: Obj; readonly messages: Obj[]; readonly origin: 'jsonl' | 'db' | 'export'; readonly id: string }

const isMessage = (v: Obj): boolean => typeof v.role === 'string' && Array.isArray(v.content);

/** A legacy session file: line 1 is metadata unless it parses as a message (Goose reads it the same way). */
export function fromJsonl(text: string, id: string, warnings: string[]): GooseSession {
  let meta: Obj = {};
  const messages: Obj[] = [];
  let bad = 0;
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let v: unknown;
    try { v = JSON.parse(line); } catch { bad++; return; }
    if (!isObj(v)) { bad++; return; }
    if (i === 0 && !isMessage(v)) meta = v;
    else if (isMessage(v)) messages.push(v);
    else bad++;
  });
  if (bad) warnings.push(`${bad} line(s) are not Goose messages and were skipped`);
  return { meta, messages, origin: 'jsonl', id };
}

/** `goose session export --format json` (or a file in that shape: what `goose session import` reads). */
export function fromExport(text: string): GooseSession {
  let v: unknown;
  try { v = JSON.parse(text); } catch (e) { throw new Error(jsonErrorText(e)); }
  if (!isObj(v) || typeof v.working_dir !== 'string') throw new Error('not a Goose session (no working_dir)');
  const conv = Array.isArray(v.conversation) ? v.conversation : isObj(v.conversation) && Array.isArray(v.conversation.messages) ? v.conversation.messages : [];
  const { conversation: _c, ...meta } = v;
  return { meta, messages: conv.filter(isObj).filter(isMessage), origin: 'export', id: typeof v.id === 'string' ? v.id : '' };
}

const json = (v: unknown): unknown => {
  if (typeof v !== 'string') return undefined;
  try { return JSON.parse(v); } catch { return undefined; }
};

/** Throws unless the database has Goose's sessions and messages tables. */
export function checkGooseDb(db: SqliteDatabase): void {
  if (!db.hasTable('sessions') || !db.hasTable('messages') || !db.columns('messages').includes('content_json')) throw new Error('not a Goose database (no sessions and messages tables)');
}

/** Sessions of a sessions.db, newest first. */
export function dbSessions(db: SqliteDatabase): { id: string; updated: string }[] {
  checkGooseDb(db);
  return [...db.rows('sessions')].map((r) => ({ id: String(r.id), updated: String(r.updated_at ?? '') })).sort((a, b) => b.updated.localeCompare(a.updated) || b.id.localeCompare(a.id));
}

/** One session of a sessions.db: its row as metadata and its messages in insertion order. */
export function fromDb(db: SqliteDatabase, id: string, warnings: string[]): GooseSession {
  const row = db.rowsWhere('sessions', 'id', id)[0];
  if (!row) throw new Error(`no session ${id} in the database`);
  const meta: Obj = {};
  // Named as in Goose's export: `model_config_json` → `model_config`, `recipe_json` → `recipe`.
  for (const [k, v] of Object.entries(row)) if (k !== 'rowid' && v !== null) meta[k.replace(/_json$/, '')] = k.endsWith('_json') || k === 'extension_data' ? (json(v) ?? v) : v;
  let bad = 0;
  const messages = db.rowsWhere('messages', 'session_id', id).sort((a, b) => a.rowid - b.rowid).flatMap((r): Obj[] => {
    const content = json(r.content_json);
    if (!Array.isArray(content)) { bad++; return []; }
    const m: Obj = { role: r.role, created: r.created_timestamp, content };
    if (typeof r.message_id === 'string') m.id = r.message_id;
    const metadata = json(r.metadata_json);
    if (isObj(metadata)) m.metadata = metadata;
    return [m];
  });
  if (bad) warnings.push(`${bad} message row(s) hold no content array and were skipped`);
  return { meta, messages, origin: 'db', id };
}
