// Composition root: builds the services and registers every command, view and provider.
import { bundleStarted } from './vscode/activationClock.js'; // first: times the bundle's own loading too
import * as vscode from 'vscode';
import { bundledDocumentWorker, useDocumentThread } from './node/documentThread.js';
import { inspectFile } from './node/inspectFile.js';
import { CommandIds } from './vscode/commandIds.js';
import { registerCompactCommand } from './vscode/compactCommand.js';
import { registerCountExactlyCommand } from './vscode/countExactlyCommand.js';
import { registerEvalCommand } from './vscode/evalCommand.js';
import { registerHookCommands } from './vscode/hookCommands.js';
import { registerCompositionPanel, type CompositionPanels } from './vscode/compositionPanel.js';
import { registerInspectCommand } from './vscode/inspectCommand.js';
import { InspectionDocuments, inspectionScheme } from './vscode/inspectionDocuments.js';
import { createLogger } from './vscode/log.js';
import { PreviewDocuments, previewScheme } from './vscode/previewDocuments.js';
import { ApiKeyStore, registerApiKeyCommands } from './vscode/secrets.js';
import { readSettings } from './vscode/settings.js';
import { setSessionSource } from './vscode/pickTranscript.js';
import { registerSessionsCommands } from './vscode/sessionsCommands.js';
import { SessionsView } from './vscode/sessionsTree.js';
import { registerSearchCommand, SearchBox } from './vscode/searchBox.js';
import { ContextStatusBar } from './vscode/statusBar.js';
import type { TrustGate } from './vscode/trust.js';
import { showWarning } from './vscode/notify.js';

/** Every module of the bundle has run by now: loading took bundleLoaded - bundleStarted. */
const bundleLoaded = performance.now();

/** The status bar's first scan waits this long after activation, so startup work comes first. */
const STATUS_SCAN_DELAY_MS = 3000;

/** What activate() returns: handles for the integration tests (the Sessions view has no other way in). */
export interface ExtensionApi {
  readonly sessions: SessionsView;
  readonly status: ContextStatusBar;
  /** "Search sessions…": its open quick pick, and the composition panels a pick opens. */
  readonly search: SearchBox;
  readonly composition: CompositionPanels;
  /** This extension's own start-up in ms: running its bundle's modules plus activate(), not VS Code's wait between. */
  readonly activationMs: number;
  /** Sessions the document thread has read (a store's, a Cline task, a JSON chat): none was read on the host's thread. */
  readonly documentReads: () => number;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const activateStarted = performance.now();
  const channel = vscode.window.createOutputChannel('Context Compactor', { log: true });
  const log = createLogger(channel, 'extension');
  const keys = new ApiKeyStore(context.secrets);
  const documents = new InspectionDocuments(async (fsPath) => (await inspectFile(fsPath)).markdown);
  const previews = new PreviewDocuments();
  const composition = registerCompositionPanel(context.extensionUri); // also restores panels after a reload
  const trust: TrustGate = { trusted: () => vscode.workspace.isTrusted, warn: (m) => void showWarning(m) };
  // Store sessions, Cline tasks and JSON chats are read whole: on a worker thread, never on the host's own.
  const documentWorker = bundledDocumentWorker();
  const documentThread = documentWorker ? useDocumentThread(documentWorker) : undefined;
  if (documentThread) context.subscriptions.push(documentThread);

  context.subscriptions.push(
    channel,
    documents,
    previews,
    vscode.workspace.registerTextDocumentContentProvider(inspectionScheme, documents),
    vscode.workspace.registerTextDocumentContentProvider(previewScheme, previews),
    registerInspectCommand(documents, createLogger(channel, 'inspect')),
    registerCompactCommand({ settings: () => readSettings(), keys, log: createLogger(channel, 'compact'), previews, trust, storage: context.globalStorageUri }),
    composition,
    vscode.commands.registerCommand(CommandIds.showComposition, (arg?: unknown) => composition.showFromCommand(arg)),
    registerCountExactlyCommand({ settings: () => readSettings(), keys, log: createLogger(channel, 'count'), trust }),
    registerApiKeyCommands(keys, () => readSettings()['summary.provider'], createLogger(channel, 'secrets')),
    registerHookCommands({ extensionPath: context.extensionUri.fsPath, storage: context.globalStorageUri, log: createLogger(channel, 'hook'), trust }),
  );
  // Sessions view: creating it is cheap; the first scan waits until the view is shown, or (status bar on) until
  // startup has settled — it then reads only what changed since the last scan (the usage cache).
  const statusOn = (): boolean => readSettings().statusBar;
  const sessions = new SessionsView({ settings: () => readSettings(), log: createLogger(channel, 'sessions'), trusted: () => vscode.workspace.isTrusted, keepFresh: statusOn, state: context.workspaceState });
  // Commands that need a session offer the view's sessions by title.
  setSessionSource((scan) => sessions.allSessions(scan));
  const status = new ContextStatusBar();
  const search = new SearchBox({ settings: () => readSettings(), panels: composition, log: createLogger(channel, 'search'), trusted: () => vscode.workspace.isTrusted });
  context.subscriptions.push(
    search, registerSearchCommand(search),
    sessions, status, { dispose: () => setSessionSource(undefined) }, registerSessionsCommands(sessions, createLogger(channel, 'sessions'), trust),
    registerEvalCommand({ settings: () => readSettings(), keys, log: createLogger(channel, 'eval'), trust, sessions, storage: context.globalStorageUri }),
    sessions.onDidScan((report) => status.update(statusOn() ? report : undefined, readSettings().contextThreshold)),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('contextCompactor.statusBar') && statusOn()) sessions.scanOnce(); }),
  );
  if (statusOn()) {
    const timer = setTimeout(() => sessions.scanOnce(), STATUS_SCAN_DELAY_MS);
    context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  }

  const activationMs = bundleLoaded - bundleStarted + (performance.now() - activateStarted);
  log.info(`activated ${context.extension.id} ${String(context.extension.packageJSON.version)} in ${activationMs.toFixed(1)} ms`);
  return { sessions, status, search, composition, activationMs, documentReads: () => documentThread?.answered('session') ?? 0 };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
