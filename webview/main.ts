// Webview entry: registers the controls used, builds the tabbed layout, routes host messages.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { TAB_IDS, type TabId, type ToWebview, type WebviewState } from '../src/protocol/messages';
import { createApi } from './api';
import { createCleanupTab } from './cleanup';
import { createCompositionTab } from './composition';
import { h } from './dom';
import { renderHeader } from './header';
import { createSimulatorTab } from './simulator';

const api = createApi();
const app = document.getElementById('app') ?? document.body;
let file: string | undefined;
/** State saved by the previous instance of this webview (hidden and shown again, or a window reload). */
const restored = api.getState();

/** Every part of the state is saved through here, so one tab's change keeps the others' values. */
function saveState(patch: Partial<WebviewState>): void {
  if (!file) return;
  const current = api.getState();
  const base: WebviewState = current?.file === file ? current : { file };
  const next: Record<string, unknown> = { ...base, ...patch };
  // JSON state: an undefined field (a closed selection) is dropped rather than stored.
  for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
  api.setState(next as unknown as WebviewState);
}

const composition = createCompositionTab(api, (selected) => saveState({ selected }));
const simulator = createSimulatorTab(api, restored?.policy, (policy) => saveState({ policy }));
const cleanup = createCleanupTab(api, restored?.cleanup, (options) => saveState({ cleanup: options }));

const TABS: Readonly<Record<TabId, { readonly label: string; readonly panel: HTMLElement; activate(): void }>> = {
  composition: { label: 'Composition', panel: composition.element, activate: () => undefined },
  simulator: { label: 'Simulator', panel: simulator.element, activate: () => simulator.activate() },
  cleanup: { label: 'Cleanup', panel: cleanup.element, activate: () => cleanup.activate() },
};
let activeTab: TabId = restored?.tab ?? 'composition';

function layout(): HTMLElementTagNameMap['vscode-tabs'] {
  const tabs = document.createElement('vscode-tabs');
  for (const id of TAB_IDS) {
    tabs.append(h('vscode-tab-header', { text: TABS[id].label, attrs: { slot: 'header', 'data-tab': id } }));
    const panel = document.createElement('vscode-tab-panel');
    panel.append(TABS[id].panel);
    tabs.append(panel);
  }
  tabs.selectedIndex = TAB_IDS.indexOf(activeTab);
  tabs.addEventListener('vsc-tabs-select', (e) => {
    activeTab = TAB_IDS[e.detail.selectedIndex] ?? 'composition';
    saveState({ tab: activeTab });
    // The Simulator and Cleanup ask the host only once they are looked at.
    TABS[activeTab].activate();
  });
  return tabs;
}

const tabs = layout();
const reload = (): void => api.post('reload', {});

function showStatus(...content: Node[]): void {
  app.replaceChildren(h('div', { class: 'status' }, ...content));
}

function route(msg: ToWebview): void {
  switch (msg.type) {
    case 'sessionLoading': {
      file = msg.file;
      const saved = api.getState();
      // Persist the file right away: a panel whose load fails must still be restorable.
      api.setState(saved?.file === msg.file ? saved : { file: msg.file });
      showStatus(document.createElement('vscode-progress-ring'), h('span', { text: `Reading ${msg.file}…` }));
      return;
    }
    case 'sessionLoaded': {
      const saved = api.getState();
      file = msg.view.file;
      // Attach first: the line chart measures its width.
      app.replaceChildren(renderHeader(msg.view, reload), tabs);
      composition.show(msg.view, saved?.file === file ? saved.selected : undefined);
      simulator.session(msg.sessionId);
      cleanup.session(msg.sessionId);
      TABS[activeTab].activate();
      return;
    }
    case 'sessionFailed': {
      const retry = document.createElement('vscode-button');
      retry.textContent = 'Try again';
      retry.addEventListener('click', reload);
      showStatus(h('p', { class: 'error', text: `Could not read ${msg.file}: ${msg.message}` }), retry);
      return;
    }
    case 'itemsLoaded':
      composition.itemsLoaded(msg);
      return;
    case 'simulationLoaded':
      simulator.answer(msg);
      return;
    case 'cleanupPreviewed':
      cleanup.answer(msg);
      return;
    case 'messageFocused': {
      if (activeTab !== 'composition') {
        activeTab = 'composition';
        tabs.selectedIndex = TAB_IDS.indexOf('composition');
        saveState({ tab: activeTab });
      }
      const target = composition.focus(msg.focus);
      const sessionId = msg.sessionId;
      // After layout: scroll the matched row to the middle, give it focus, and tell the host it is on screen.
      requestAnimationFrame(() => {
        target.scrollIntoView({ block: 'center' });
        target.focus({ preventScroll: true });
        api.post('focusShown', { sessionId, message: msg.focus.target.message });
      });
      return;
    }
    case 'analysisFailed':
      if (msg.what === 'simulate') simulator.answer(msg);
      else cleanup.answer(msg);
      return;
    default:
      msg satisfies never;
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const data = event.data;
  // The host is trusted, but other frames can post too: ignore anything without a message shape.
  if (typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string') route(data as ToWebview);
});
api.post('ready', {});
