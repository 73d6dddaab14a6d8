// Aider (Aider-AI/aider, a Python CLI): `.aider.chat.history.md` in each project folder, many runs per file; it cannot
// resume from a file, so compaction writes a Markdown handoff to paste into a new chat. No store of its own: its
// histories are found in the workspace and the contextCompactor.sessionRoots folders (and their subfolders).
import { pad2, type AgentModule } from '../../agents/agent';
import { aiderHistoryFile, historiesUnder } from './detect';
import { parseAiderHistory } from './read';
import { writeAiderHandoff } from './write';

/** `aider-handoff-YYYY-MM-DDThh-mm-ss-<id8>.md` in local time, next to the history it came from. */
export function aiderHandoffName(id: string, at: Date): string {
  const d = `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())}T${pad2(at.getHours())}-${pad2(at.getMinutes())}-${pad2(at.getSeconds())}`;
  return `aider-handoff-${d}-${id.slice(0, 8)}.md`;
}

export const aider: AgentModule = {
  label: 'Aider',
  shortName: 'aider',
  icon: 'comment-discussion',
  reading: {
    kind: 'document',
    select: (path, fs) => { const file = aiderHistoryFile(path, fs); return file ? [file] : undefined; },
    sessionsUnder: historiesUnder,
    parse: parseAiderHistory,
  },
  write: (_original, cleaned, ctx) => writeAiderHandoff(cleaned, ctx),
  sessionIds: 'uuid-v4',
  fileName: aiderHandoffName,
  // aider has no resume by id: a handoff is pasted into a new chat.
  resumeCommand: () => undefined,
  handoff: true,
  roots: () => [],
  storePath() {
    throw new Error('Aider keeps no sessions it could load: paste the handoff into a new chat');
  },
  usage: { kind: 'from-session' },
};
