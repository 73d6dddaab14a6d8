// Which files make up a Cline / Roo / Kilo task: a task folder, or one of its files, names the whole folder.
import type { FsView } from '../../agents/agent';

export const API_FILE = 'api_conversation_history.json';
export const UI_FILE = 'ui_messages.json';
/** What very old Cline versions (claude-dev) called ui_messages.json. */
export const OLD_UI_FILE = 'claude_messages.json';
export const METADATA_FILE = 'task_metadata.json';
export const CONTEXT_FILE = 'context_history.json';
/** Roo Code (2026) keeps each task's history item in its folder; its task list is rebuilt from these. */
export const HISTORY_ITEM_FILE = 'history_item.json';

/** Read in this order; the API history or, without it, the UI log is required. */
const TASK_FILES = [API_FILE, UI_FILE, OLD_UI_FILE, METADATA_FILE, CONTEXT_FILE, HISTORY_ITEM_FILE];

/** The task's files (absolute, API history first), or undefined when `p` is not a task folder or one of its files. */
export function selectTask(p: string, fs: FsView): string[] | undefined {
  const folder = fs.isFolder(p) ? p : TASK_FILES.includes(fs.basename(p)) ? fs.dirname(p) : undefined;
  if (folder === undefined) return undefined;
  const names = new Set(fs.list(folder));
  // Exported and committed tasks often keep only the UI log: read from it alone (read-only).
  if (!names.has(API_FILE) && !names.has(UI_FILE) && !names.has(OLD_UI_FILE)) return undefined;
  return TASK_FILES.filter((n) => names.has(n) && !(n === OLD_UI_FILE && names.has(UI_FILE))).map((n) => fs.join(folder, n));
}

/** Task folders directly under a `tasks` root (Roo's `_index.json` and hidden entries are not tasks). */
export function tasksUnder(root: string, fs: FsView): string[] {
  return fs.list(root)
    .filter((name) => !name.startsWith('_') && !name.startsWith('.'))
    .map((name) => fs.join(root, name))
    .filter((dir) => fs.isFolder(dir) && fs.list(dir).some((n) => n === API_FILE || n === UI_FILE));
}
