// Read-only virtual markdown documents (scheme context-compactor) that show an inspection report.
import * as vscode from 'vscode';
import { tabName } from '../core/text/tabName';

export const inspectionScheme = 'context-compactor';

export class InspectionDocuments implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** @param reinspect recomputes a report VS Code asks for after a reload, when nothing is cached. */
  constructor(private readonly reinspect: (fsPath: string) => Promise<string>) {}

  /**
   * The tab title is the session's title (`title`: the Sessions view's, else the file name); the query keeps the
   * source path, so the report can be rebuilt and two sessions of one title stay two documents.
   */
  static uriFor(source: vscode.Uri, title: string): vscode.Uri {
    return vscode.Uri.from({ scheme: inspectionScheme, path: `/Context of ${tabName(title)}.md`, query: source.fsPath });
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
