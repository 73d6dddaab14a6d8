// Recognising a Copilot Chat session: by place (a `.json` / `.jsonl` in a chatSessions folder) and content (the
// serialized chat's fields, or an operation log's first entry); elsewhere (an exported chat, `Chat: Export Chat…`, or
// a session file copied out of its folder) by content alone; and listing the sessions under a root.
import type { FsView } from '../../agents/agent';
import { SESSION_FOLDERS } from './paths';

const LOG_HEAD = /^\uFEFF?\s*\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{/;
const CHAT_FIELDS = /"(version|requesterUsername|responderUsername|sessionId|initialLocation|requests)"\s*:/;
/** An export has no session id or version, but always who spoke and the requests, in its first kilobyte. */
const EXPORT_HEAD = /^\uFEFF?\s*\{[\s\S]*"(requesterUsername|responderUsername)"\s*:[\s\S]*"requests"\s*:\s*\[/;

const inSessionFolder = (file: string, fs: FsView): boolean => (SESSION_FOLDERS as readonly string[]).includes(fs.basename(fs.dirname(file)));

/** Whether `file` is a Copilot Chat session file (in its folder, or copied out by content) or an exported chat. */
export function isCopilotSession(file: string, fs: FsView): boolean {
  const base = fs.basename(file);
  const jsonl = base.endsWith('.jsonl');
  if (!jsonl && !base.endsWith('.json')) return false;
  // Names first, files after: every agent's transcripts pass through here (the usage scan asks for each).
  const placed = inSessionFolder(file, fs);
  if (!placed && !fs.head) return false;
  // Elsewhere the first kilobyte decides before the folder is listed: an agent's project folder may hold thousands of
  // sessions, and every transcript opened passes through here.
  const head = fs.head?.(file);
  if (!placed && (head === undefined || !(jsonl ? LOG_HEAD.test(head) && CHAT_FIELDS.test(head) : EXPORT_HEAD.test(head)))) return false;
  if (fs.isFolder(file) || !fs.list(fs.dirname(file)).includes(base)) return false;
  return !placed || head === undefined || (jsonl ? LOG_HEAD.test(head) : CHAT_FIELDS.test(head));
}

/** The files that make up the session: the session file, and its workspace's `workspace.json` (the folder). */
export function sessionFiles(file: string, fs: FsView): string[] {
  if (fs.basename(fs.dirname(file)) !== 'chatSessions') return [file];
  const hashDir = fs.dirname(fs.dirname(file));
  return fs.list(hashDir).includes('workspace.json') ? [file, fs.join(hashDir, 'workspace.json')] : [file];
}

/** Session files of one folder; where both forms of a session exist, the log (VS Code ≥ 1.109 reads it first). */
function sessionsIn(dir: string, fs: FsView): string[] {
  const names = fs.list(dir);
  const logs = new Set(names.filter((n) => n.endsWith('.jsonl')).map((n) => n.slice(0, -6)));
  return names.filter((n) => n.endsWith('.jsonl') || (n.endsWith('.json') && !logs.has(n.slice(0, -5)))).map((n) => fs.join(dir, n));
}

/**
 * The sessions under a root: a workspaceStorage folder (each workspace's chatSessions), a session folder itself, or
 * any folder holding either (a copied profile added to contextCompactor.sessionRoots).
 */
export function copilotSessionsUnder(root: string, fs: FsView): string[] {
  const base = fs.basename(root);
  if ((SESSION_FOLDERS as readonly string[]).includes(base)) return sessionsIn(root, fs);
  const out: string[] = [];
  for (const name of fs.list(root)) {
    const dir = fs.join(root, name);
    if ((SESSION_FOLDERS as readonly string[]).includes(name)) out.push(...sessionsIn(dir, fs));
    else if (base === 'workspaceStorage' && fs.list(dir).includes('chatSessions')) out.push(...sessionsIn(fs.join(dir, 'chatSessions'), fs));
  }
  return out;
}
