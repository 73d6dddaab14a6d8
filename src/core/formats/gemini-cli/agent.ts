// Gemini CLI: ~/.gemini/tmp/<project>/chats/session-<time>-<id8>.json[l] (home: $GEMINI_CLI_HOME), resumed by
// `gemini --resume <id>` run in the project's folder.
import { isRecordedCwd, isSessionId, requireSessionId, type AgentModule, type HostEnv } from '../../agents/agent';
import { chatsUnder, isGeminiChat } from './detect';
import { parseGeminiChat } from './read';
import { writeGemini } from './write';
import { geminiFromConversation } from './fromConversation';

/** The CLI's global folder: `<GEMINI_CLI_HOME or the home folder>/.gemini`, the same on Linux, macOS and Windows. */
export function geminiDir(host: HostEnv): string {
  return host.join(host.vars.GEMINI_CLI_HOME || host.home, '.gemini');
}

/** `session-<UTC YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl`, as ChatRecordingService names a new chat. */
export const geminiFileName = (id: string, at: Date): string => `session-${at.toISOString().slice(0, 16).replace(/:/g, '-')}-${id.slice(0, 8)}.jsonl`;

/**
 * The project's temp folder name (≥ v0.29): the slug its registry (~/.gemini/projects.json) gives a project root,
 * which is this for every root whose folder name no other project took first.
 */
export const geminiProjectSlug = (cwd: string): string =>
  (cwd.split(/[\\/]/).filter(Boolean).pop() ?? '').toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'project';

/** `<slug>` of `<tmp>/<slug>/chats/<file>` (one plain folder name: no separator, not `.` or `..`), else undefined. */
function storeSlugOf(original: string, tmp: string): string | undefined {
  const sep = original[tmp.length];
  if (!original.startsWith(tmp) || (sep !== '/' && sep !== '\\')) return undefined;
  const parts = original.slice(tmp.length + 1).split(/[\\/]/);
  if (parts.length !== 3 || parts[1] !== 'chats') return undefined;
  const slug = parts[0]!;
  return /^[^\0]+$/.test(slug) && slug !== '.' && slug !== '..' ? slug : undefined;
}

export const geminiCli: AgentModule = {
  label: 'Gemini CLI',
  shortName: 'gemini',
  icon: 'star-empty',
  reading: {
    kind: 'document',
    select: (path, fs) => (isGeminiChat(path, fs) ? [path] : undefined),
    sessionsUnder: chatsUnder,
    parse: parseGeminiChat,
  },
  write: (original, cleaned, ctx, insert) => ({ kind: 'lines', ...writeGemini(original, cleaned, ctx, insert) }),
  fromConversation: (conversation, ctx) => ({ kind: 'lines', ...geminiFromConversation(conversation, ctx) }),
  sessionIds: 'uuid-v4',
  fileName: geminiFileName,
  resumeCommand: (id) => (isSessionId(id) ? `gemini --resume ${id}` : undefined),
  roots: (host) => [host.join(geminiDir(host), 'tmp')],
  storePath(host, id, cwd, at, original) {
    requireSessionId(id);
    const tmp = host.join(geminiDir(host), 'tmp');
    // A chat compacted from Gemini's own store goes to its project's folder: the slug the registry gave that project
    // (a guess from the folder name is wrong when another project took that name first).
    const slug = original === undefined ? undefined : storeSlugOf(original, tmp);
    if (slug !== undefined) return host.join(tmp, slug, 'chats', geminiFileName(id, at));
    if (cwd === undefined) throw new Error('the Gemini CLI chat does not name its project folder, so its store folder is unknown');
    if (!isRecordedCwd(cwd)) throw new Error(`the transcript's working folder is not an absolute path: ${JSON.stringify(cwd.slice(0, 120))}`);
    // The slug keeps only [a-z0-9-]: no recorded cwd can lead outside the tmp folder.
    return host.join(tmp, geminiProjectSlug(cwd), 'chats', geminiFileName(id, at));
  },
  usage: { kind: 'from-session' },
};
