// Auggie (Augment Code's CLI): ~/.augment/sessions/<id>.json. Read-only: Auggie continues a session through
// Augment's service with a login, so nothing we write could be proven to resume offline; compaction writes a handoff.
import type { AgentModule, FsView, HostEnv } from '../../agents/agent';
import { handoffFileName, handoffMarkdown } from '../../compact/handoff';
import { codeSpan } from '../../text/markdown';
import { parseAuggie } from './read';

const sessionsDir = (host: HostEnv): string => host.join(host.home, '.augment', 'sessions');

// SessionStore writes JSON.stringify(session, null, 2): sessionId first, then created.
const HEAD = /^\uFEFF?\s*\{\s*"sessionId"\s*:\s*"[^"\\]*"\s*,\s*"created"\s*:/;

function isAuggieSession(file: string, fs: FsView): boolean {
  if (!fs.basename(file).endsWith('.json')) return false;
  const dir = fs.dirname(file);
  const placed = fs.basename(dir) === 'sessions' && fs.basename(fs.dirname(dir)) === '.augment';
  if (!placed && !fs.head) return false;
  if (fs.isFolder(file)) return false;
  const head = fs.head?.(file);
  return head === undefined ? placed : HEAD.test(head);
}

export const auggie: AgentModule = {
  label: 'Auggie',
  shortName: 'auggie',
  icon: 'sparkle',
  reading: {
    kind: 'document',
    select: (path, fs) => (isAuggieSession(path, fs) ? [path] : undefined),
    sessionsUnder: (root, fs) => {
      const dir = fs.basename(root) === 'sessions' ? root : fs.join(root, 'sessions');
      return fs.list(dir).filter((n) => n.endsWith('.json')).map((n) => fs.join(dir, n));
    },
    parse: parseAuggie,
  },
  write: (_original, cleaned, ctx) => ({
    kind: 'handoff', sessionId: ctx.newId(),
    markdown: handoffMarkdown(cleaned, 'Auggie', { howToStart: `${codeSpan('auggie')} in the project folder` }),
  }),
  sessionIds: 'uuid-v4',
  fileName: (id, at) => handoffFileName('auggie', id, at),
  resumeCommand: () => undefined,
  handoff: true,
  roots: (host) => [sessionsDir(host)],
  storePath() {
    throw new Error('Auggie cannot load a session written by another program: paste the handoff into a new chat');
  },
  usage: { kind: 'from-session' },
};
