// Continue (the `cn` CLI, npm @continuedev/cli, and the IDE extensions): <CONTINUE_GLOBAL_DIR or ~/.continue>/sessions
// /<id>.json, continued by `cn --fork <id>`, which loads that file by id (historyManager.load) into a new session.
import { isSessionId, requireSessionId, type AgentModule } from '../../agents/agent';
import { continueSessionsDir, continueSessionsUnder, isContinueSession } from './paths';
import { parseContinue } from './read';
import { writeContinue } from './write';

export const continueCli: AgentModule = {
  label: 'Continue',
  shortName: 'continue',
  icon: 'debug-continue',
  reading: {
    kind: 'document',
    select: (path, fs) => (isContinueSession(path, fs) ? [path] : undefined),
    sessionsUnder: continueSessionsUnder,
    parse: parseContinue,
  },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeContinue(original, cleaned, ctx, insert) }),
  sessionIds: 'uuid-v4',
  fileName: (id) => `${id}.json`,
  resumeCommand: (id) => (isSessionId(id) ? `cn --fork ${id}` : undefined),
  roots: (host) => [continueSessionsDir(host)],
  storePath(host, id) {
    requireSessionId(id);
    return host.join(continueSessionsDir(host), `${id}.json`);
  },
  usage: { kind: 'from-session' },
};
