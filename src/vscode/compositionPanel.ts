// Webview panel host for one transcript: locked-down HTML, ready-gated posts, typed dispatch, restore.
import * as vscode from 'vscode';
import { loadCompositionModel, type CompositionModel } from '../node/compositionView';
import { isFromWebview, isWebviewState, type FromWebview, type ToWebview } from '../protocol/messages';
import { pickTranscriptFile, revealTranscriptLine } from './revealLine';
import { createNonce, webviewHtml } from './webviewHtml';

export const COMPOSITION_VIEW_TYPE = 'contextCompactor.composition';

let loads = 0;

/** One panel per transcript file; the panel's state (`{ file }`) lets the serializer reopen it. */
class CompositionPanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private ready = false;
  /** The latest session-level message; replayed on every `ready` (a hidden webview loses its DOM). */
  private status: ToWebview | undefined;
  private model: CompositionModel | undefined;
  private disposed = false;

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
    this.subscriptions.push(
      webview.onDidReceiveMessage((m: unknown) => { if (isFromWebview(m)) this.dispatch(m); }),
      // Without retainContextWhenHidden a hidden webview is torn down: hold posts until it says ready again.
      panel.onDidChangeViewState(() => { if (!panel.visible) this.ready = false; }),
      panel.onDidDispose(() => { this.dispose(); onDispose(); }),
    );
    void this.load();
  }

  reveal(): void {
    this.panel.reveal();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.subscriptions.forEach((d) => d.dispose());
    this.panel.dispose();
  }

  private post(message: ToWebview): void {
    if (message.type !== 'itemsLoaded') this.status = message;
    // Item pages are only asked for by a ready webview; one that went away asks again when back.
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  private dispatch(message: FromWebview): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.status) void this.panel.webview.postMessage(this.status);
        return;
      case 'reload':
        void this.load();
        return;
      case 'requestItems': {
        const model = this.model;
        if (!model || model.view.sessionId !== message.sessionId) return; // stale: an older load
        const page = model.page(message.filter, message.offset, message.limit);
        this.post({ type: 'itemsLoaded', sessionId: message.sessionId, requestId: message.requestId, filter: message.filter, ...page });
        return;
      }
      case 'jumpToSource':
        if (this.model?.view.sessionId !== message.sessionId) return;
        void revealTranscriptLine(this.file, message.line);
        return;
      default:
        message satisfies never;
    }
  }

  private async load(): Promise<void> {
    this.model = undefined;
    this.post({ type: 'sessionLoading', file: this.file });
    try {
      const model = await loadCompositionModel(this.file, (id) => `${id}#${++loads}`);
      if (this.disposed) return;
      this.model = model;
      this.panel.title = panelTitle(model.view.title ?? this.file);
      this.post({ type: 'sessionLoaded', sessionId: model.view.sessionId, view: model.view });
    } catch (e) {
      if (!this.disposed) this.post({ type: 'sessionFailed', file: this.file, message: e instanceof Error ? e.message : String(e) });
    }
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

  show(file: string): void {
    const existing = this.open.get(file);
    if (existing) return existing.reveal();
    const panel = vscode.window.createWebviewPanel(COMPOSITION_VIEW_TYPE, panelTitle(file), vscode.ViewColumn.Active, webviewOptions(this.extensionUri));
    this.adopt(panel, file);
  }

  /** The `contextCompactor.showComposition` handler: a Uri/path argument, the active .jsonl, or a file dialog. */
  async showFromCommand(arg?: unknown): Promise<void> {
    const file = await pickTranscriptFile(arg);
    if (file) this.show(file);
  }

  dispose(): void {
    this.registration.dispose();
    [...this.open.values()].forEach((p) => p.dispose());
    this.open.clear();
  }

  private adopt(panel: vscode.WebviewPanel, file: string): void {
    const created = new CompositionPanel(panel, file, this.extensionUri, () => {
      if (this.open.get(file) === created) this.open.delete(file);
    });
    this.open.set(file, created);
  }
}

/** Registers the panel serializer; call `show(file)` from the `contextCompactor.showComposition` command. */
export function registerCompositionPanel(extensionUri: vscode.Uri): CompositionPanels {
  return new CompositionPanels(extensionUri);
}
