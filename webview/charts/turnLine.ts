// Context size per turn as a plain-SVG line chart: recorded sizes solid, estimates dashed and hollow.
import type { TurnPoint } from '../../src/protocol/messages';
import { formatCompact, formatTokens, h, svg } from '../dom';
import { downsampleMinMax } from './downsample';

const HEIGHT = 180;
const PAD = { left: 52, right: 12, top: 10, bottom: 22 } as const;
/** Above this many points, markers would be a smear: draw lines only. */
const MAX_MARKERS = 400;

export function renderTurnLine(points: readonly TurnPoint[], width: number): Element {
  if (points.length === 0) return h('p', { class: 'empty', text: 'No turns in this session.' });
  const w = Math.max(240, Math.floor(width));
  const plotW = w - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const maxY = points.reduce((m, p) => Math.max(m, p.contextTokens), 1) * 1.05;
  const firstTurn = points[0]!.turn;
  const span = Math.max(1, points[points.length - 1]!.turn - firstTurn);
  const x = (p: TurnPoint): number => PAD.left + ((p.turn - firstTurn) / span) * plotW;
  const y = (p: TurnPoint): number => PAD.top + plotH - (p.contextTokens / maxY) * plotH;

  const chart = svg('svg', { class: 'turn-line', viewBox: `0 0 ${w} ${HEIGHT}`, width: w, height: HEIGHT, role: 'img' }, 'Context tokens per turn');
  for (let i = 0; i <= 4; i++) {
    const gy = PAD.top + (plotH * i) / 4;
    chart.append(svg('line', { class: 'grid', x1: PAD.left, x2: w - PAD.right, y1: gy, y2: gy }));
    const label = svg('text', { class: 'axis', x: PAD.left - 6, y: gy + 4, 'text-anchor': 'end' });
    label.textContent = formatCompact((maxY * (4 - i)) / 4);
    chart.append(label);
  }
  for (const [p, anchor] of [[points[0]!, 'start'], [points[points.length - 1]!, 'end']] as const) {
    const label = svg('text', { class: 'axis', x: x(p), y: HEIGHT - 6, 'text-anchor': anchor });
    label.textContent = `turn ${p.turn + 1}`;
    chart.append(label);
  }
  // Every point (estimates included) as a dashed trace, and the recorded ones as the solid line on top.
  chart.append(svg('path', { class: 'trace-all', d: pathOf(downsampleMinMax(points, plotW, (p) => p.contextTokens), x, y) }));
  const recorded = points.filter((p) => p.source === 'recorded');
  if (recorded.length > 1) chart.append(svg('path', { class: 'trace-recorded', d: pathOf(downsampleMinMax(recorded, plotW, (p) => p.contextTokens), x, y) }));
  if (points.length <= MAX_MARKERS) {
    for (const p of points) {
      chart.append(svg('circle', { class: `pt pt-${p.source}`, cx: x(p).toFixed(1), cy: y(p).toFixed(1), r: 3 },
        `Turn ${p.turn + 1}: ${formatTokens(p.contextTokens)} tokens (${p.source})`));
    }
  }
  return chart;
}

function pathOf(points: readonly TurnPoint[], x: (p: TurnPoint) => number, y: (p: TurnPoint) => number): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p).toFixed(1)} ${y(p).toFixed(1)}`).join('');
}

export function renderTurnLegend(): Element {
  return h('div', { class: 'legend turn-legend' },
    h('span', { class: 'key key-recorded', text: 'recorded by the agent' }),
    h('span', { class: 'key key-estimated', text: 'estimated' }));
}
