// OpenCode sessions from each place they are kept: `opencode export` JSON, the storage/ tree of JSON files (before
// 1.2), and the opencode.db SQLite store (1.2 on). All become one shape: the session info and its messages with
// their parts, as `opencode export` writes them.
import { jsonErrorText } from '../../read/jsonError';
import type { DocumentFile } from '../../agents/agent';
import { SqliteDatabase, type Row } from '../../read/sqlite/database';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface OcMessage { readonly info: Obj; readonly parts: Obj[] }
export interface OcSession { readonly info: Obj; readonly messages: OcMessage[]; readonly origin: 'export' | 'storage' | 'db' }

/** What `opencode export` wrote (or a file in its shape). */
export function fromExport(text: string): OcSession {
  let v: unknown;
  try { v = JSON.parse(text); } catch (e) { throw new Error(jsonErrorText(e)); }
  if (!isObj(v) || !isObj(v.info) || !Array.isArray(v.messages)) throw new Error('not an OpenCode export (no info and messages)');
  const messages = v.messages.flatMap((m): OcMessage[] => (isObj(m) && isObj(m.info) ? [{ info: m.info, parts: Array.isArray(m.parts) ? m.parts.filter(isObj) : [] }] : []));
  return { info: v.info, messages, origin: 'export' };
}

const segments = (p: string): string[] => p.split(/[\\/]/);

/** The storage/ tree: the session file first, then `message/<session>/*.json` and `part/<message>/*.json` files. */
export function fromStorage(files: readonly DocumentFile[], warnings: string[]): OcSession {
  const [first, ...rest] = files;
  const info = first ? parseObj(first, warnings) : undefined;
  if (!info) throw new Error('the session file is not a JSON object');
  const messages = new Map<string, OcMessage>();
  const parts: Obj[] = [];
  for (const f of rest) {
    const kind = segments(f.path).at(-3);
    const v = parseObj(f, warnings);
    if (!v) continue;
    if (kind === 'message' && typeof v.id === 'string') messages.set(v.id, { info: v, parts: [] });
    else if (kind === 'part') parts.push(v);
  }
  for (const p of parts) messages.get(String(p.messageID))?.parts.push(p);
  const byId = (a: Obj, b: Obj): number => String(a.id).localeCompare(String(b.id));
  for (const m of messages.values()) m.parts.sort(byId);
  return { info, messages: [...messages.values()].sort((a, b) => byTime(a.info, b.info) || byId(a.info, b.info)), origin: 'storage' };
}

function parseObj(f: DocumentFile, warnings: string[]): Obj | undefined {
  try {
    const v: unknown = JSON.parse(f.text);
    if (isObj(v)) return v;
  } catch { /* reported below */ }
  warnings.push(`${segments(f.path).slice(-2).join('/')} is not a JSON object; skipped`);
  return undefined;
}

const created = (info: Obj): number => (isObj(info.time) && typeof info.time.created === 'number' ? info.time.created : 0);
const byTime = (a: Obj, b: Obj): number => created(a) - created(b);

const json = (v: unknown): unknown => {
  if (typeof v !== 'string') return undefined;
  try { return JSON.parse(v); } catch { return undefined; }
};
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The session table's row as the session info `opencode export` writes (columns the row lacks are left out). */
function sessionInfo(r: Row): Obj {
  const info: Obj = {
    id: r.id, slug: r.slug, projectID: r.project_id, workspaceID: str(r.workspace_id), directory: r.directory, path: str(r.path),
    parentID: str(r.parent_id), title: r.title, version: r.version, agent: str(r.agent), model: json(r.model),
    summary: r.summary_additions === undefined ? undefined : { additions: num(r.summary_additions), deletions: num(r.summary_deletions), files: num(r.summary_files), diffs: json(r.summary_diffs) },
    share: str(r.share_url) ? { url: r.share_url } : undefined,
    cost: num(r.cost),
    tokens: { input: num(r.tokens_input), output: num(r.tokens_output), reasoning: num(r.tokens_reasoning), cache: { read: num(r.tokens_cache_read), write: num(r.tokens_cache_write) } },
    revert: json(r.revert), permission: json(r.permission), metadata: json(r.metadata),
    time: { created: num(r.time_created), updated: num(r.time_updated), compacting: r.time_compacting ?? undefined, archived: r.time_archived ?? undefined },
  };
  for (const k of Object.keys(info)) if (info[k] === undefined || info[k] === null) delete info[k];
  return info;
}

/** Throws unless the database has OpenCode's session table. */
export function checkOpencodeDb(db: SqliteDatabase): void {
  if (!db.hasTable('session')) throw new Error('not an OpenCode database (no session table)');
}

/** Sessions in an opencode.db, newest first. */
export function dbSessions(db: SqliteDatabase): { id: string; updated: number }[] {
  checkOpencodeDb(db);
  return [...db.rows('session')].map((r) => ({ id: String(r.id), updated: num(r.time_updated) })).sort((a, b) => b.updated - a.updated || b.id.localeCompare(a.id));
}

/** One session of an opencode.db with its messages (by time, then id) and their parts (by id). */
export function fromDb(db: SqliteDatabase, id: string, warnings: string[]): OcSession {
  const row = db.rowsWhere('session', 'id', id)[0];
  if (!row) throw new Error(`no session ${id} in the database`);
  let bad = 0;
  const data = (r: Row): Obj | undefined => { const v = json(r.data); if (isObj(v)) return v; bad++; return undefined; };
  const messages = new Map<string, OcMessage & { at: number }>();
  for (const r of db.rowsWhere('message', 'session_id', id)) {
    const d = data(r);
    if (d) messages.set(String(r.id), { info: { ...d, id: r.id, sessionID: r.session_id }, parts: [], at: num(r.time_created) });
  }
  for (const r of db.rowsWhere('part', 'session_id', id).sort((a, b) => String(a.id).localeCompare(String(b.id)))) {
    const d = data(r);
    if (d) messages.get(String(r.message_id))?.parts.push({ ...d, id: r.id, sessionID: r.session_id, messageID: r.message_id });
  }
  if (bad) warnings.push(`${bad} message or part row(s) hold no JSON object and were skipped`);
  const ordered = [...messages.values()].sort((a, b) => a.at - b.at || String(a.info.id).localeCompare(String(b.info.id)));
  return { info: sessionInfo(row), messages: ordered.map(({ info, parts }) => ({ info, parts })), origin: 'db' };
}
