// Renders a usage report as a plain-text table for the terminal.
import { HARNESS_DEFINITION } from '../inspect/terms';
import { agentModule } from '../formats/registry';
import type { SessionUsage, UsageReport } from './types';

/** 1234567 → "1,234,567". Not toLocaleString: its first call loads ICU data, ~25 ms of a warm `usage` run. */
const fmtInt = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const fmtCost = (c: number | undefined): string => (c === undefined ? 'unknown' : `$${c.toFixed(2)}`);

function pad(cells: string[], widths: number[], right: boolean[]): string {
  return cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
}

/** Paths keep their informative end; titles keep their beginning. */
function shorten(s: string, max: number, keepEnd = false): string {
  if (s.length <= max) return s;
  return keepEnd ? `…${s.slice(s.length - max + 1)}` : `${s.slice(0, max - 1)}…`;
}

function row(s: SessionUsage): string[] {
  return [
    (s.lastTimestamp ?? '').slice(0, 16).replace('T', ' '),
    agentModule(s.agent).shortName,
    shorten(s.project ?? '?', 28, true),
    shorten(s.title ?? s.sessionId, 40),
    fmtInt(s.inputTokens),
    fmtInt(s.outputTokens),
    fmtInt(s.cacheCreationTokens),
    fmtInt(s.cacheReadTokens),
    `${s.estimated ? '~' : ''}${fmtCost(s.cost)}`,
    s.contextTokens === undefined ? '-' : `${s.estimated ? '~' : ''}${fmtInt(s.contextTokens)}${s.compactSoon ? ' !' : ''}`,
  ];
}

/** The total's cost cell: "unknown" when nothing is priced, the priced part "+ unknown" when only some is. */
function totalCost(report: UsageReport): string {
  const t = report.totals;
  if (t.cost !== null) return fmtCost(t.cost);
  return report.sessions.some((s) => s.models.some((m) => !report.unknownModels.includes(m))) ? `${fmtCost(t.pricedCost)} + unknown` : 'unknown';
}

/** A fixed-column table; `!` marks sessions whose context is at or above the compaction threshold. */
export function formatUsageTable(report: UsageReport): string {
  const header = ['Last activity', 'Agent', 'Project', 'Title', 'Input', 'Output', 'Cache write', 'Cache read', 'Cost', 'Context'];
  const right = [false, false, false, false, true, true, true, true, true, true];
  const t = report.totals;
  const totalRow = ['Total', '', `${report.sessions.length} sessions`, '', fmtInt(t.inputTokens), fmtInt(t.outputTokens),
    fmtInt(t.cacheCreationTokens), fmtInt(t.cacheReadTokens), totalCost(report), ''];
  const rows = [header, ...report.sessions.map(row), totalRow];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const lines = [pad(header, widths, right), rule, ...rows.slice(1, -1).map((r) => pad(r, widths, right)), rule, pad(totalRow, widths, right)];
  lines.push('', `Prices: ${report.pricing}`);
  if (report.sessions.some((s) => s.estimated)) lines.push(`~ estimated from the transcript's text: the agent records no usage, so its harness is not counted (${HARNESS_DEFINITION})`);
  if (report.unknownModels.length > 0) lines.push(`Cost unknown for: ${report.unknownModels.join(', ')} (not in the catalog; the total leaves their usage out)`);
  if (report.sessions.some((s) => s.compactSoon)) lines.push('! context at or above the compaction threshold: consider compacting');
  return `${lines.join('\n')}\n`;
}
