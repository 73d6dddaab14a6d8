// GitHub Copilot CLI: $COPILOT_HOME (default ~/.copilot)/session-state/<id>/events.jsonl, resumed by
// `copilot --resume=<id>` (flat session-state/<id>.jsonl logs of versions before 1.0.11 are read, not resumed). A
// compacted session is a new session folder beside the original.
import { isSessionId, requireSessionId, type AgentModule, type HostEnv } from '../../agents/agent';
import { copilotLogOf, copilotSessionsUnder } from './detect';
import { parseCopilotCli } from './read';
import { writeCopilotCli } from './write';

export const copilotHome = (host: HostEnv): string => host.vars.COPILOT_HOME || host.join(host.home, '.copilot');

export const copilotCli: AgentModule = {
  label: 'GitHub Copilot CLI',
  shortName: 'copilot-cli',
  icon: 'terminal',
  reading: {
    kind: 'document',
    folders: true,
    select: (path, fs) => { const log = copilotLogOf(path, fs); return log ? [log] : undefined; },
    sessionsUnder: copilotSessionsUnder,
    parse: parseCopilotCli,
  },
  write: (original, cleaned, ctx, insert) => {
    const w = writeCopilotCli(original, cleaned, ctx, insert);
    return { kind: 'files', sessionId: w.sessionId, files: [{ path: 'events.jsonl', text: w.text }] };
  },
  sessionIds: 'uuid-v4',
  fileName: (id) => id,
  resumeCommand: (id) => (isSessionId(id) ? `copilot --resume=${id}` : undefined),
  roots: (host) => [host.join(copilotHome(host), 'session-state')],
  storePath(host, id) {
    requireSessionId(id);
    return host.join(copilotHome(host), 'session-state', id);
  },
  usage: { kind: 'from-session' },
};
