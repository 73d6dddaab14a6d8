// Jump-to-source: open a transcript file with one (1-based) line selected and centred.
import * as vscode from 'vscode';

export async function revealTranscriptLine(file: string, line: number): Promise<void> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const target = Math.min(Math.max(0, line - 1), document.lineCount - 1);
  // Select only the line's start: transcript lines can be megabytes long, a full-line selection is useless.
  const position = new vscode.Position(target, 0);
  await vscode.window.showTextDocument(document, {
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: false,
    selection: new vscode.Range(position, position),
  });
  const editor = vscode.window.activeTextEditor;
  if (editor?.document === document) editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
}

/** The file a `showComposition` invocation means: explicit argument, else the active .jsonl editor, else ask. */
export async function pickTranscriptFile(arg?: unknown): Promise<string | undefined> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') return arg.fsPath;
  if (typeof arg === 'string' && arg.length > 0) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && active.fsPath.endsWith('.jsonl')) return active.fsPath;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Show context composition',
    filters: { 'Agent transcripts': ['jsonl'] },
  });
  return picked?.[0]?.fsPath;
}
