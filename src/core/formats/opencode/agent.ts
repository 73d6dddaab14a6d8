// OpenCode: sessions in $XDG_DATA_HOME/opencode (~/.local/share/opencode on every OS): opencode.db (1.2 on) or the
// storage/ JSON tree (before), plus `opencode export` files; a compacted copy is export JSON for `opencode import`.
// Its forks (Kilo CLI) keep the same store under their own names: one module per fork from `opencodeFamily`.
import { andThen, quoteArg } from '../../text/shellQuote';
import type { AgentModule, DocumentFile, FsView, HostEnv } from '../../agents/agent';
import type { AgentId } from '../../model/ids';
import { SqliteDatabase } from '../../read/sqlite/database';
import { isOpencodeId, sessionIdFrom } from './ids';
import { toSession } from './read';
import { checkOpencodeDb, dbSessions, fromDb, fromExport, fromStorage } from './sources';
import { writeOpencode } from './write';
import { opencodeFromConversation } from './fromConversation';
import type { Conversation } from '../../convert/conversation';
import type { WriteContext } from '../../write/blockMap';

/** What tells an OpenCode fork from OpenCode: its names, its data folder's name and the variable that moves it. */
export interface OpencodeFlavor {
  readonly format: AgentId;
  readonly label: string;
  readonly shortName: string;
  readonly icon: string;
  /** The CLI's command and the name of its data folder and database (`kilo`: ~/.local/share/kilo/kilo.db). */
  readonly name: string;
  /** The environment variable that names the data folder outright (OPENCODE_DATA_DIR, as ccusage reads it). */
  readonly dataVar?: string;
  /**
   * How a fork's export JSON (and storage tree) is told from OpenCode's, which has the same shape: in a folder named
   * after the fork (its data folder, where its copies go), or by its session info's first bytes (Kilo: its agents).
   * Absent for OpenCode, which takes every other one.
   */
  readonly own?: { readonly infoMark: RegExp };
}

/** The data folder: $<dataVar>, else $XDG_DATA_HOME/<name>, else ~/.local/share/<name>. */
export function flavorData(flavor: Pick<OpencodeFlavor, 'name' | 'dataVar'>, host: HostEnv): string {
  return (flavor.dataVar && host.vars[flavor.dataVar]) || host.join(host.vars.XDG_DATA_HOME || host.join(host.home, '.local', 'share'), flavor.name);
}

/** OpenCode's data folder: $OPENCODE_DATA_DIR (as ccusage reads it), else $XDG_DATA_HOME/opencode, else ~/.local/share/opencode. */
export const opencodeData = (host: HostEnv): string => flavorData({ name: 'opencode', dataVar: 'OPENCODE_DATA_DIR' }, host);

/** Whether a path lies in a folder named `name` (a fork's data folder, wherever XDG puts it). */
const under = (p: string, name: string): boolean => p.split(/[\\/]/).slice(0, -1).includes(name);
const EXPORT_HEAD = /^\s*\{\s*"info"\s*:\s*\{\s*"id"\s*:\s*"ses_/;
const head = (fs: FsView, p: string, n = 512): string => {
  const f = fs.open(p);
  return f ? new TextDecoder().decode(f.read(0, n)) : '';
};

/** `<db>#<session id>` names one session of a database; the database alone, its newest session. */
export function splitDbPath(p: string): { db: string; id?: string } {
  const hash = p.lastIndexOf('#');
  return hash > 0 && /\.db$/i.test(p.slice(0, hash)) ? { db: p.slice(0, hash), id: p.slice(hash + 1) } : { db: p };
}

/** Where SQLite reads a database's write-ahead log: beside the real file, not beside a link's name. */
export function walOf(db: string, fs: FsView): string {
  return `${fs.realPath?.(db) ?? db}-wal`;
}

function openDb(files: readonly DocumentFile[]): SqliteDatabase {
  return SqliteDatabase.open(files[0]!.bytes, files[1]?.bytes);
}

function selectDb(p: string, fs: FsView, dbName: RegExp): string[] | undefined {
  const { db, id } = splitDbPath(p);
  if (!dbName.test(fs.basename(db)) || (id !== undefined && !isOpencodeId(id, 'ses'))) return undefined;
  if (!head(fs, db, 16).startsWith('SQLite format 3')) return undefined;
  const wal = walOf(db, fs);
  return fs.open(wal) ? [db, wal] : [db];
}

/** The files of a storage/ session: its info file, then its message files, then those messages' part files. */
function selectStorage(p: string, fs: FsView): string[] | undefined {
  const dir = fs.dirname(p);
  const sessionDir = fs.dirname(dir);
  const name = fs.basename(p);
  if (fs.basename(sessionDir) !== 'session' || !/^ses_[0-9A-Za-z]+\.json$/.test(name) || !head(fs, p, 1).startsWith('{')) return undefined;
  const storage = fs.dirname(sessionDir);
  const msgDir = fs.join(storage, 'message', name.slice(0, -5));
  const messages = fs.list(msgDir).filter((f) => f.endsWith('.json'));
  const parts = messages.flatMap((m) => { const d = fs.join(storage, 'part', m.slice(0, -5)); return fs.list(d).filter((f) => f.endsWith('.json')).map((f) => fs.join(d, f)); });
  return [p, ...messages.map((m) => fs.join(msgDir, m)), ...parts];
}

/** The module of OpenCode or one of its forks. */
export function opencodeFamily(flavor: OpencodeFlavor, forks: readonly OpencodeFlavor[] = []): AgentModule {
  const dbName = new RegExp(`^${flavor.name}.*\\.db$`, 'i');
  const data = (host: HostEnv): string => flavorData(flavor, host);
  const forkOf = (f: OpencodeFlavor, p: string, fs: FsView): boolean => under(p, f.name) || (f.own !== undefined && f.own.infoMark.test(head(fs, p)));
  const owns = (p: string, fs: FsView): boolean => (flavor.own ? forkOf(flavor, p, fs) : !forks.some((f) => forkOf(f, p, fs)));
  return {
  label: flavor.label,
  shortName: flavor.shortName,
  icon: flavor.icon,
  reading: {
    kind: 'document',
    select(p, fs) {
      if (splitDbPath(p).id !== undefined || /\.db$/i.test(p)) return selectDb(p, fs, dbName);
      // OpenCode writes no JSONL: every other agent's transcript passes here, and sniffing its head is a file read.
      if (fs.isFolder(p) || p.endsWith('.jsonl')) return undefined;
      const files = selectStorage(p, fs) ?? (EXPORT_HEAD.test(head(fs, p)) ? [p] : undefined);
      return files && owns(p, fs) ? files : undefined;
    },
    sessionsUnder(root, fs) {
      const out: string[] = [];
      const inDb = new Set<string>();
      for (const name of fs.list(root).filter((n) => dbName.test(n))) {
        const db = fs.join(root, name);
        const bytes = fs.open(db);
        if (!bytes) continue;
        try {
          for (const s of dbSessions(SqliteDatabase.open(bytes, fs.open(walOf(db, fs))))) { inDb.add(s.id); out.push(`${db}#${s.id}`); }
        } catch { /* not an OpenCode database: its sessions are not listed */ }
      }
      // The JSON tree of older versions; sessions the database imported from it are listed once, from the database.
      const sessions = fs.join(root, 'storage', 'session');
      for (const project of fs.list(sessions)) {
        for (const f of fs.list(fs.join(sessions, project))) if (/^ses_.*\.json$/.test(f) && !inDb.has(f.slice(0, -5))) out.push(fs.join(sessions, project, f));
      }
      return out;
    },
    parse(files, options) {
      const warnings: string[] = [];
      const first = files[0];
      if (!first) throw new Error('no files');
      let oc;
      if (/\.db$/i.test(first.path)) {
        const db = openDb(files);
        const wanted = splitDbPath(options.path ?? '').id;
        // A named session through the indexes: listing every session for each one read is n² over a store.
        if (wanted) checkOpencodeDb(db);
        const all = wanted ? [] : dbSessions(db);
        const id = wanted ?? all[0]?.id;
        if (!id) throw new Error('the database holds no session');
        if (!wanted && all.length > 1) warnings.push(`the database holds ${all.length} sessions; this is the newest, ${id} (name another as <database>#<session id>)`);
        oc = fromDb(db, id, warnings);
        warnings.push(...db.warnings);
      } else if (files.length > 1 || /[\\/]session[\\/][^\\/]+[\\/]ses_[^\\/]+\.json$/.test(first.path)) {
        oc = fromStorage(files, warnings);
      } else {
        oc = fromExport(first.text);
      }
      return toSession(oc, options, warnings, flavor.format);
    },
  },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeOpencode(original, cleaned, ctx, insert) }),
  // A target of `compact --to` for OpenCode only: Kilo's model config is not read and no real Kilo resumed a conversion.
  ...(flavor.format === 'opencode' ? { fromConversation: (conversation: Conversation, ctx: WriteContext) => ({ kind: 'lines' as const, ...opencodeFromConversation(conversation, ctx) }) } : {}),
  sessionIds: { fromUuidV7: sessionIdFrom },
  fileName: (id) => `${id}.json`,
  resumeCommand: (id, written, shell = 'sh') => {
    if (!isOpencodeId(id, 'ses')) return undefined;
    // A copy we wrote is export JSON: OpenCode lists and continues it once imported (in the project folder).
    if (!written) return `${flavor.name} --session ${id}`;
    const file = quoteArg(written, shell);
    return file === undefined ? undefined : andThen(`${flavor.name} import ${file}`, `${flavor.name} --session ${id}`, shell);
  },
  roots: (host) => [data(host)],
  // OpenCode keeps sessions in its database; a copy goes beside it as export JSON, to be imported from there.
  storePath(host, id) {
    if (!isOpencodeId(id, 'ses')) throw new Error(`not ${flavor.label === 'OpenCode' ? 'an' : 'a'} ${flavor.label} session id: ${JSON.stringify(id.slice(0, 80))}`);
    return host.join(data(host), 'compacted', `${id}.json`);
  },
  usage: { kind: 'from-session' },
  };
}

/** Kilo CLI (its module is formats/kilo): named here so OpenCode leaves Kilo's exports and copies to it. */
export const KILO: OpencodeFlavor = {
  format: 'kilo', label: 'Kilo CLI', shortName: 'kilo', icon: 'zap', name: 'kilo',
  // Kilo's agents (its modes); OpenCode's are build and plan.
  own: { infoMark: /"agent"\s*:\s*"(?:code|architect|ask|debug|orchestrator)"/ },
};

export const opencode = opencodeFamily({ format: 'opencode', label: 'OpenCode', shortName: 'opencode', icon: 'code', name: 'opencode', dataVar: 'OPENCODE_DATA_DIR' }, [KILO]);
