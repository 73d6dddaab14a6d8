// Small moves on the workbench that the screens share: the Sessions view, its nodes, tabs, pauses.
import * as vscode from 'vscode';
import { activeExtension, waitFor } from '../suite/fixtures.js';

export { waitFor };

/**
 * The extension's API, loosely typed on purpose: other parts of issue #23 reshape the tree and the status bar, and
 * the screens only need to find nodes by file and ask for labels.
 */
export async function extensionApi(): Promise<any> {
  return (await activeExtension()).exports;
}

/** The Sessions view, shown and scanned. */
export async function sessionsView(): Promise<any> {
  const view = (await extensionApi()).sessions;
  await vscode.commands.executeCommand('workbench.view.extension.contextCompactor');
  await waitFor(() => view.state === 'ready', 60_000);
  if (view.state !== 'ready') throw new Error(`the Sessions view is ${view.state} after 60 s`);
  return view;
}

/** Every node of the tree, depth first, as the provider gives them (whatever the nesting). */
export function allNodes(view: any): any[] {
  const out: any[] = [];
  const walk = (nodes: any[]): void => {
    for (const n of nodes) {
      out.push(n);
      walk(n.kind === 'session' && !n.children ? [] : (view.provider.getChildren(n) ?? []));
    }
  };
  walk(view.provider.getChildren() ?? []);
  return out;
}

/** The session whose file name holds the first id found, else the first session listed (a screen still gets one). */
export function firstSession(view: any, ids: readonly string[]): any {
  const sessions = allNodes(view).filter((n) => n.kind === 'session');
  const found = ids.map((id) => sessions.find((n) => String(n.file).includes(id))).find(Boolean) ?? sessions[0];
  if (!found) throw new Error('the Sessions view lists no session');
  return found;
}

export function treeLabel(view: any, node: any): string {
  const label = view.provider.getTreeItem(node).label;
  return typeof label === 'string' ? label : String(label?.label ?? '');
}

/** Expands every agent and its first project (session rows of each agent), then selects the featured session. */
export async function revealTree(view: any, featured: readonly string[]): Promise<void> {
  for (const agent of view.provider.getChildren() ?? []) {
    await view.treeView.reveal(agent, { expand: true, select: false });
    const first = (view.provider.getChildren(agent) ?? [])[0];
    if (first && first.kind !== 'session') await view.treeView.reveal(first, { expand: true, select: false });
  }
  await view.treeView.reveal(firstSession(view, featured), { select: true, focus: true });
}

export const openTabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

/** The open diff editors (a compaction's preview is one). */
export const diffTabs = (): vscode.Tab[] => openTabs().filter((t) => t.input instanceof vscode.TabInputTextDiff);

export async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await vscode.commands.executeCommand('notifications.clearAll');
}

/** A pause for the workbench to draw (webviews, hovers); screens never assert on time. */
export const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits for a command left running (a dialog just dismissed) without failing the screen if it lingers. */
export async function whenSettled(pending: Thenable<unknown> | undefined, ms: number): Promise<void> {
  if (pending) await Promise.race([Promise.resolve(pending).catch(() => undefined), settle(ms)]);
}
