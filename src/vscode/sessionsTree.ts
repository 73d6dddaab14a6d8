// The Sessions view: agent → project → session tree over the usage scanner, scanned in the background, kept live.
import * as vscode from 'vscode';
import type { UsageReport } from '../core/usage/types';
import { buildSessionTree, reconcile, type SessionTree, type TreeNode } from '../node/sessions/treeModel';
import { scanUsage } from '../node/usage/scanner';
import { describeError, type Logger } from './log.js';
import type { Settings } from './settingKeys.js';
import { resolveRoots, TranscriptWatcher } from './sessionsRoots.js';
import { SESSIONS_STATE_KEY, SESSIONS_VIEW_ID } from './viewIds.js';
import { showWarning } from './notify.js';

export type SessionsState = 'idle' | 'scanning' | 'empty' | 'ready';

class SessionsProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  tree: SessionTree = buildSessionTree([], { threshold: 1 });

  constructor(private readonly onFirstLook: () => void) {}

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const state = node.kind === 'session' ? vscode.TreeItemCollapsibleState.None
      : node.kind === 'agent' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.iconPath = new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined);
    item.contextValue = node.kind === 'session' && node.compactSoon ? 'session.compactSoon' : node.kind;
    if (node.kind === 'session') {
      // Not trusted, no HTML: the text is escaped already, this is the second fence (no command: links run).
      item.tooltip = new vscode.MarkdownString(node.tooltip, false);
      item.accessibilityInformation = { label: `${node.label}, ${node.description}` };
    } else if (node.kind === 'project' && node.project) {
      item.tooltip = node.project;
    }
    return item;
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      this.onFirstLook();
      return this.tree.agents;
    }
    return node.kind === 'session' ? [] : node.children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.kind === 'agent' ? undefined : node.parent;
  }

  /** Swaps in a new tree, refreshing only the elements that changed when the shape is the same. */
  apply(next: SessionTree): void {
    const changed = reconcile(this.tree, next);
    if (changed === 'all') {
      this.tree = next;
      this.changed.fire(undefined);
    } else if (changed.length > 0) {
      this.changed.fire(changed);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface SessionsDeps {
  readonly settings: () => Settings;
  readonly log: Logger;
  readonly env?: NodeJS.ProcessEnv;
  readonly debounceMs?: number;
  /** Workspace trust: in Restricted Mode the usage cache is neither read nor written. */
  readonly trusted?: () => boolean;
  /** Something besides the view shows the sessions (the status bar): rescan on file changes while it is hidden too. */
  readonly keepFresh?: () => boolean;
}

/** Owns the view, the last report, the scans and the watchers; exported to tests through the extension's API. */
export class SessionsView implements vscode.Disposable {
  readonly provider: SessionsProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  private readonly watcher: TranscriptWatcher;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly scanned = new vscode.EventEmitter<UsageReport | undefined>();
  /** Fires after every scan (and threshold change) with the latest report. */
  readonly onDidScan = this.scanned.event;
  private report: UsageReport | undefined;
  private waiting: Promise<void> | undefined;
  private tail: Promise<void> = Promise.resolve();
  /** A watcher fired while the view was hidden: rescan when it shows again. */
  private stale = false;
  /** A scan still in flight at dispose() must not touch the disposed view. */
  private disposed = false;
  state: SessionsState = 'idle';

  constructor(private readonly deps: SessionsDeps) {
    this.provider = new SessionsProvider(() => {
      if (this.state === 'idle') void this.refresh();
    });
    this.treeView = vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this.provider, showCollapseAll: true });
    this.watcher = new TranscriptWatcher(() => this.onFilesChanged(), deps.debounceMs);
    this.disposables.push(
      this.treeView,
      this.provider,
      this.watcher,
      // Activation stays cheap: the first scan starts only once someone looks at the view.
      this.treeView.onDidChangeVisibility((e) => {
        if (e.visible && (this.state === 'idle' || this.stale)) void this.refresh();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (this.state === 'idle') return;
        if (e.affectsConfiguration('contextCompactor.sessionRoots')) void this.refresh();
        else if (e.affectsConfiguration('contextCompactor.contextThreshold')) this.rebuild();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        if (this.state !== 'idle') void this.refresh();
      }),
    );
  }

  get tree(): SessionTree {
    return this.provider.tree;
  }

  get watchedRoots(): string[] {
    return this.watcher.watchedRoots;
  }

  /**
   * Rescans; resolves once a scan that started after this call has finished. At most one scan runs and one
   * waits, so a burst of requests costs two scans at most. The usage cache makes a rescan parse only new lines.
   */
  refresh(): Promise<void> {
    if (this.waiting) return this.waiting;
    const next = this.tail.then(() => {
      this.waiting = undefined;
      return this.scan();
    });
    this.waiting = next;
    this.tail = next;
    return next;
  }

  private onFilesChanged(): void {
    if (this.state === 'idle') return;
    if (this.treeView.visible || this.deps.keepFresh?.()) void this.refresh();
    else this.stale = true;
  }

  private async setState(state: SessionsState): Promise<void> {
    this.state = state;
    await vscode.commands.executeCommand('setContext', SESSIONS_STATE_KEY, state);
  }

  private async scan(): Promise<void> {
    this.stale = false;
    if (this.state === 'idle') await this.setState('scanning');
    const settings = this.deps.settings();
    const env = this.deps.env ?? process.env;
    const started = Date.now();
    try {
      const report = await vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW_ID } }, async () => {
        const roots = await resolveRoots(settings.sessionRoots, env);
        this.watcher.setRoots(roots.watchDirs);
        return (await scanUsage({ env, extraDirs: roots.extraDirs, includeDefaults: true, threshold: settings.contextThreshold, useCache: this.deps.trusted?.() ?? true })).report;
      });
      this.report = report;
      for (const w of report.warnings) this.deps.log.warn(w);
      this.deps.log.info(`sessions: ${report.sessions.length} in ${Date.now() - started} ms; watching ${this.watcher.watchedRoots.join(', ') || 'the workspace only'}`);
    } catch (err) {
      this.deps.log.error(`sessions scan: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      void showWarning(`Context Compactor: cannot list sessions: ${describeError(err)}`);
    }
    this.rebuild();
  }

  /** Rebuilds the tree from the last report (a threshold change needs no rescan). */
  private rebuild(): void {
    if (this.disposed) return;
    const settings = this.deps.settings();
    this.provider.apply(buildSessionTree(this.report?.sessions ?? [], { threshold: settings.contextThreshold, homeDir: (this.deps.env ?? process.env).HOME }));
    const soon = this.tree.compactSoonCount;
    this.treeView.badge = soon > 0
      ? { value: soon, tooltip: `${soon} session${soon === 1 ? '' : 's'} at or above ${settings.contextThreshold.toLocaleString('en-US')} tokens of context` }
      : undefined;
    void this.setState(this.tree.sessionCount > 0 ? 'ready' : 'empty');
    this.scanned.fire(this.report);
  }

  /**
   * The sessions for something other than the view (the status bar): the first scan, a rescan when files changed
   * unseen, else the last report again (the status bar turned on after the view had scanned); later scans follow changes.
   */
  scanOnce(): void {
    if (this.state === 'idle' || this.stale) void this.refresh();
    else if (this.state !== 'scanning') this.rebuild();
  }

  dispose(): void {
    this.disposed = true;
    this.scanned.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
