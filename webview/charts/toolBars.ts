// Tokens by tool as a bar list (calls + results); a row selects that tool's items.
import type { ToolTotal } from '../../src/protocol/messages';
import { formatPercent, formatTokens, h } from '../dom';

export function renderToolBars(byTool: readonly ToolTotal[], total: number, selected: string | undefined, onSelect: (tool: string) => void): Element {
  if (byTool.length === 0) return h('p', { class: 'empty', text: 'No tool calls in this session.' });
  const max = byTool.reduce((m, t) => Math.max(m, t.tokens), 1);
  const list = h('div', { class: 'tool-bars', attrs: { role: 'list' } });
  for (const t of byTool) {
    const fill = h('span', { class: 'tool-fill' });
    // CSSOM writes are allowed under our CSP (no 'unsafe-inline'); style attributes in markup are not.
    fill.style.width = `${Math.max(0.5, (t.tokens / max) * 100)}%`;
    const row = h('button', {
      class: `tool-row${t.tool === selected ? ' selected' : ''}`,
      title: `${t.tool}: ${formatTokens(t.tokens)} tokens in ${formatTokens(t.items)} items (${formatPercent(t.tokens, total)} of context)`,
      attrs: { 'data-tool': t.tool, 'aria-pressed': String(t.tool === selected), role: 'listitem' },
    },
    h('span', { class: 'tool-name', text: t.tool }),
    h('span', { class: 'tool-track' }, fill),
    h('span', { class: 'num', text: formatTokens(t.tokens) }),
    h('span', { class: 'pct', text: formatPercent(t.tokens, total) }));
    row.addEventListener('click', () => onSelect(t.tool));
    list.append(row);
  }
  return list;
}
