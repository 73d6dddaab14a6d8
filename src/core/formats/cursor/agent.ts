// Cursor's agent transcripts (~/.cursor/projects/<project>/agent-transcripts/): read-only. Cursor resumes a chat
// from its own SQLite/protobuf stores, not from a transcript file, so compaction writes a Markdown handoff.
import type { AgentModule } from '../../agents/agent';
import { handoffFileName, handoffMarkdown } from '../../compact/handoff';
import { codeSpan } from '../../text/markdown';
import { cursorRoots, cursorSessionsUnder, isCursorTranscript } from './paths';
import { parseCursor } from './read';

export const cursor: AgentModule = {
  label: 'Cursor',
  shortName: 'cursor',
  icon: 'mention',
  reading: {
    kind: 'document',
    select: (path, fs) => (isCursorTranscript(path, fs) ? [path] : undefined),
    sessionsUnder: cursorSessionsUnder,
    parse: parseCursor,
  },
  write: (_original, cleaned, ctx) => ({
    kind: 'handoff', sessionId: ctx.newId(),
    markdown: handoffMarkdown(cleaned, 'Cursor', { howToStart: `a new Agent chat in Cursor, or ${codeSpan('cursor-agent')} in the project folder` }),
  }),
  sessionIds: 'uuid-v4',
  fileName: (id, at) => handoffFileName('cursor', id, at),
  // Cursor resumes only chats of its own store.
  resumeCommand: () => undefined,
  handoff: true,
  roots: cursorRoots,
  storePath() {
    throw new Error('Cursor cannot load a chat written by another program: paste the handoff into a new chat');
  },
  usage: { kind: 'from-session' },
};
