// One item row (top items and segment lists): tokens, kind, tool, preview, line; activating it jumps to source.
import type { ItemRow } from '../src/protocol/messages';
import { formatTokens, h } from './dom';
import { KIND_LABEL, kindClass } from './kinds';

export function renderItemRow(row: ItemRow, onJump: (line: number) => void): HTMLElement {
  const el = h('button', {
    class: 'item-row',
    title: `Open line ${row.line} of the transcript`,
    attrs: { 'data-line': String(row.line) },
  },
  h('span', { class: 'num', text: formatTokens(row.tokens) }),
  h('span', { class: 'item-kind' }, h('span', { class: `swatch ${kindClass(row.kind)}` }), h('span', { text: KIND_LABEL[row.kind] })),
  h('span', { class: 'item-tool', text: row.tool ?? '' }),
  // Transcript text: textContent only (see dom.ts), whatever markup it contains.
  h('span', { class: 'item-preview', text: row.preview }),
  h('span', { class: 'item-line', text: `L${row.line}` }));
  el.addEventListener('click', () => onJump(row.line));
  return el;
}

/** Stand-in for a row whose page has not arrived yet. */
export function renderPendingRow(): HTMLElement {
  return h('div', { class: 'item-row pending', text: '…' });
}

export function renderItemHeader(): HTMLElement {
  return h('div', { class: 'item-row item-head', attrs: { 'aria-hidden': 'true' } },
    h('span', { class: 'num', text: 'Tokens' }),
    h('span', { class: 'item-kind', text: 'Kind' }),
    h('span', { class: 'item-tool', text: 'Tool' }),
    h('span', { class: 'item-preview', text: 'Preview' }),
    h('span', { class: 'item-line', text: 'Line' }));
}
