// GitHub Copilot Chat (VS Code's chat, microsoft/vscode-copilot-chat): sessions in workspaceStorage/<hash>/chatSessions
// (and emptyWindowChatSessions), JSON up to VS Code 1.108, an operation log since 1.109; exports from "Export Chat…".
// VS Code cannot load a compacted session from a file, so compaction writes a Markdown handoff for a new chat.
import { pad2, type AgentModule } from '../../agents/agent';
import { handoffMarkdown } from '../../compact/handoff';
import { codeSpan, fenced } from '../../text/markdown';
import { copilotSessionsUnder, isCopilotSession, sessionFiles } from './detect';
import { copilotRoots } from './paths';
import { parseCopilotChat } from './read';

/** `copilot-chat-handoff-YYYY-MM-DDThh-mm-ss-<id8>.md` in local time. */
export function copilotHandoffName(id: string, at: Date): string {
  const d = `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())}T${pad2(at.getHours())}-${pad2(at.getMinutes())}-${pad2(at.getSeconds())}`;
  return `copilot-chat-handoff-${d}-${id.slice(0, 8)}.md`;
}

export const copilotChat: AgentModule = {
  label: 'GitHub Copilot Chat',
  shortName: 'copilot',
  icon: 'copilot',
  reading: {
    kind: 'document',
    select: (path, fs) => (isCopilotSession(path, fs) ? sessionFiles(path, fs) : undefined),
    sessionsUnder: copilotSessionsUnder,
    parse: parseCopilotChat,
  },
  write: (_original, cleaned, ctx) => ({
    kind: 'handoff', sessionId: ctx.newId(),
    markdown: handoffMarkdown(cleaned, 'GitHub Copilot Chat', {
      howToStart: `${codeSpan('Chat: New Chat')} in VS Code, in the same workspace`,
      // The new chat renders its own workspace and editor context: the old request's is left out.
      harness: (b) => (b.subtype === 'workspace-context' || b.subtype === 'request-context' ? undefined : fenced(b.text)),
    }),
  }),
  sessionIds: 'uuid-v4',
  fileName: copilotHandoffName,
  // VS Code resumes a chat from its own store only: a handoff is pasted into a new chat.
  resumeCommand: () => undefined,
  handoff: true,
  roots: copilotRoots,
  storePath() {
    throw new Error('VS Code cannot load a chat session written by another program: paste the handoff into a new chat');
  },
  usage: { kind: 'from-session' },
};
