// GitHub Copilot CLI: $COPILOT_HOME (default ~/.copilot)/session-state/<id>/events.jsonl (before 1.0.11
// session-state/<id>.jsonl), resumed by `copilot --resume=<id>`. Its replies may carry encrypted reasoning that only
// the service can read and its resume state lives beside the log (workspace.yaml, session.db, checkpoints), so
// compaction writes a Markdown handoff for a new session rather than a log it would have to trust.
import { pad2, type AgentModule, type HostEnv } from '../../agents/agent';
import { handoffMarkdown } from '../../compact/handoff';
import { codeSpan } from '../../text/markdown';
import { copilotCliClaims, detectCopilotCli } from './detect';
import { createCopilotCliParser } from './read';
import { applyCopilotEvent, copilotByModel, copilotSteadyMarkers, copilotWants } from './usage';

export const copilotHome = (host: HostEnv): string => host.vars.COPILOT_HOME || host.join(host.home, '.copilot');

export const copilotCli: AgentModule = {
  label: 'GitHub Copilot CLI',
  shortName: 'copilot-cli',
  icon: 'terminal',
  reading: { kind: 'lines', detect: detectCopilotCli, createParser: createCopilotCliParser },
  write: (_original, cleaned, ctx) => ({
    kind: 'handoff', sessionId: ctx.newId(),
    markdown: handoffMarkdown(cleaned, 'GitHub Copilot CLI', {
      howToStart: `${codeSpan('copilot')} in the same folder`,
      // The new session sends its own system prompt: the old one is left out.
      harness: (b) => (b.subtype === 'system-prompt' ? undefined : b.text),
    }),
  }),
  sessionIds: 'uuid-v4',
  fileName: (id, at) => `copilot-cli-handoff-${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())}T${pad2(at.getHours())}-${pad2(at.getMinutes())}-${pad2(at.getSeconds())}-${id.slice(0, 8)}.md`,
  resumeCommand: () => undefined,
  handoff: true,
  roots: (host) => [host.join(copilotHome(host), 'session-state')],
  storePath() {
    throw new Error('Copilot CLI resumes only sessions it wrote itself: paste the handoff into a new session');
  },
  usage: { kind: 'lines', claims: copilotCliClaims, wants: copilotWants, steadyMarkers: copilotSteadyMarkers, apply: applyCopilotEvent, byModel: copilotByModel },
};
