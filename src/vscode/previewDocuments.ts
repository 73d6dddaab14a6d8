// In-memory read-only documents (scheme context-compactor-preview) for the compaction diff and report.
import * as vscode from 'vscode';

export const previewScheme = 'context-compactor-preview';

export class PreviewDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** Stores a document and returns its Uri; keeps the last 20 so previews don't pile up. */
  put(key: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: previewScheme, path: `/${key}` });
    const k = uri.toString();
    const known = this.docs.has(k);
    this.docs.set(k, text);
    while (this.docs.size > 20) this.docs.delete(this.docs.keys().next().value as string);
    if (known) this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '(this preview is no longer available; run the command again)';
  }

  dispose(): void {
    this.changed.dispose();
    this.docs.clear();
  }
}
