// Codex: ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl (or $CODEX_HOME), resumed by `codex resume <id>`.
import { isSessionId, pad2, requireSessionId, type AgentModule, type HostEnv } from '../../agents/agent';
import { detectCodex } from './detect';
import { createCodexParser } from './read';
import { applyCodexRecord, codexByModel, codexClaims, codexSteadyMarkers, codexWants } from './usage';
import { writeCodex } from './write';
import { codexFromConversation } from './fromConversation';

export function codexHome(host: HostEnv): string {
  return host.vars.CODEX_HOME || host.join(host.home, '.codex');
}

/** `rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` in local time, as Codex names them. */
export function codexFileName(id: string, at: Date): string {
  const d = `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())}`;
  return `rollout-${d}T${pad2(at.getHours())}-${pad2(at.getMinutes())}-${pad2(at.getSeconds())}-${id}.jsonl`;
}

export const codex: AgentModule = {
  label: 'Codex',
  shortName: 'codex',
  icon: 'terminal',
  // An `item_completed` event repeats a history item (its output included); the reader reads only token counts and rollbacks of events.
  reading: { kind: 'lines', detect: detectCodex, createParser: createCodexParser, unreadField: { name: 'item', parent: 'payload', parentOf: 'event_msg' } },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeCodex(original, cleaned, ctx, insert) }),
  fromConversation: (conversation, ctx) => ({ kind: 'lines', ...codexFromConversation(conversation, ctx) }),
  sessionIds: 'uuid-v7',
  fileName: codexFileName,
  resumeCommand: (id) => (isSessionId(id) ? `codex resume ${id}` : undefined),
  roots: (host) => [host.join(codexHome(host), 'sessions'), host.join(codexHome(host), 'archived_sessions')],
  storePath(host, id, _cwd, at) {
    requireSessionId(id);
    return host.join(codexHome(host), 'sessions', String(at.getFullYear()), pad2(at.getMonth() + 1), pad2(at.getDate()), codexFileName(id, at));
  },
  usage: { kind: 'lines', claims: codexClaims, wants: codexWants, steadyMarkers: codexSteadyMarkers, apply: applyCodexRecord, byModel: codexByModel },
};
