// Crush (charmbracelet/crush): each project's sessions in <project>/.crush/crush.db (SQLite), the projects listed in
// <data>/projects.json (<data>: $CRUSH_GLOBAL_DATA, else $XDG_DATA_HOME/crush, else ~/.local/share/crush,
// %LOCALAPPDATA%\crush on Windows). Crush continues sessions from its database only, which we do not write: a
// compacted session is a Markdown handoff for a new session.
import type { AgentModule, FsView, HostEnv } from '../../agents/agent';
import { handoffMarkdown } from '../../compact/handoff';
import { SqliteDatabase } from '../../read/sqlite/database';
import { codeSpan } from '../../text/markdown';
import { splitDbPath, walOf } from '../opencode/agent';
import { checkCrushDb, crushSession, crushSessions } from './read';

/** Crush's global data folder, where projects.json lists every project's data folder. */
export function crushData(host: HostEnv): string {
  if (host.vars.CRUSH_GLOBAL_DATA) return host.vars.CRUSH_GLOBAL_DATA;
  if (host.vars.XDG_DATA_HOME) return host.join(host.vars.XDG_DATA_HOME, 'crush');
  if (host.platform === 'win32') return host.join(host.vars.LOCALAPPDATA || host.join(host.home, 'AppData', 'Local'), 'crush');
  return host.join(host.home, '.local', 'share', 'crush');
}

// Crush names sessions by UUID; never starting with '-' (it is a command argument).
const SESSION_ID = /^\w[\w-]{0,127}$/;

const head = (fs: FsView, p: string): string => { const f = fs.open(p); return f ? new TextDecoder().decode(f.read(0, 16)) : ''; };

function selectDb(p: string, fs: FsView): string[] | undefined {
  const { db, id } = splitDbPath(p);
  if (fs.basename(db) !== 'crush.db' || (id !== undefined && !SESSION_ID.test(id))) return undefined;
  if (!head(fs, db).startsWith('SQLite format 3')) return undefined;
  const wal = walOf(db, fs);
  return fs.open(wal) ? [db, wal] : [db];
}

/**
 * The crush.db files projects.json lists (each project's `data_dir`), one kept in the folder itself, and a project's
 * own (`<folder>/.crush/crush.db`, for a workspace folder walked as a root).
 */
function databasesUnder(root: string, fs: FsView): string[] {
  const out = [fs.join(root, 'crush.db'), fs.join(root, '.crush', 'crush.db')];
  const index = fs.open(fs.join(root, 'projects.json'));
  if (index && index.size < 16 << 20) {
    try {
      const v: unknown = JSON.parse(new TextDecoder().decode(index.read(0, index.size)));
      const projects = typeof v === 'object' && v !== null && Array.isArray((v as { projects?: unknown }).projects) ? (v as { projects: unknown[] }).projects : [];
      for (const p of projects) {
        const dir = typeof p === 'object' && p !== null ? (p as { data_dir?: unknown }).data_dir : undefined;
        if (typeof dir === 'string' && dir) out.push(fs.join(dir, 'crush.db'));
      }
    } catch { /* an unreadable index lists nothing */ }
  }
  return [...new Set(out)];
}

export const crush: AgentModule = {
  label: 'Crush',
  shortName: 'crush',
  icon: 'heart',
  reading: {
    kind: 'document',
    select: (p, fs) => (/\.db(#.*)?$/i.test(p) ? selectDb(p, fs) : undefined),
    sessionsUnder(root, fs) {
      const out: string[] = [];
      for (const db of databasesUnder(root, fs)) {
        const bytes = fs.open(db);
        if (!bytes) continue;
        try {
          for (const s of crushSessions(SqliteDatabase.open(bytes, fs.open(walOf(db, fs))))) out.push(`${db}#${s.id}`);
        } catch { /* not a Crush database */ }
      }
      return out;
    },
    parse(files, options) {
      const warnings: string[] = [];
      const first = files[0];
      if (!first) throw new Error('no files');
      const db = SqliteDatabase.open(first.bytes, files[1]?.bytes);
      checkCrushDb(db);
      const wanted = splitDbPath(options.path ?? '').id;
      const all = wanted ? [] : crushSessions(db);
      const id = wanted ?? all[0]?.id;
      if (!id) throw new Error('the database holds no session');
      if (!wanted && all.length > 1) warnings.push(`the database holds ${all.length} sessions; this is the newest, ${id} (name another as <database>#<session id>)`);
      // <project>/.crush/crush.db: the project is the folder that holds .crush.
      const folder = first.path.replace(/[\\/][^\\/]+$/, '');
      const cwd = /[\\/]\.crush$/.test(folder) ? folder.replace(/[\\/]\.crush$/, '') : undefined;
      const session = crushSession(db, id, cwd, warnings);
      warnings.push(...db.warnings);
      return session;
    },
  },
  write: (_original, cleaned, ctx) => ({
    kind: 'handoff', sessionId: ctx.newId(),
    markdown: handoffMarkdown(cleaned, 'Crush', { howToStart: `${codeSpan('crush')} in the same project folder` }),
  }),
  sessionIds: 'uuid-v4',
  fileName: (id, at) => `crush-handoff-${at.toISOString().slice(0, 19).replace(/:/g, '-')}-${id.slice(0, 8)}.md`,
  // Crush continues sessions from its database only: a handoff is pasted into a new session.
  resumeCommand: () => undefined,
  handoff: true,
  roots: (host) => [crushData(host)],
  storePath() {
    throw new Error('Crush continues sessions from its own database only: paste the handoff into a new Crush session');
  },
  usage: { kind: 'from-session' },
};
