// The Simulator's charts: context per request without vs with the policy (threshold, compactions), and billed input.
import type { SimulationView } from '../../src/protocol/messages';
import { formatCompact, formatTokens, h, svg } from '../dom';
import { lineFrame, PAD } from './lineFrame';
import { compactionMarkers, cumulativeBilled } from './simSeries';

const requestLabel = (sim: SimulationView) => (i: number): string => `request ${i + 1} of ${sim.turns.length}`;

export function renderContextChart(sim: SimulationView, width: number): Element {
  if (sim.turns.length === 0) return h('p', { class: 'empty', text: 'No model requests in this session.' });
  const threshold = sim.policy.threshold;
  const f = lineFrame({
    width, height: 220, count: sim.turns.length, cls: 'sim-context', title: 'Context per request, without and with the policy', xLabel: requestLabel(sim),
    // The threshold stays on the chart even when the session never gets near it.
    maxY: Math.max(sim.totals.peakWithout, sim.totals.peakWith, threshold) * 1.05,
  });
  const ty = f.y(threshold);
  f.chart.append(svg('line', { class: 'sim-threshold', x1: PAD.left, x2: PAD.left + f.plotW, y1: ty, y2: ty }, `Threshold: ${formatTokens(threshold)} tokens`));
  const label = svg('text', { class: 'sim-threshold-label', x: PAD.left + f.plotW - 4, y: ty - 4, 'text-anchor': 'end' });
  label.textContent = `threshold ${formatCompact(threshold)}`;
  f.chart.append(label);
  const turns = sim.turns;
  f.chart.append(
    svg('path', { class: 'sim-without', d: f.path(turns.map((t, i) => ({ i, v: t.contextTokens })), (p) => p.i, (p) => p.v) }),
    svg('path', { class: 'sim-with', d: f.path(turns.map((t, i) => ({ i, v: t.contextTokensWithPolicy })), (p) => p.i, (p) => p.v) }),
  );
  for (const i of compactionMarkers(turns, f.plotW / 3)) {
    const t = turns[i]!;
    f.chart.append(svg('circle', { class: 'sim-compaction', cx: f.x(i).toFixed(1), cy: f.y(t.contextTokensWithPolicy).toFixed(1), r: 3.5 },
      `Request ${i + 1}: compacted first; ${formatTokens(t.contextTokensWithPolicy)} tokens sent instead of ${formatTokens(t.contextTokens)}`));
  }
  return f.chart;
}

export function renderBilledChart(sim: SimulationView, width: number): Element {
  if (sim.turns.length === 0) return h('span');
  const cumulative = cumulativeBilled(sim.turns);
  const last = cumulative[cumulative.length - 1]!;
  const f = lineFrame({
    width, height: 140, count: cumulative.length, cls: 'sim-billed', title: 'Cumulative billed input tokens, without and with the policy', xLabel: requestLabel(sim),
    maxY: Math.max(last.without, last.with) * 1.05,
  });
  f.chart.append(
    svg('path', { class: 'sim-without', d: f.path(cumulative, (p) => p.i, (p) => p.without) }),
    svg('path', { class: 'sim-with', d: f.path(cumulative, (p) => p.i, (p) => p.with) }),
  );
  return f.chart;
}

export function renderSimLegend(): Element {
  return h('div', { class: 'legend sim-legend' },
    h('span', { class: 'key key-without', text: 'without compaction' }),
    h('span', { class: 'key key-with', text: 'with the policy' }),
    h('span', { class: 'key key-threshold', text: 'threshold' }),
    h('span', { class: 'key key-compaction', text: 'compaction' }));
}
