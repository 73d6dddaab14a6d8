// Webview entry: registers the controls used, builds the tabbed layout, routes host messages.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import type { ToWebview } from '../src/protocol/messages';
import { createApi } from './api';
import { createCompositionTab } from './composition';
import { h } from './dom';
import { renderHeader } from './header';

const api = createApi();
const app = document.getElementById('app') ?? document.body;
let file: string | undefined;
const composition = createCompositionTab(api, (selected) => { if (file) api.setState({ file, ...(selected ? { selected } : {}) }); });

/** The tabs that exist. Simulator and Cleanup join this list when they are implemented. */
const TABS: readonly { readonly id: string; readonly label: string; readonly panel: HTMLElement }[] = [
  { id: 'composition', label: 'Composition', panel: composition.element },
];

function layout(): HTMLElement {
  const tabs = document.createElement('vscode-tabs');
  for (const tab of TABS) {
    tabs.append(h('vscode-tab-header', { text: tab.label, attrs: { slot: 'header', id: `tab-${tab.id}` } }));
    const panel = document.createElement('vscode-tab-panel');
    panel.append(tab.panel);
    tabs.append(panel);
  }
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
