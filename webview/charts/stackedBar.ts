// Tokens by kind as one stacked SVG bar plus a legend; a segment or legend entry selects that kind.
import type { TokenKind } from '../../src/core/model/transcript';
import type { KindTotal } from '../../src/protocol/messages';
import { formatPercent, formatTokens, h, onActivate, svg } from '../dom';
import { KIND_LABEL, kindClass } from '../kinds';

const WIDTH = 1000;
/** A 50-token kind next to 100k tokens of tool output must still be visible and clickable. */
const MIN_SEGMENT = 4;

export function renderKindBar(byKind: readonly KindTotal[], selected: TokenKind | undefined, onSelect: (kind: TokenKind) => void): Element {
  const parts = byKind.filter((k) => k.tokens > 0);
  const total = parts.reduce((a, k) => a + k.tokens, 0);
  if (total === 0) return h('p', { class: 'empty', text: 'No tokens in this session.' });
  // Widths in viewBox units: small parts get MIN_SEGMENT, the rest shares what is left proportionally.
  const small = parts.filter((k) => (k.tokens / total) * WIDTH < MIN_SEGMENT);
  const bigTotal = total - small.reduce((a, k) => a + k.tokens, 0);
  const room = WIDTH - small.length * MIN_SEGMENT;
  const bar = svg('svg', { class: 'kind-bar', viewBox: `0 0 ${WIDTH} 28`, preserveAspectRatio: 'none', role: 'group' }, 'Tokens by kind');
  let x = 0;
  for (const k of parts) {
    const width = small.includes(k) ? MIN_SEGMENT : (k.tokens / bigTotal) * room;
    const seg = svg('rect', {
      class: `seg ${kindClass(k.kind)}${k.kind === selected ? ' selected' : ''}`,
      x: x.toFixed(2), y: 0, width: width.toFixed(2), height: 28,
      'data-kind': k.kind, role: 'button', tabindex: 0, 'aria-pressed': String(k.kind === selected),
    }, `${KIND_LABEL[k.kind]}: ${formatTokens(k.tokens)} tokens (${formatPercent(k.tokens, total)})`);
    onActivate(seg, () => onSelect(k.kind));
    bar.append(seg);
    x += width;
  }
  const legend = h('div', { class: 'legend kind-legend' });
  for (const k of parts) {
    const entry = h('button', { class: `legend-entry${k.kind === selected ? ' selected' : ''}`, attrs: { 'data-kind': k.kind, 'aria-pressed': String(k.kind === selected) } },
      h('span', { class: `swatch ${kindClass(k.kind)}` }),
      h('span', { class: 'legend-label', text: KIND_LABEL[k.kind] }),
      h('span', { class: 'num', text: formatTokens(k.tokens) }),
      h('span', { class: 'pct', text: formatPercent(k.tokens, total) }));
    entry.addEventListener('click', () => onSelect(k.kind));
    legend.append(entry);
  }
  return h('div', { class: 'kind-chart' }, bar, legend);
}
