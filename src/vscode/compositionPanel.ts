// Webview panels for transcripts: locked-down HTML, one panel per file, restore after a window reload.
import * as vscode from 'vscode';
import { cleanupOptionsFrom } from '../node/compactOptions';
import { loadCompositionModel } from '../node/compositionView';
import { isWebviewState, type MessageTarget } from '../protocol/messages';
import { CommandIds } from './commandIds';
import type { CompactArgs } from './compactCommand';
import { CompactFailed } from './compact/outcome.js';
import { CompositionController } from './compositionController';
import { pickTranscript } from './pickTranscript';
import { revealTranscriptLine } from './revealLine';
import { readSettings } from './settings';
import { createNonce, webviewHtml } from './webviewHtml';
import { showError } from './notify.js';

export const COMPOSITION_VIEW_TYPE = 'contextCompactor.composition';

/** One panel per transcript file; the panel's state (`{ file }`) lets the serializer reopen it. */
class CompositionPanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly controller: CompositionController;
  private disposed = false;
  /** The message the webview last said it scrolled to and highlighted (0-based), for the integration tests. */
  focusShown: number | undefined;

  constructor(readonly panel: vscode.WebviewPanel, readonly file: string, extensionUri: vscode.Uri, onDispose: () => void) {
    const webview = panel.webview;
    webview.options = webviewOptions(extensionUri);
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'composition.css')).toString(),
      title: panel.title,
    });
    this.controller = new CompositionController(file, {
      post: (message) => void webview.postMessage(message),
      load: loadCompositionModel,
      reveal: (path, line) => revealTranscriptLine(path, line).then(undefined, (e: unknown) => {
        void showError(`Cannot open ${path}: ${e instanceof Error ? e.message : String(e)}`);
      }),
      setTitle: (title) => { panel.title = panelTitle(title); },
      focusShown: (message) => { this.focusShown = message; },
      defaults: () => {
        const settings = readSettings();
        return { cleanup: cleanupOptionsFrom(settings), threshold: settings.contextThreshold };
      },
      // The command reports its own failures; this only catches a command that is not registered.
      openDiff: (path, cleanup, continueIn) => Promise.resolve(vscode.commands.executeCommand(continueIn ? CommandIds.continueIn : CommandIds.compactTranscript, vscode.Uri.file(path), { cleanup } satisfies CompactArgs))
        .then(() => undefined, (e: unknown) => { if (!(e instanceof CompactFailed)) void showError(`Cannot compact ${path}: ${e instanceof Error ? e.message : String(e)}`); }),
    });
    this.subscriptions.push(
      webview.onDidReceiveMessage((m: unknown) => this.controller.receive(m)),
      panel.onDidChangeViewState(() => { if (!panel.visible) this.controller.hidden(); }),
      panel.onDidDispose(() => { this.dispose(); onDispose(); }),
    );
    void this.controller.load();
  }

  reveal(): void {
    this.panel.reveal();
  }

  focus(target: MessageTarget): void {
    this.focusShown = undefined;
    this.controller.focus(target);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.controller.dispose();
    this.subscriptions.forEach((d) => d.dispose());
    this.panel.dispose();
  }
}

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

function panelTitle(name: string): string {
  const short = name.split(/[\\/]/).pop() ?? name;
  return `Context: ${short.length > 40 ? `${short.slice(0, 39)}…` : short}`;
}

/** Opens (or reveals) the panel of a transcript file; registered once by `registerCompositionPanel`. */
export class CompositionPanels implements vscode.Disposable {
  private readonly open = new Map<string, CompositionPanel>();
  private readonly registration: vscode.Disposable;

  constructor(private readonly extensionUri: vscode.Uri) {
    this.registration = vscode.window.registerWebviewPanelSerializer(COMPOSITION_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        if (isWebviewState(state)) this.adopt(panel, state.file);
        else panel.dispose(); // nothing to restore: the panel was closed before a file was shown
      },
    });
  }

  /** Opens or reveals the file's panel; with `target`, at that message (a search match). */
  show(file: string, target?: MessageTarget): void {
    let shown = this.open.get(file);
    if (shown) shown.reveal();
    else {
      const panel = vscode.window.createWebviewPanel(COMPOSITION_VIEW_TYPE, panelTitle(file), vscode.ViewColumn.Active, webviewOptions(this.extensionUri));
      shown = this.adopt(panel, file);
    }
    if (target) shown.focus(target);
  }

  /** The message the file's panel last scrolled to and highlighted, as its webview reported it (0-based). */
  focusShownIn(file: string): number | undefined {
    return this.open.get(file)?.focusShown;
  }

  /**
   * The `contextCompactor.showComposition` handler: a Uri argument, the active .jsonl, or a file dialog.
   * Resolves to the file shown (for tests and callers), or undefined when the user picked nothing.
   */
  async showFromCommand(arg?: unknown): Promise<string | undefined> {
    const uri = await pickTranscript(arg, 'Show context composition');
    if (uri) this.show(uri.fsPath);
    return uri?.fsPath;
  }

  dispose(): void {
    this.registration.dispose();
    [...this.open.values()].forEach((p) => p.dispose());
    this.open.clear();
  }

  private adopt(panel: vscode.WebviewPanel, file: string): CompositionPanel {
    const created = new CompositionPanel(panel, file, this.extensionUri, () => {
      if (this.open.get(file) === created) this.open.delete(file);
    });
    this.open.set(file, created);
    return created;
  }
}

/** Registers the panel serializer; call `show(file)` from the `contextCompactor.showComposition` command. */
export function registerCompositionPanel(extensionUri: vscode.Uri): CompositionPanels {
  return new CompositionPanels(extensionUri);
}
