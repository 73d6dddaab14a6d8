// Status-bar item: the open workspace's most recent agent session's context used of its window, with the compact-soon flag.
import * as vscode from 'vscode';
import type { UsageReport } from '../core/usage/types';
import { statusOf } from '../node/sessions/statusModel';
import { CommandIds } from './commandIds.js';

export class ContextStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('contextCompactor.context', vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = 'Context Compactor: context of this workspace\'s latest session';
  }

  update(report: UsageReport | undefined, threshold: number): void {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const s = report ? statusOf(report.sessions, threshold, folders) : undefined;
    if (!s) { this.item.hide(); return; }
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.backgroundColor = s.compactSoon ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.command = { title: 'Show context composition', command: CommandIds.showComposition, arguments: [vscode.Uri.file(s.file)] };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
