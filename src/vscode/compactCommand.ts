// "Compact transcript": hands a transcript, the settings and the provider's API key to compactFile, then offers the result.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { compactFile } from '../node/compactFile.js';
import { CommandIds } from './commandIds.js';
import { describeError, type Logger } from './log.js';
import { pickTranscript } from './pickTranscript.js';
import type { ApiKeyStore } from './secrets.js';
import type { Settings } from './settingKeys.js';

interface CompactDeps {
  readonly settings: () => Settings;
  readonly keys: ApiKeyStore;
  readonly log: Logger;
}

async function compact(arg: unknown, deps: CompactDeps): Promise<vscode.Uri | undefined> {
  const source = await pickTranscript(arg, 'Compact transcript');
  if (source === undefined) return undefined;
  const name = path.basename(source.fsPath);
  const settings = deps.settings();
  const provider = settings['summary.provider'];
  const apiKey = provider === 'none' ? undefined : await deps.keys.get(provider);
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Compacting ${name}`, cancellable: true },
      (_progress, token) => {
        // SDK calls take an AbortSignal; the progress notification gives a CancellationToken.
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return compactFile(source.fsPath, { settings, apiKey, signal: abort.signal });
      },
    );
    deps.log.info(`compacted ${source.fsPath} -> ${result.outputPath}`);
    const output = vscode.Uri.file(result.outputPath);
    void vscode.window.showInformationMessage(`Context Compactor: wrote ${path.basename(result.outputPath)}.`, 'Open').then((choice) => {
      if (choice === 'Open') void vscode.window.showTextDocument(output);
    });
    return output;
  } catch (err) {
    deps.log.error(`compact ${source.fsPath}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    void vscode.window.showErrorMessage(`Context Compactor: cannot compact ${name}: ${describeError(err)}`);
    return undefined;
  }
}

export function registerCompactCommand(deps: CompactDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.compactTranscript, (arg?: unknown) => compact(arg, deps));
}
