// Resolves which transcript file a command acts on: its Uri argument, the active .jsonl editor, or an open dialog.
import * as vscode from 'vscode';
import { sessionFileOf } from '../node/sessions/treeModel';

function isJsonlFile(uri: vscode.Uri | undefined): uri is vscode.Uri {
  return uri !== undefined && uri.scheme === 'file' && uri.path.toLowerCase().endsWith('.jsonl');
}

/** `arg` is what editor/title and explorer menus pass (the resource Uri) or the Sessions view passes (its session item). */
export async function pickTranscript(arg: unknown, title: string): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const sessionFile = sessionFileOf(arg);
  if (sessionFile !== undefined) return vscode.Uri.file(sessionFile);
  const active = vscode.window.activeTextEditor?.document.uri;
  if (isJsonlFile(active)) return active;
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectMany: false,
    openLabel: 'Open transcript',
    filters: { 'Agent transcripts': ['jsonl'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return picked?.[0];
}
