// "Resume in terminal": an integrated terminal in the session's working folder that runs the validated resume command.
import { statSync } from 'node:fs';
import * as vscode from 'vscode';

/**
 * Where a session resumes: its recorded working folder when that folder exists on this machine, else the first
 * workspace folder. Accept writes into the agent's store under the same folder (Claude Code and Gemini CLI find a
 * session by the folder they run in), so the terminal and the written copy always agree.
 */
export function resumeFolder(recorded: string | undefined): string | undefined {
  if (recorded !== undefined && isFolder(recorded)) return recorded;
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function isFolder(p: string): boolean {
  try { return statSync(p).isDirectory(); } catch { return false; }
}

/**
 * `command` must be a validated resume command (`report.resumeCommand`, `resumeCommandFor`), never text taken from a
 * transcript: it is sent to a shell as is.
 */
export function openResumeTerminal(o: { command: string; cwd?: string; name: string }): vscode.Terminal {
  const cwd = resumeFolder(o.cwd);
  const terminal = vscode.window.createTerminal({ name: o.name, ...(cwd ? { cwd } : {}) });
  terminal.show();
  terminal.sendText(o.command, true);
  return terminal;
}
