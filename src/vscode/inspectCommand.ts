// "Inspect transcript": runs inspectFile on a transcript and shows the report as a markdown document.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inspectFile } from '../node/inspectFile.js';
import { CommandIds } from './commandIds.js';
import { InspectionDocuments } from './inspectionDocuments.js';
import { describeError, type Logger } from './log.js';
import { pickSession } from './pickTranscript.js';
import { showError } from './notify.js';

/** Resolves to the report's Uri, or undefined when cancelled or failed (the user has seen why). */
async function inspect(arg: unknown, documents: InspectionDocuments, log: Logger): Promise<vscode.Uri | undefined> {
  const picked = await pickSession(arg, 'Inspect transcript');
  if (picked === undefined) return undefined;
  const source = picked.uri;
  // The session's title (its file name only when it is no known session): a UUID names nothing to a person.
  const name = picked.title;
  let inspected: Awaited<ReturnType<typeof inspectFile>>;
  try {
    inspected = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Inspecting ${name}` }, () => inspectFile(source.fsPath));
  } catch (err) {
    log.error(`inspect ${source.fsPath}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    void showError(`Context Compactor: cannot inspect ${name}: ${describeError(err)}`);
    return undefined;
  }
  // A file no view knows: the title the transcript holds (its first request), as Compact names it.
  const title = name !== path.basename(source.fsPath) ? name : inspected.json.title?.trim() || name;
  const uri = InspectionDocuments.uriFor(source, title);
  documents.set(uri, inspected.markdown);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
  // The rendered preview reads better than the raw table; without the built-in markdown extension the text stays.
  await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, (err: unknown) => {
    log.warn(`markdown preview unavailable: ${describeError(err)}`);
  });
  log.info(`inspected ${source.fsPath}`);
  return uri;
}

export function registerInspectCommand(documents: InspectionDocuments, log: Logger): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.inspectTranscript, (arg?: unknown) => inspect(arg, documents, log));
}
