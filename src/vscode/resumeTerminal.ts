// "Resume in terminal": an integrated terminal in the session's working folder that runs the validated resume command.
import { statSync } from 'node:fs';
import * as vscode from 'vscode';
import { shellOf, type Shell } from '../core/text/shellQuote';

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

/** The shell a new integrated terminal runs (the user's default profile): what a command sent to it is quoted for. */
export function terminalShell(): Shell {
  return shellOf(vscode.env.shell, process.platform);
}

/**
 * `command` must be a validated resume command (`report.resumeCommand`, `resumeCommandFor`), never text taken from a
 * transcript: it is sent to a shell as is.
 */
export function openResumeTerminal(o: { command: string; cwd?: string; name: string }): vscode.Terminal {
  const cwd = resumeFolder(o.cwd);
  const terminal = vscode.window.createTerminal({ name: o.name, ...(cwd ? { cwd } : {}) });
  terminal.show();
  runWhenReady(terminal, o.command);
  return terminal;
}

/** How long a new shell may take to report its integration before the command is typed in anyway. */
const SHELL_READY_MS = 3000;

/**
 * Text sent before the shell has drawn its prompt is echoed twice (once cut); with shell integration the command runs
 * once the shell is ready, and where there is none (an unsupported shell, integration off) it is typed in after a wait.
 */
function runWhenReady(terminal: vscode.Terminal, command: string): void {
  if (terminal.shellIntegration) {
    terminal.shellIntegration.executeCommand(command);
    return;
  }
  let done = false;
  const finish = (run: () => void): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    ready.dispose();
    closed.dispose();
    run();
  };
  const ready = vscode.window.onDidChangeTerminalShellIntegration((e) => {
    if (e.terminal === terminal) finish(() => e.shellIntegration.executeCommand(command));
  });
  const closed = vscode.window.onDidCloseTerminal((t) => {
    if (t === terminal) finish(() => undefined);
  });
  const timer = setTimeout(() => finish(() => terminal.sendText(command, true)), SHELL_READY_MS);
}
