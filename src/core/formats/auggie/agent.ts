// Auggie (Augment Code's CLI): ~/.augment/sessions/<id>.json. Read-only: Auggie continues a session through
// Augment's service with a login, so nothing we write could be proven to resume offline; compaction writes a handoff.
import type { AgentModule, HostEnv } from '../../agents/agent';
import { handoffFileName, handoffMarkdown } from '../../compact/handoff';
import { isStoredJson, storedJsonUnder } from '../../read/documentSession';
import { codeSpan } from '../../text/markdown';
import { parseAuggie } from './read';

const sessionsDir = (host: HostEnv): string => host.join(host.home, '.augment', 'sessions');

// SessionStore writes JSON.stringify(session, null, 2): sessionId first, then created.
const HEAD = /^\uFEFF?\s*\{\s*"sessionId"\s*:\s*"[^"\\]*"\s*,\s*"created"\s*:/;

export const auggie: AgentModule = {
  label: 'Auggie',
  shortName: 'auggie',
  icon: 'sparkle',
  reading: {
    kind: 'document',
    select: (path, fs) => (isStoredJson(path, fs, '.augment', HEAD) ? [path] : undefined),
    sessionsUnder: (root, fs) => storedJsonUnder(root, fs, HEAD),
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
