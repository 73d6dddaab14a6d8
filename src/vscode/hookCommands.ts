// "Guard Claude Code's compaction": installs (or removes) our SessionStart hook in Claude Code's user settings.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writeFileAtomic } from '../node/atomicWrite';
import { hookCommandForRuntime, installHook, uninstallHook } from '../node/hooks/install';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import { showError, showInfo } from './notify.js';
import { mayRun, type TrustGate } from './trust.js';

interface Deps { readonly extensionPath: string; readonly storage: vscode.Uri; readonly log: Logger; readonly trust: TrustGate }

/** The hook's bundle as the extension runs it: a copy in global storage, which outlives extension updates. */
const HOOK_FILE = 'context-compactor-hook.js';
const OPEN_SETTINGS = 'Open settings.json';

async function install(deps: Deps): Promise<string | undefined> {
  if (!mayRun(deps.trust, CommandIds.guardInstall, 'Installing the compaction guard')) return undefined;
  try {
    const bundled = path.join(deps.extensionPath, 'dist', 'hook.js');
    const script = path.join(deps.storage.fsPath, HOOK_FILE);
    await writeFileAtomic(script, [readFileSync(bundled, 'utf8')], { createDir: true, mode: 0o600 });
    const command = hookCommandForRuntime('claude-code', process.execPath, script, process.env, process.platform, existsSync);
    if (!command) {
      void showError('Context Compactor: Claude Code runs its hooks with Node, and no node was found on PATH. Install Node.js, or run `context-compactor hook install claude-code` from a terminal.');
      return undefined;
    }
    const change = await installHook('claude-code', 'user', process.cwd(), process.env, command);
    deps.log.info(`hook ${change.changed ? 'installed' : 'already installed'} in ${change.file}: ${command}`);
    // With a button the toast stays expanded, so the whole line (and where the hook went) is read, not "A…".
    void showInfo(change.changed
      ? `Context Compactor: Claude Code's compaction is guarded. After each compaction Claude Code gets the facts its summary may drop (hook added to ${change.file}).`
      : `Context Compactor: Claude Code's compaction is already guarded (${change.file}).`, OPEN_SETTINGS).then((pick) => {
      if (pick === OPEN_SETTINGS) void vscode.window.showTextDocument(vscode.Uri.file(change.file));
    });
    return change.file;
  } catch (e) {
    deps.log.error(`hook install: ${describeError(e)}`);
    void showError(`Context Compactor: could not install the hook: ${describeError(e)}`);
    return undefined;
  }
}

async function uninstall(deps: Deps): Promise<string | undefined> {
  try {
    const change = await uninstallHook('claude-code', 'user', process.cwd(), process.env);
    void showInfo(change.changed ? `Context Compactor: the compaction guard was removed from ${change.file}.` : `Context Compactor: no compaction guard of ours in ${change.file}; nothing changed.`);
    return change.file;
  } catch (e) {
    deps.log.error(`hook uninstall: ${describeError(e)}`);
    void showError(`Context Compactor: could not remove the hook: ${describeError(e)}`);
    return undefined;
  }
}

export function registerHookCommands(deps: Deps): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CommandIds.guardInstall, () => install(deps)),
    vscode.commands.registerCommand(CommandIds.guardUninstall, () => uninstall(deps)),
  );
}
