// Commands of the Sessions view: refresh, add a folder, filter, sort, reveal a transcript, copy or run its resume command.
import { statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentModule } from '../core/formats/registry';
import { sessionFileOf, sessionsOf, SORT_KEYS, type SessionNode, type SortKey } from '../node/sessions/treeModel';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import { settingsSection } from './settingKeys.js';
import type { SessionsView } from './sessionsTree.js';
import { showInfo, showWarning } from './notify.js';
import { openResumeTerminal } from './resumeTerminal.js';
import { mayRun, type TrustGate } from './trust.js';

const SORT_LABELS: Record<SortKey, { label: string; detail: string }> = {
  context: { label: 'Context size', detail: 'Largest context first: the sessions worth compacting on top' },
  recency: { label: 'Most recent', detail: 'Last active first' },
  cost: { label: 'Cost', detail: 'Most expensive first (subagents included)' },
};

const isDir = (p: string | undefined): p is string => {
  try {
    return p !== undefined && statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Menus pass the element; the palette passes nothing, then the view's selection counts. The view's own element for
 * that file is returned, never the argument: a command can be called with any object, and what is copied or
 * revealed must be what this view built (its resume command from a checked session id).
 */
function sessionArg(arg: unknown, view: SessionsView): SessionNode | undefined {
  const file = sessionFileOf(arg ?? view.treeView.selection[0]);
  return file === undefined ? undefined : sessionsOf(view.provider.tree).find((s) => s.file === file);
}

async function addRoot(view: SessionsView): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Add sessions folder', title: 'Folder with agent transcripts (*.jsonl)' });
  const dir = picked?.[0]?.fsPath;
  if (!dir) return undefined;
  const config = vscode.workspace.getConfiguration(settingsSection);
  const roots = config.get<string[]>('sessionRoots') ?? [];
  // Global: the same folders hold sessions whatever window is open; the config change triggers the rescan.
  if (!roots.includes(dir)) await config.update('sessionRoots', [...roots, dir], vscode.ConfigurationTarget.Global);
  else await view.refresh();
  return dir;
}

async function revealFile(node: SessionNode, log: Logger): Promise<void> {
  const uri = vscode.Uri.file(node.file);
  if (vscode.workspace.getWorkspaceFolder(uri)) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  // Outside the workspace: the OS file manager; where there is none (remote, web), the file in an editor.
  try {
    await vscode.commands.executeCommand('revealFileInOS', uri);
  } catch (err) {
    log.warn(`revealFileInOS ${node.file}: ${describeError(err)}; opening it instead`);
    await vscode.window.showTextDocument(uri, { preview: true });
  }
}

/** Says why a session has no resume command (a handoff agent, or an id that is not a UUID); undefined = it has one. */
function noResume(node: SessionNode, what: string): undefined {
  const label = agentModule(node.session.agent);
  void showWarning(label.handoff
    ? `Context Compactor: ${label.label} cannot resume from a file — compact the session and paste the handoff into a new chat; nothing was ${what}.`
    : `Context Compactor: this transcript's session id is not a UUID, so it has no resume command; nothing was ${what}.`);
  return undefined;
}

async function pickSort(view: SessionsView): Promise<SortKey | undefined> {
  const picked = await vscode.window.showQuickPick(
    SORT_KEYS.map((key) => ({ key, ...SORT_LABELS[key], description: key === view.sort ? '(current)' : undefined })),
    { title: 'Sort sessions by', placeHolder: 'Order of sessions and projects in the Sessions view' },
  );
  if (!picked) return undefined;
  await view.setSort(picked.key);
  return picked.key;
}

async function askFilter(view: SessionsView): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({
    title: 'Filter sessions', value: view.filter,
    prompt: 'Sessions whose title, project, agent or file contain this text (empty: all sessions)',
    placeHolder: 'e.g. login, my-repo, codex',
  });
  if (text === undefined) return undefined;
  view.setFilter(text);
  return view.filter;
}

export function registerSessionsCommands(view: SessionsView, log: Logger, trust: TrustGate): vscode.Disposable {
  const needItem = (name: string): undefined => {
    void showInfo(`Context Compactor: select a session in the Sessions view to ${name}.`);
    return undefined;
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CommandIds.refreshSessions, () => view.refresh()),
    vscode.commands.registerCommand(CommandIds.addSessionRoot, () => addRoot(view)),
    vscode.commands.registerCommand(CommandIds.revealSessionFile, async (arg?: unknown) => {
      const node = sessionArg(arg, view);
      if (!node) return needItem('reveal its file');
      await revealFile(node, log);
      return vscode.Uri.file(node.file);
    }),
    vscode.commands.registerCommand(CommandIds.copyResumeCommand, async (arg?: unknown) => {
      const node = sessionArg(arg, view);
      if (!node) return needItem('copy its resume command');
      if (node.resumeCommand === undefined) return noResume(node, 'copied');
      await vscode.env.clipboard.writeText(node.resumeCommand);
      vscode.window.setStatusBarMessage(`Copied: ${node.resumeCommand} (run it in ${path.basename(node.session.project ?? '') || 'the project folder'})`, 4000);
      return node.resumeCommand;
    }),
    vscode.commands.registerCommand(CommandIds.resumeInTerminal, (arg?: unknown) => {
      const node = sessionArg(arg, view);
      if (!node) return needItem('resume it in a terminal');
      if (node.resumeCommand === undefined) return noResume(node, 'run');
      if (!mayRun(trust, CommandIds.resumeInTerminal, 'Resuming a session in a terminal')) return undefined;
      // The agent finds the session by its id from the folder it ran in (Claude Code keys its store on it).
      const cwd = isDir(node.session.project) ? node.session.project : undefined;
      if (!cwd) log.warn(`resume ${node.file}: its project folder ${node.session.project ?? '(none recorded)'} does not exist here; the terminal opens in the default folder`);
      const title = node.title.length > 40 ? `${node.title.slice(0, 39)}…` : node.title;
      openResumeTerminal({ command: node.resumeCommand, cwd, name: `${agentModule(node.session.agent).label}: ${title}` });
      log.info(`resume in terminal: ${node.resumeCommand} (in ${cwd ?? 'the default folder'})`);
      return { command: node.resumeCommand, cwd };
    }),
    vscode.commands.registerCommand(CommandIds.filterSessions, () => askFilter(view)),
    vscode.commands.registerCommand(CommandIds.clearSessionsFilter, () => view.setFilter('')),
    vscode.commands.registerCommand(CommandIds.sortSessions, (key?: unknown) => {
      // Tests and keybindings may pass the key; the palette and the view title ask.
      const given = SORT_KEYS.find((k) => k === key);
      return given ? view.setSort(given).then(() => given) : pickSort(view);
    }),
  );
}
