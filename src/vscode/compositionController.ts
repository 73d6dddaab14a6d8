// The panel's logic without VS Code objects: ready gate, typed dispatch, stale-reply drops, reloads.
import type { CleanupOptions } from '../core/cleanup/types';
import { cleanupOptionsOf, cleanupPreview, defaultCleanupInput, defaultPolicy, simulationView, type AnalysisDefaults } from '../node/analysisView';
import type { CompositionModel } from '../node/compositionView';
import { isFromWebview, type FromWebview, type MessageTarget, type ToWebview } from '../protocol/messages';

/** What the controller needs from the panel; CompositionPanel wires these to a WebviewPanel. */
export interface ControllerPorts {
  post(message: ToWebview): void;
  load(file: string, sessionId: (transcriptId: string) => string): Promise<CompositionModel>;
  reveal(file: string, line: number): Promise<void>;
  setTitle(title: string): void;
  /** The settings the Simulator and Cleanup tabs start from; read on each use, so edits apply at once. */
  defaults(): AnalysisDefaults;
  /** Runs the Compact transcript flow (diff preview, Accept/Discard) with these cleanup options; `continueIn`: Continue in…. */
  openDiff(file: string, cleanup: CleanupOptions, continueIn?: boolean): Promise<void>;
  /** The webview says the focused message is on screen (0-based index). */
  focusShown?(message: number): void;
  /** Runs a recomputation later; the panel passes setImmediate (the default). */
  defer?(run: () => void): void;
}

type Recompute = Extract<FromWebview, { type: 'simulate' | 'previewCleanup' }>;
const RECOMPUTES = ['simulate', 'previewCleanup'] as const;

let generation = 0;

export class CompositionController {
  private ready = false;
  /** The latest session-level message; replayed on every `ready` (a hidden webview loses its DOM). */
  private status: ToWebview | undefined;
  private model: CompositionModel | undefined;
  private disposed = false;
  /** The latest request of each kind not yet computed: a burst of slider moves costs one run. */
  private pending: { simulate?: Recompute; previewCleanup?: Recompute } = {};
  /** Highest requestId taken per kind; an older one arriving late is stale. Reset per webview and per load. */
  private lastRequest = { simulate: -1, previewCleanup: -1 };
  private scheduled = false;
  /** The search match the panel was opened at, shown again after each load and replayed on `ready`. */
  private target: MessageTarget | undefined;

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
    this.forgetRequests();
    this.post({ type: 'sessionLoading', file: this.file });
    try {
      // A new id per load, so pages asked for before a reload are recognised as stale.
      const model = await this.ports.load(this.file, (id) => `${id}#${++generation}`);
      if (this.disposed) return;
      this.model = model;
      this.ports.setTitle(model.view.title ?? this.file);
      this.post({ type: 'sessionLoaded', sessionId: model.view.sessionId, view: model.view });
      this.postFocus();
    } catch (e) {
      if (!this.disposed) this.post({ type: 'sessionFailed', file: this.file, message: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Opens the panel at a search match: now if the session is loaded, else once it is. */
  focus(target: MessageTarget): void {
    this.target = target;
    this.postFocus();
  }

  private postFocus(): void {
    if (this.target && this.model) this.post({ type: 'messageFocused', sessionId: this.model.view.sessionId, focus: this.model.focus(this.target) });
  }

  private post(message: ToWebview): void {
    if (message.type === 'sessionLoading' || message.type === 'sessionLoaded' || message.type === 'sessionFailed') this.status = message;
    // Item pages are only asked for by a ready webview; one that went away asks again when back.
    if (this.ready) this.ports.post(message);
  }

  private dispatch(message: FromWebview): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.forgetRequests(); // a new webview instance numbers its requests from 0 again
        if (this.status) this.ports.post(this.status);
        if (this.status?.type === 'sessionLoaded') this.postFocus();
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
      case 'simulate':
      case 'previewCleanup':
        if (this.model?.view.sessionId !== message.sessionId || message.requestId <= this.lastRequest[message.type]) return;
        this.lastRequest[message.type] = message.requestId;
        this.pending[message.type] = message;
        this.schedule();
        return;
      case 'focusShown':
        if (this.model?.view.sessionId === message.sessionId) this.ports.focusShown?.(message.message);
        return;
      case 'openDiff':
        if (this.model?.view.sessionId !== message.sessionId) return;
        void this.ports.openDiff(this.file, cleanupOptionsOf(message.options, this.ports.defaults().cleanup), message.continueIn === true);
        return;
      default:
        message satisfies never;
    }
  }

  private forgetRequests(): void {
    this.pending = {};
    this.lastRequest = { simulate: -1, previewCleanup: -1 };
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    (this.ports.defer ?? setImmediate)(() => this.runOne());
  }

  /** One recomputation per turn of the event loop, so a newer request can replace the other pending one. */
  private runOne(): void {
    this.scheduled = false;
    const type = RECOMPUTES.find((t) => this.pending[t]);
    const message = type && this.pending[type];
    if (!type || !message) return;
    delete this.pending[type];
    const model = this.model;
    if (this.disposed || model?.view.sessionId !== message.sessionId) return;
    const { sessionId, requestId } = message;
    try {
      const defaults = this.ports.defaults();
      if (message.type === 'simulate') {
        this.post({ type: 'simulationLoaded', sessionId, requestId, simulation: simulationView(model.session, message.policy ?? defaultPolicy(defaults), defaults.cleanup) });
      } else {
        this.post({ type: 'cleanupPreviewed', sessionId, requestId, preview: cleanupPreview(model.session, message.options ?? defaultCleanupInput(defaults), defaults.cleanup) });
      }
    } catch (e) {
      this.post({ type: 'analysisFailed', sessionId, requestId, what: type, message: e instanceof Error ? e.message : String(e) });
    }
    if (RECOMPUTES.some((t) => this.pending[t])) this.schedule();
  }
}
