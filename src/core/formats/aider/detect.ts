// Where aider keeps its chat: `.aider.chat.history.md` in the folder it ran in (the git root by default), or the
// file --chat-history-file names. Recognised by name, or by its first header when renamed (FsView.head).
import type { FsView } from '../../agents/agent';
import { splitRunSuffix } from './sessions';

export const AIDER_HISTORY = '.aider.chat.history.md';

/** A renamed history (`--chat-history-file`) still opens with a run header, after one blank line. */
const OPENS_AS_HISTORY = /^\uFEFF?\r?\n?# aider chat started at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;

const looksNamed = (base: string): boolean => base === AIDER_HISTORY || (/aider/i.test(base) && base.endsWith('.chat.history.md'));

/** The history file a path names (`FILE` or `FILE#N` for run N), or undefined when it is not aider's. */
export function aiderHistoryFile(path: string, fs: FsView): string | undefined {
  const { file } = splitRunSuffix(path);
  const base = fs.basename(file);
  if (!base.toLowerCase().endsWith('.md') || fs.isFolder(file) || !fs.list(fs.dirname(file)).includes(base)) return undefined;
  if (looksNamed(base)) return file;
  return fs.head && OPENS_AS_HISTORY.test(fs.head(file)) ? file : undefined;
}

/** Names that are never a project folder with a history in it. */
const SKIP = new Set(['node_modules', '.git', '.venv', 'venv', '__pycache__']);

/** The histories in `root` and in its immediate subfolders (a folder of projects), not deeper. */
export function historiesUnder(root: string, fs: FsView): string[] {
  const found: string[] = [];
  const entries = fs.list(root);
  if (entries.includes(AIDER_HISTORY)) found.push(fs.join(root, AIDER_HISTORY));
  for (const name of entries) {
    if (SKIP.has(name) || name.startsWith('.')) continue;
    const dir = fs.join(root, name);
    if (fs.isFolder(dir) && fs.list(dir).includes(AIDER_HISTORY)) found.push(fs.join(dir, AIDER_HISTORY));
  }
  return found;
}
