// Where the Sessions view looks (agent stores, sessionRoots, workspace transcripts) and the watchers on those places.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { allAgentRoots } from '../node/agentStores';

/** Transcripts under node_modules are test data of some package, never a session of the user's. */
const WORKSPACE_EXCLUDE = '**/node_modules/**';
/** findFiles stops here: a workspace with more transcripts than that is itself a session store, add it as a root. */
const WORKSPACE_MAX_FILES = 2000;
/** Transcripts a workspace holds: JSONL sessions, and aider's chat history in a project folder. */
const WORKSPACE_TRANSCRIPTS = '**/{*.jsonl,.aider.chat.history.md}';
/** What changes under an agent's store or a sessions folder: JSONL sessions, document agents' JSON, aider histories. */
const ROOT_TRANSCRIPTS = '**/{*.jsonl,*.json,.aider.chat.history.md}';

export interface SessionRoots {
  /** Passed to the scanner besides its default roots: sessionRoots folders and the workspace's transcript files. */
  readonly extraDirs: string[];
  /** Existing folders outside the workspace to watch (the workspace has its own watcher). */
  readonly watchDirs: string[];
}

/** `~/x` in a setting means the home folder, as users expect from a path setting. */
export function expandHome(p: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  return p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : p;
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

export async function resolveRoots(settingRoots: readonly string[], env: NodeJS.ProcessEnv): Promise<SessionRoots> {
  const configured = settingRoots.filter((r) => r.trim() !== '').map((r) => resolve(expandHome(r.trim(), env)));
  // Workspace transcripts come from findFiles (honours files.exclude, uses ripgrep) instead of walking every folder.
  const inWorkspace = vscode.workspace.workspaceFolders?.length
    ? await vscode.workspace.findFiles(WORKSPACE_TRANSCRIPTS, WORKSPACE_EXCLUDE, WORKSPACE_MAX_FILES)
    : [];
  const workspaceFiles = inWorkspace.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
  const watchDirs = [...new Set([...allAgentRoots(env), ...configured])].filter(isDir);
  return { extraDirs: [...configured, ...workspaceFiles], watchDirs };
}

/**
 * Watches transcripts (`*.jsonl`, aider histories, document agents' JSON) under the workspace and every root, calling `onChange` once things are quiet for `debounceMs`
 * (an agent appends a line per event; one rescan per burst is enough). RelativePattern on an absolute Uri also
 * works outside the workspace. `setRoots` swaps the root watchers when the folders change.
 */
export class TranscriptWatcher implements vscode.Disposable {
  private readonly workspace: vscode.FileSystemWatcher;
  private roots = new Map<string, vscode.FileSystemWatcher>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly onChange: () => void, private readonly debounceMs = 1000) {
    this.workspace = this.watch(WORKSPACE_TRANSCRIPTS);
  }

  private watch(pattern: vscode.GlobPattern): vscode.FileSystemWatcher {
    const w = vscode.workspace.createFileSystemWatcher(pattern);
    const poke = (): void => this.poke();
    w.onDidCreate(poke);
    w.onDidChange(poke);
    w.onDidDelete(poke);
    return w;
  }

  private poke(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.onChange(), this.debounceMs);
  }

  setRoots(dirs: readonly string[]): void {
    const wanted = new Set(dirs);
    for (const [dir, w] of this.roots) {
      if (!wanted.has(dir)) {
        w.dispose();
        this.roots.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (!this.roots.has(dir)) this.roots.set(dir, this.watch(new vscode.RelativePattern(vscode.Uri.file(dir), ROOT_TRANSCRIPTS)));
    }
  }

  get watchedRoots(): string[] {
    return [...this.roots.keys()];
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.workspace.dispose();
    for (const w of this.roots.values()) w.dispose();
    this.roots.clear();
  }
}
