// Goose: sessions in <data>/sessions (sessions.db from late 2025, <id>.jsonl before; <data> is $GOOSE_PATH_ROOT/data,
// else $XDG_DATA_HOME/goose or ~/.local/share/goose, %APPDATA%\Block\goose\data on Windows); a compacted copy is the
// JSON `goose session import` reads.
import type { AgentModule, FsView, HostEnv } from '../../agents/agent';
import { SqliteDatabase } from '../../read/sqlite/database';
import { splitDbPath, walOf } from '../opencode/agent';
import { andThen, quoteArg } from '../../text/shellQuote';
import { toSession } from './read';
import { gooseUsageState } from './usage';
import { checkGooseDb, dbSessions, fromDb, fromExport, fromJsonl } from './sources';
import { gooseSessionId, writeGoose } from './write';
import { gooseFromConversation } from './fromConversation';

export function gooseSessionsDir(host: HostEnv): string {
  const root = host.vars.GOOSE_PATH_ROOT;
  if (root && (root.startsWith('/') || /^[A-Za-z]:[\\/]/.test(root))) return host.join(root, 'data', 'sessions');
  if (host.platform === 'win32') return host.join(host.vars.APPDATA || host.join(host.home, 'AppData', 'Roaming'), 'Block', 'goose', 'data', 'sessions');
  return host.join(host.vars.XDG_DATA_HOME || host.join(host.home, '.local', 'share'), 'goose', 'sessions');
}

const head = (fs: FsView, p: string, n: number): string => {
  const f = fs.open(p);
  return f ? new TextDecoder().decode(f.read(0, n)) : '';
};
/** Line 1 of a legacy session: the metadata Goose writes first, or a message when it wrote none. */
const JSONL_HEAD = /^\{"(working_dir|description)":|^\{("id":("[^"\\]*"|null),)?"role":"(user|assistant)","created":\d+,"content":\[/;
const EXPORT_HEAD = /"working_dir"\s*:[^]*"(session_type|message_count|extension_data|conversation)"\s*:/;
const isExport = (h: string): boolean => /^\s*\{/.test(h) && !/^\s*\{\s*"info"/.test(h) && !JSONL_HEAD.test(h) && EXPORT_HEAD.test(h);
// Never starting with '-': the id is an argument of `goose session --session-id`.
const SESSION_ID = /^\w[\w.-]{0,127}$/;

function selectDb(p: string, fs: FsView): string[] | undefined {
  const { db, id } = splitDbPath(p);
  if (fs.basename(db) !== 'sessions.db' || (id !== undefined && !SESSION_ID.test(id))) return undefined;
  if (!head(fs, db, 16).startsWith('SQLite format 3')) return undefined;
  const wal = walOf(db, fs);
  return fs.open(wal) ? [db, wal] : [db];
}

export const goose: AgentModule = {
  label: 'Goose',
  shortName: 'goose',
  icon: 'rocket',
  reading: {
    kind: 'document',
    select(p, fs) {
      if (/\.db(#.*)?$/i.test(p)) return selectDb(p, fs);
      if (fs.isFolder(p)) return undefined;
      const h = head(fs, p, 4096);
      if (p.endsWith('.jsonl') && JSONL_HEAD.test(h)) return [p];
      // An export (or our `--to goose` copy, one line) saved under a .jsonl name is still the JSON `goose session import` reads.
      return isExport(h) ? [p] : undefined;
    },
    sessionsUnder(root, fs) {
      const out: string[] = [];
      const inDb = new Set<string>();
      const db = fs.join(root, 'sessions.db');
      const bytes = fs.open(db);
      if (bytes) {
        try {
          for (const s of dbSessions(SqliteDatabase.open(bytes, fs.open(walOf(db, fs))))) { inDb.add(s.id); out.push(`${db}#${s.id}`); }
        } catch { /* not a Goose database */ }
      }
      // Legacy files the database imported are listed once, from the database.
      for (const f of fs.list(root)) if (f.endsWith('.jsonl') && !inDb.has(f.slice(0, -6)) && JSONL_HEAD.test(head(fs, fs.join(root, f), 512))) out.push(fs.join(root, f));
      return out;
    },
    parse(files, options) {
      const warnings: string[] = [];
      const first = files[0];
      if (!first) throw new Error('no files');
      let g;
      if (/\.db$/i.test(first.path)) {
        const db = SqliteDatabase.open(first.bytes, files[1]?.bytes);
        const wanted = splitDbPath(options.path ?? '').id;
        // A named session is looked up through the indexes: listing every session for each one read made reading
        // a store's n sessions n² work (a 1,000-session store: 25 s of `usage`).
        if (wanted) checkGooseDb(db);
        const all = wanted ? [] : dbSessions(db);
        const id = wanted ?? all[0]?.id;
        if (!id) throw new Error('the database holds no session');
        if (!wanted && all.length > 1) warnings.push(`the database holds ${all.length} sessions; this is the newest, ${id} (name another as <database>#<session id>)`);
        g = fromDb(db, id, warnings);
        warnings.push(...db.warnings);
      } else if (first.path.endsWith('.jsonl') && !isExport(first.text.slice(0, 4096))) {
        g = fromJsonl(first.text, first.path.replace(/^.*[\\/]/, '').replace(/\.jsonl$/, ''), warnings);
      } else {
        g = fromExport(first.text);
      }
      return toSession(g, options, warnings);
    },
  },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeGoose(original, cleaned, ctx, insert) }),
  fromConversation: (conversation, ctx) => ({ kind: 'lines', ...gooseFromConversation(conversation, ctx) }),
  sessionIds: { fromUuidV7: (uuid) => gooseSessionId(uuid, new Date(parseInt(uuid.replace(/-/g, '').slice(0, 12), 16) || 0)) },
  fileName: (id) => `goose-${id}.json`,
  resumeCommand: (id, written, shell = 'sh') => {
    if (!SESSION_ID.test(id)) return undefined;
    // Goose gives an imported session an id of its own and prints it; `--resume` then picks it from the list.
    if (!written) return `goose session --resume --session-id ${id}`;
    const file = quoteArg(written, shell);
    return file === undefined ? undefined : andThen(`goose session import ${file}`, 'goose session --resume', shell);
  },
  roots: (host) => [gooseSessionsDir(host)],
  storePath(host, id) {
    if (!SESSION_ID.test(id)) throw new Error(`not a Goose session id: ${JSON.stringify(id.slice(0, 80))}`);
    return host.join(gooseSessionsDir(host), 'compacted', `goose-${id}.json`);
  },
  usage: { kind: 'from-session', state: gooseUsageState },
};
