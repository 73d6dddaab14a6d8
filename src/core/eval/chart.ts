// The eval's picture: history reduction (x) against probes kept (y), one dot per session and strategy, as SVG that
// reads on a light and a dark editor theme alike.
import type { EvalRow, StrategyId } from './types';

export const STRATEGY_COLORS: Readonly<Record<StrategyId, string>> = {
  cleanup: '#2f7ed8', summary: '#d9822b', 'cleanup+summary': '#3aa361', rolling: '#8e5cc7', server: '#c8434b', vendor: '#7a7a7a',
};

/** Text and attribute values: file names come from the user's disk. */
export const escapeXml = (s: string): string => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The legend sits below the plot, three strategies a row: the picture stays legible shrunk into a narrow preview.
const W = 560, L = 56, R = 20, T = 40, PH = 300, LEGEND = T + PH + 50, ROW = 18, COL = 160;
const PW = W - L - R, H = LEGEND + 3 * ROW;
const x = (v: number): number => L + Math.max(0, Math.min(1, v)) * PW;
const y = (v: number): number => T + (1 - Math.max(0, Math.min(1, v))) * PH;
const f1 = (n: number): string => n.toFixed(1);
const GRID = 'stroke="currentColor" stroke-opacity="0.15"';
const SOFT = 'fill-opacity="0.75"';

/**
 * No background: the picture sits on the page's own. Every line and word is `currentColor` at some opacity, so shown
 * inline in VS Code's Markdown preview it takes the theme's text colour (checked in the host, light and dark). As a
 * file behind an <img> it inherits nothing and an SVG image's prefers-color-scheme does not follow the editor theme
 * (the web workbench reports light under a dark theme), so the file sets a mid-grey that reads on white and on dark.
 */
const FILE_INK = '#808080';

export interface ChartOptions {
  readonly title?: string;
  /** The name a dot's tooltip gives its session. */
  readonly nameOf?: (r: EvalRow) => string;
  /**
   * For inlining in an HTML page: the text colour comes from the page (no colour of its own), and the width from
   * the column (a preview beside the code is narrower than the picture; an <img> shrinks itself, inline SVG does not).
   */
  readonly inherit?: boolean;
}

/** Rows without both figures (skipped, failed, encrypted output) are not drawn; the legend says how many were. */
export function scatterSvg(all: readonly EvalRow[], every: readonly StrategyId[], o: ChartOptions = {}): string {
  // Whole sessions only: the segments before the agents' own compactions (vendor) have their own table.
  const rows = all.filter((r) => !r.segment);
  const strategies = every.filter((s) => s !== 'vendor');
  const title = o.title ?? 'History cut vs probes kept';
  const nameOf = o.nameOf ?? ((r: EvalRow): string => r.title ?? r.file.replace(/^.*[\\/]/, ''));
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" ${o.inherit ? `width="100%" style="max-width:${W}px"` : `width="${W}" height="${H}" color="${FILE_INK}"`} viewBox="0 0 ${W} ${H}" fill="currentColor" font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="${escapeXml(title)}">`,
    `<text x="${L}" y="20" font-size="14" font-weight="600">${escapeXml(title)}</text>`,
  ];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(`<line x1="${f1(x(t))}" y1="${T}" x2="${f1(x(t))}" y2="${T + PH}" ${GRID}/>`, `<line x1="${L}" y1="${f1(y(t))}" x2="${L + PW}" y2="${f1(y(t))}" ${GRID}/>`);
    out.push(`<text x="${f1(x(t))}" y="${T + PH + 16}" text-anchor="middle" ${SOFT}>${t * 100}%</text>`, `<text x="${L - 6}" y="${f1(y(t) + 4)}" text-anchor="end" ${SOFT}>${t * 100}%</text>`);
  }
  out.push(`<rect x="${L}" y="${T}" width="${PW}" height="${PH}" fill="none" stroke="currentColor" stroke-opacity="0.5"/>`);
  out.push(`<text x="${L + PW / 2}" y="${T + PH + 34}" text-anchor="middle">history cut (more is smaller) →</text>`);
  out.push(`<text transform="translate(16 ${T + PH / 2}) rotate(-90)" text-anchor="middle">probes kept →</text>`);
  // The ideal corner: everything cut, nothing lost.
  out.push(`<text x="${L + PW}" y="${T - 6}" text-anchor="end" fill="#3aa361">best: all cut, nothing lost ↗</text>`);
  let notDrawn = 0;
  strategies.forEach((s, i) => {
    const drawn = rows.filter((r) => r.strategy === s && r.historyReduction !== null && r.probesKept !== null);
    notDrawn += rows.filter((r) => r.strategy === s).length - drawn.length;
    for (const r of drawn) {
      const label = `${s} · ${nameOf(r)}: history −${(r.historyReduction! * 100).toFixed(1)} %, probes kept ${(r.probesKept! * 100).toFixed(0)} %`;
      out.push(`<circle cx="${f1(x(r.historyReduction!))}" cy="${f1(y(r.probesKept!))}" r="4.5" fill="${STRATEGY_COLORS[s]}" fill-opacity="0.8"><title>${escapeXml(label)}</title></circle>`);
    }
    const lx = L + (i % 3) * COL, ly = LEGEND + Math.floor(i / 3) * ROW;
    out.push(`<circle cx="${lx + 5}" cy="${ly - 4}" r="5" fill="${STRATEGY_COLORS[s]}"/>`, `<text x="${lx + 15}" y="${ly}">${escapeXml(s)} (${drawn.length})</text>`);
  });
  if (notDrawn) out.push(`<text x="${L}" y="${LEGEND + 2 * ROW}" font-size="11" ${SOFT}>${notDrawn} not drawn (skipped, failed or unreadable)</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
