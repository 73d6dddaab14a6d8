// Factory Droid: sessions in ~/.factory/sessions/<workspace slug>/<uuid>.jsonl (older builds: ~/.factory/projects/…)
// with a <uuid>.settings.json sidecar; a compacted copy is a new JSONL beside them, continued by `droid --resume <id>`.
import { isRecordedCwd, isSessionId, requireSessionId, type AgentModule, type FsView, type HostEnv } from '../../agents/agent';
import { parseDroid } from './read';
import { droidUsageState } from './usage';
import { writeDroid } from './write';

/** Droid keeps everything in ~/.factory. */
export const factoryDir = (host: HostEnv): string => host.join(host.home, '.factory');

/** The workspace folder's name under sessions/: the cwd with every separator a dash (`/tmp/shop` → `-tmp-shop`). */
export const droidSlug = (cwd: string): string => cwd.replace(/[\\/:]/g, '-');

const FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;
const HEAD = /^\{"type":"session_start","id":"[0-9a-f-]{36}"/;

/**
 * A Droid session file: a UUID-named .jsonl in Droid's store (~/.factory/sessions/<slug>/) by name and place alone —
 * Claude Code names its sessions the same way, and the usage scan must not open every one of them — any other .jsonl
 * by its first line, Droid's session_start event, when the view can read (`head`).
 */
function isDroidFile(p: string, fs: FsView): boolean {
  if (!/\.jsonl$/i.test(p)) return false;
  const store = fs.dirname(fs.dirname(p));
  if (FILE.test(fs.basename(p)) && /^(sessions|projects)$/.test(fs.basename(store)) && fs.basename(fs.dirname(store)) === '.factory') return !fs.isFolder(p);
  return fs.head !== undefined && HEAD.test(fs.head(p));
}

export const droid: AgentModule = {
  label: 'Factory Droid',
  shortName: 'droid',
  icon: 'robot',
  reading: {
    kind: 'document',
    select(p, fs) {
      if (!isDroidFile(p, fs)) return undefined;
      const settings = p.replace(/\.jsonl$/i, '.settings.json');
      return fs.open(settings) ? [p, settings] : [p];
    },
    sessionsUnder(root, fs) {
      return fs.list(root).flatMap((slug) => fs.list(fs.join(root, slug)).filter((n) => FILE.test(n)).map((n) => fs.join(root, slug, n)));
    },
    parse(files, options) {
      const [jsonl, settings] = files;
      if (!jsonl) throw new Error('no files');
      return parseDroid(jsonl.text, settings?.text, options, []);
    },
  },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeDroid(original, cleaned, ctx, insert) }),
  sessionIds: 'uuid-v4',
  fileName: (id) => `${id}.jsonl`,
  resumeCommand: (id) => (isSessionId(id) ? `droid --resume ${id}` : undefined),
  roots: (host) => [host.join(factoryDir(host), 'sessions'), host.join(factoryDir(host), 'projects')],
  storePath(host, id, cwd, _at, original) {
    requireSessionId(id);
    const sessions = host.join(factoryDir(host), 'sessions');
    // A session compacted from Droid's store goes to the same workspace folder; else to the one its cwd names.
    const m = original === undefined ? undefined : /[\\/]\.factory[\\/](?:sessions|projects)[\\/]([^\\/]+)[\\/][^\\/]+$/.exec(original);
    const slug = m && m[1] !== '.' && m[1] !== '..' ? m[1] : undefined;
    if (slug !== undefined) return host.join(sessions, slug, `${id}.jsonl`);
    if (cwd === undefined) throw new Error('the Droid session does not name its working folder, so its store folder is unknown');
    if (!isRecordedCwd(cwd)) throw new Error(`the transcript's working folder is not an absolute path: ${JSON.stringify(cwd.slice(0, 120))}`);
    return host.join(sessions, droidSlug(cwd), `${id}.jsonl`);
  },
  usage: { kind: 'from-session', state: droidUsageState },
};
