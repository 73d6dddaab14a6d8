// Session header shared by every tab: title, file, totals with their provenance, Reload.
import type { CompositionView } from '../src/protocol/messages';
import { formatCompact, formatPercent, formatTokens, h } from './dom';

export function renderHeader(view: CompositionView, onReload: () => void): HTMLElement {
  const t = view.totals;
  const badge = document.createElement('vscode-badge');
  badge.textContent = t.source === 'recorded' ? 'calibrated on recorded usage' : 'estimate';
  badge.title = t.source === 'recorded'
    ? 'Block sizes are estimates scaled so the last request matches the size the agent logged.'
    : 'The transcript records no usage: all figures are offline estimates.';
  const total = h('div', { class: 'total' },
    h('span', { class: 'total-num', text: formatTokens(t.total) }),
    h('span', { class: 'total-unit', text: ' tokens in context' }),
    badge);
  if (t.contextWindow) total.append(h('span', { class: 'muted', text: ` ${formatPercent(t.total, t.contextWindow)} of a ${formatCompact(t.contextWindow)} window` }));
  const reload = document.createElement('vscode-button');
  reload.secondary = true;
  reload.textContent = 'Reload';
  reload.title = 'Read the transcript again (it may have grown)';
  reload.addEventListener('click', onReload);
  const meta = [view.agent, view.models.join(', '), `${formatTokens(t.messages)} messages`, `${formatTokens(t.turns)} turns`].filter(Boolean).join(' · ');
  const header = h('header', { class: 'session-header' },
    h('div', { class: 'title-row' }, h('h1', { text: view.title ?? 'Untitled session' }), reload),
    h('div', { class: 'meta', text: meta }),
    h('div', { class: 'meta file', text: view.file, title: view.file }),
    total);
  if (view.warnings.length > 0) {
    header.append(h('ul', { class: 'warnings' }, ...view.warnings.slice(0, 5).map((w) => h('li', { text: w }))));
  }
  return header;
}
