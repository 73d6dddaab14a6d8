// Opens an integrated terminal in a session's folder and runs its (validated) resume command there.
import * as vscode from 'vscode';

export function openResumeTerminal(o: { command: string; cwd?: string; name: string }): vscode.Terminal {
  const terminal = vscode.window.createTerminal({ cwd: o.cwd, name: o.name });
  terminal.show();
  terminal.sendText(o.command);
  return terminal;
}
