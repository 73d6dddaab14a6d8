// The Sessions view: agent → project → session tree over the usage scanner, scanned in the background, kept live.
import * as vscode from 'vscode';
import type { UsageReport } from '../core/usage/types';
import { compactedCopies, type CompactedFacts } from '../node/sessions/compacted';
import { buildSessionTree, reconcile, SORT_KEYS, type SessionNode, type SessionTree, type SortKey, type TreeNode } from '../node/sessions/treeModel';
import { scanUsage } from '../node/usage/scanner';
import { describeError, type Logger } from './log.js';
import type { Settings } from './settingKeys.js';
import { resolveRoots, TranscriptWatcher } from './sessionsRoots.js';
import { SESSIONS_FILTERED_KEY, SESSIONS_SORT_KEY, SESSIONS_STATE_KEY, SESSIONS_VIEW_ID } from './viewIds.js';
import { CommandIds } from './commandIds.js';
import { showWarning } from './notify.js';

export type SessionsState = 'idle' | 'scanning' | 'empty' | 'ready';

class SessionsProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  tree: SessionTree = buildSessionTree([], { threshold: 1 });
  private static readonly actionCommands = [CommandIds.compactTranscript, CommandIds.resumeInTerminal, CommandIds.copyResumeCommand];

  constructor(private readonly onFirstLook: () => void) {}

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const state = node.kind === 'session' ? (node.children.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None)
      : node.kind === 'agent' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.iconPath = new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined);
    // Subagents: inspect, composition and reveal only (they are not resumed or compacted on their own).
    item.contextValue = node.kind !== 'session' ? node.kind : node.subagent ? 'subagent' : node.compactSoon ? 'session.compactSoon' : 'session';
    if (node.kind === 'session') {
      // No HTML; transcript text in it is escaped. Command links run only for our three commands, and their
      // arguments are built from the file path alone, never from transcript text.
      // No theme icons either: a `$(…)` in a title must stay text.
      const tip = new vscode.MarkdownString(`${node.tooltip}\n\n${this.actions(node)}`, false);
      tip.isTrusted = { enabledCommands: SessionsProvider.actionCommands };
      item.tooltip = tip;
      item.accessibilityInformation = { label: `${node.title}, ${node.description}${node.compactSoon ? ', compact soon' : ''}` };
    } else {
      item.tooltip = node.kind === 'project' ? `${node.where}\n${node.description}` : node.description;
    }
    return item;
  }

  /**
   * Hover actions: a handoff agent cannot resume from a file, a non-UUID id has no command; a subagent is neither
   * compacted nor resumed on its own (as its context menu says).
   */
  private actions(node: SessionNode): string {
    if (node.subagent) return '';
    const arg = encodeURIComponent(JSON.stringify([{ kind: 'session', file: node.file }]));
    const link = (label: string, command: string): string => `[${label}](command:${command}?${arg})`;
    const links = [link('Compact', CommandIds.compactTranscript)];
    if (node.resumeCommand !== undefined) {
      links.push(link('Resume in terminal', CommandIds.resumeInTerminal), link('Copy resume command', CommandIds.copyResumeCommand));
    }
    return links.join(' · ');
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      this.onFirstLook();
      return this.tree.agents;
    }
    return node.children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node.kind === 'agent') return undefined;
    return node.kind === 'session' && node.owner ? node.owner : node.parent;
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
  /** Workspace state: where the sort order is remembered. */
  readonly state?: vscode.Memento;
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
  /** The filter box's text ('' = none). */
  filter = '';
  sort: SortKey;
  private compacted = new Map<string, CompactedFacts>();

  constructor(private readonly deps: SessionsDeps) {
    const saved = deps.state?.get<string>(SESSIONS_SORT_KEY);
    this.sort = SORT_KEYS.find((k) => k === saved) ?? 'recency';
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
        const scanned = (await scanUsage({ env, extraDirs: roots.extraDirs, includeDefaults: true, threshold: settings.contextThreshold, useCache: this.deps.trusted?.() ?? true })).report;
        // Copies carry no usage: the few sessions without any are checked for our mark, and their context estimated.
        this.compacted = await compactedCopies(scanned.sessions);
        return scanned;
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
    this.provider.apply(buildSessionTree(this.report?.sessions ?? [], this.treeOptions(this.filter)));
    const soon = this.tree.compactSoonCount;
    this.treeView.message = this.filter
      ? `Filter: "${this.filter}" — ${this.tree.sessionCount} of ${this.tree.totalCount} sessions`
      : undefined;
    this.treeView.description = this.sort === 'recency' ? undefined : `by ${this.sort}`;
    void vscode.commands.executeCommand('setContext', SESSIONS_FILTERED_KEY, this.filter !== '');
    this.treeView.badge = soon > 0
      ? { value: soon, tooltip: `${soon} session${soon === 1 ? '' : 's'} to compact soon (at or above ${settings.contextThreshold.toLocaleString('en-US')} tokens of context, or 80 % of a smaller window)` }
      : undefined;
    void this.setState(this.tree.sessionCount > 0 ? 'ready' : 'empty');
    this.scanned.fire(this.report);
  }

  private treeOptions(filter: string): Parameters<typeof buildSessionTree>[1] {
    return { threshold: this.deps.settings().contextThreshold, homeDir: (this.deps.env ?? process.env).HOME, sort: this.sort, filter, compacted: this.compacted };
  }

  /** Shows only the sessions matching `text` (title, project, agent, file, id); '' shows all. */
  setFilter(text: string): void {
    this.filter = text.trim();
    this.rebuild();
  }

  async setSort(sort: SortKey): Promise<void> {
    this.sort = sort;
    await this.deps.state?.update(SESSIONS_SORT_KEY, sort);
    this.rebuild();
  }

  /** Every known session, whatever the filter, for pickers; `scan`: scan first if nothing was scanned, and wait for a scan in flight. */
  async allSessions(scan = true): Promise<SessionNode[]> {
    if (scan && this.state === 'idle') await this.refresh();
    else if (scan) await this.tail;
    const tree = buildSessionTree(this.report?.sessions ?? [], { ...this.treeOptions(''), sort: 'recency' });
    return tree.agents.flatMap((a) => a.children.flatMap((p) => p.children));
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
