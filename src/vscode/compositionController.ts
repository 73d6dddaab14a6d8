// The panel's logic without VS Code objects: ready gate, typed dispatch, stale-reply drops, reloads.
import type { CompositionModel } from '../node/compositionView';
import { isFromWebview, type FromWebview, type ToWebview } from '../protocol/messages';

/** What the controller needs from the panel; CompositionPanel wires these to a WebviewPanel. */
export interface ControllerPorts {
  post(message: ToWebview): void;
  load(file: string, sessionId: (transcriptId: string) => string): Promise<CompositionModel>;
  reveal(file: string, line: number): Promise<void>;
  setTitle(title: string): void;
}

let generation = 0;

export class CompositionController {
  private ready = false;
  /** The latest session-level message; replayed on every `ready` (a hidden webview loses its DOM). */
  private status: ToWebview | undefined;
  private model: CompositionModel | undefined;
  private disposed = false;

  constructor(readonly file: string, private readonly ports: ControllerPorts) {}

  /** Any message from the webview: checked by the protocol guard, then dispatched. */
  receive(message: unknown): void {
    if (!this.disposed && isFromWebview(message)) this.dispatch(message);
  }

  /** The webview was hidden (and, without retainContextWhenHidden, destroyed): hold posts until it is ready again. */
  hidden(): void {
    this.ready = false;
  }

  dispose(): void {
    this.disposed = true;
  }

  async load(): Promise<void> {
    this.model = undefined;
    this.post({ type: 'sessionLoading', file: this.file });
    try {
      // A new id per load, so pages asked for before a reload are recognised as stale.
      const model = await this.ports.load(this.file, (id) => `${id}#${++generation}`);
      if (this.disposed) return;
      this.model = model;
      this.ports.setTitle(model.view.title ?? this.file);
      this.post({ type: 'sessionLoaded', sessionId: model.view.sessionId, view: model.view });
    } catch (e) {
      if (!this.disposed) this.post({ type: 'sessionFailed', file: this.file, message: e instanceof Error ? e.message : String(e) });
    }
  }

  private post(message: ToWebview): void {
    if (message.type !== 'itemsLoaded') this.status = message;
    // Item pages are only asked for by a ready webview; one that went away asks again when back.
    if (this.ready) this.ports.post(message);
  }

  private dispatch(message: FromWebview): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.status) this.ports.post(this.status);
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
        void this.ports.reveal(this.file, message.line);
        return;
      default:
        message satisfies never;
    }
  }
}
