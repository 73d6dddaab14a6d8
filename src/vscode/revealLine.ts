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
