// Read-only virtual markdown documents (scheme context-compactor) that show an inspection report.
import * as vscode from 'vscode';
import * as path from 'node:path';

export const inspectionScheme = 'context-compactor';

export class InspectionDocuments implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** @param reinspect recomputes a report VS Code asks for after a reload, when nothing is cached. */
  constructor(private readonly reinspect: (fsPath: string) => Promise<string>) {}

  /** The tab title is the transcript's name; the query keeps the source path so the report can be rebuilt. */
  static uriFor(source: vscode.Uri): vscode.Uri {
    const name = path.basename(source.fsPath, path.extname(source.fsPath));
    return vscode.Uri.from({ scheme: inspectionScheme, path: `/${name}.inspection.md`, query: source.fsPath });
  }

  set(uri: vscode.Uri, markdown: string): void {
    const key = uri.toString();
    const known = this.reports.has(key);
    this.reports.set(key, markdown);
    if (known) this.changed.fire(uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const cached = this.reports.get(uri.toString());
    if (cached !== undefined) return cached;
    const markdown = await this.reinspect(uri.query);
    this.reports.set(uri.toString(), markdown);
    return markdown;
  }

  dispose(): void {
    this.changed.dispose();
    this.reports.clear();
  }
}
