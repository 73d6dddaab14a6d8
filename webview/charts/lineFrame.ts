// Frame shared by the simulator's line charts: SVG, y grid with compact labels, x end labels, path helper.
import { formatCompact, svg } from '../dom';
import { downsampleMinMax } from './downsample';

export const PAD = { left: 52, right: 12, top: 10, bottom: 22 } as const;

export interface Frame {
  readonly chart: SVGSVGElement;
  readonly plotW: number;
  x(i: number): number;
  y(v: number): number;
  /** A polyline through `points`, min/max-downsampled to about two vertices per pixel column. */
  path<T>(points: readonly T[], index: (p: T) => number, value: (p: T) => number): string;
}

/** `count` points spread over the width; y from 0 to `maxY`; `xLabel(i)` names the first and last. */
export function lineFrame(opts: { width: number; height: number; count: number; maxY: number; cls: string; title: string; xLabel: (i: number) => string }): Frame {
  const w = Math.max(240, Math.floor(opts.width));
  const plotW = w - PAD.left - PAD.right;
  const plotH = opts.height - PAD.top - PAD.bottom;
  const maxY = Math.max(1, opts.maxY);
  const span = Math.max(1, opts.count - 1);
  const x = (i: number): number => PAD.left + (i / span) * plotW;
  const y = (v: number): number => PAD.top + plotH - (v / maxY) * plotH;
  const chart = svg('svg', { class: opts.cls, viewBox: `0 0 ${w} ${opts.height}`, width: w, height: opts.height, role: 'img' }, opts.title);
  for (let g = 0; g <= 4; g++) {
    const gy = PAD.top + (plotH * g) / 4;
    chart.append(svg('line', { class: 'grid', x1: PAD.left, x2: w - PAD.right, y1: gy, y2: gy }));
    const label = svg('text', { class: 'axis', x: PAD.left - 6, y: gy + 4, 'text-anchor': 'end' });
    label.textContent = formatCompact((maxY * (4 - g)) / 4);
    chart.append(label);
  }
  for (const [i, anchor] of [[0, 'start'], [opts.count - 1, 'end']] as const) {
    const label = svg('text', { class: 'axis', x: x(i), y: opts.height - 6, 'text-anchor': anchor });
    label.textContent = opts.xLabel(i);
    chart.append(label);
  }
  return {
    chart, plotW, x, y,
    path: (points, index, value) => downsampleMinMax(points, plotW, value)
      .map((p, k) => `${k === 0 ? 'M' : 'L'}${x(index(p)).toFixed(1)} ${y(value(p)).toFixed(1)}`).join(''),
  };
}
