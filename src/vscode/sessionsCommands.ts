// Commands of the Sessions view: refresh, add a sessions folder, reveal a transcript, copy its resume command.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentModule } from '../core/formats/registry';
import { sessionFileOf, sessionsOf, type SessionNode } from '../node/sessions/treeModel';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import { settingsSection } from './settingKeys.js';
import type { SessionsView } from './sessionsTree.js';
import { showInfo, showWarning } from './notify.js';

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

export function registerSessionsCommands(view: SessionsView, log: Logger): vscode.Disposable {
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
      if (node.resumeCommand === undefined) {
        const label = agentModule(node.session.agent);
        void showWarning(label.handoff
          ? `Context Compactor: ${label.label} cannot resume from a file — compact the session and paste the handoff into a new chat; nothing was copied.`
          : 'Context Compactor: this transcript\'s session id is not a UUID, so it has no resume command; nothing was copied.');
        return undefined;
      }
      await vscode.env.clipboard.writeText(node.resumeCommand);
      vscode.window.setStatusBarMessage(`Copied: ${node.resumeCommand} (run it in ${path.basename(node.session.project ?? '') || 'the project folder'})`, 4000);
      return node.resumeCommand;
    }),
  );
}
