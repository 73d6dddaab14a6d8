// A compaction's Accept / Discard decision lives on its diff editor (title-bar actions) until taken or the diff closes.
import * as vscode from 'vscode';

export type Decision = 'accept' | 'save-to-folder' | 'discard';

/**
 * Context key: the file names of the compacted (right-hand) preview documents still waiting for a decision; the
 * menus test `resourceFilename in` it (a file name is the one resource key that reads the same on every platform).
 */
export const PENDING_KEY = 'contextCompactor.pendingCompactions';

/** The right-hand document of a diff tab, when the tab is a diff. */
export function modifiedOf(tab: vscode.Tab): vscode.Uri | undefined {
  return tab.input instanceof vscode.TabInputTextDiff ? tab.input.modified : undefined;
}

export class PendingDecisions implements vscode.Disposable {
  /** By the compacted document's file name (unique per compaction: it holds the new session id). */
  private readonly waiting = new Map<string, (d: Decision) => void>();
  private readonly closing: vscode.Disposable;

  constructor(private readonly scheme: string) {
    // Closing the diff is a Discard: the decision cannot be lost with a dismissed toast.
    this.closing = vscode.window.tabGroups.onDidChangeTabs((e) => {
      for (const tab of e.closed) {
        const uri = modifiedOf(tab);
        if (uri?.scheme === this.scheme && !this.stillOpen(uri)) this.settle(nameOf(uri), 'discard');
      }
    });
  }

  /**
   * Resolves with the user's decision on the diff whose right side is `right`; called before the diff opens, so a
   * close right after it opened is seen (`vscode.diff` may not resolve for a diff closed while it opens).
   */
  wait(right: vscode.Uri): Promise<Decision> {
    this.settle(nameOf(right), 'discard');
    return new Promise((resolve) => {
      this.waiting.set(nameOf(right), resolve);
      void this.publish();
    });
  }

  /**
   * From a title-bar action: `arg` is the editor's resource (the diff's right side); from the palette, the active
   * tab's diff. False when no compaction waits there.
   */
  decide(arg: unknown, d: Decision): boolean {
    const uri = arg instanceof vscode.Uri ? arg : activeDiff();
    return uri?.scheme === this.scheme ? this.settle(nameOf(uri), d) : false;
  }

  private settle(key: string, d: Decision): boolean {
    const resolve = this.waiting.get(key);
    if (!resolve) return false;
    this.waiting.delete(key);
    resolve(d);
    void this.publish();
    return true;
  }

  private stillOpen(uri: vscode.Uri): boolean {
    return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => modifiedOf(t)?.toString() === uri.toString()));
  }

  private publish(): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', PENDING_KEY, [...this.waiting.keys()]);
  }

  dispose(): void {
    for (const key of [...this.waiting.keys()]) this.settle(key, 'discard');
    this.closing.dispose();
  }
}

/** The compacted document's file name; the original's (the diff's left side) stands for it. */
const nameOf = (uri: vscode.Uri): string => uri.path.slice(uri.path.lastIndexOf('/') + 1).replace(/\.original\.md$/, '.compacted.md');

function activeDiff(): vscode.Uri | undefined {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return tab ? modifiedOf(tab) : undefined;
}

/** Closes every diff tab whose right side is `right` (Discard, and Accept once written). */
/** Whether a diff tab still shows `right` (the compacted side). */
export function diffOpen(right: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => modifiedOf(t)?.toString() === right.toString()));
}

export async function closeDiff(right: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => modifiedOf(t)?.toString() === right.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs);
}
