// The short texts of Sessions rows: token figures, context share, relative age, group totals (fit a 300 px side bar).
import { usageWindow } from '../../core/usage/contextWindow';
import type { SessionUsage } from '../../core/usage/types';

/** 950 → "950", 28867 → "28.9k", 1_250_000 → "1.25M": short enough for a tree description. */
export function shortTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0)}k`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(n < 100_000_000 ? 2 : 0)}M`;
  return `${(n / 1_000_000_000).toFixed(2)}B`;
}

/** The last segment of a project path, `/` or `\` separated (a Windows cwd read on Linux too). */
export const baseName = (p: string): string => p.replace(/[\\/]+$/, '').replace(/^.*[\\/]/, '') || p;

const pad = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Local "YYYY-MM-DD HH:mm"; empty for a missing or unparsable timestamp. */
export function shortDate(iso: string | undefined): string {
  const d = iso ? new Date(iso) : undefined;
  if (!d || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * "now", "12m", "5h", "3d" within a week, then "Dec 1" (this year) or "Dec 1 2025": a row has room for four
 * characters of date, and how long ago a session ran is what tells a live one from a finished one.
 */
export function shortAge(iso: string | undefined, now: number): string {
  const d = iso ? new Date(iso) : undefined;
  if (!d || Number.isNaN(d.getTime())) return '';
  const minutes = Math.floor((now - d.getTime()) / 60_000);
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}h`;
  if (minutes < 7 * 24 * 60) return `${Math.floor(minutes / (24 * 60))}d`;
  const day = `${MONTHS[d.getMonth()]} ${d.getDate()}`;
  return d.getFullYear() === new Date(now).getFullYear() ? day : `${day} ${d.getFullYear()}`;
}

/** The session's one context window (core/usage/contextWindow.ts, as inspect and the status bar use); undefined when unknown. */
export function windowOf(s: SessionUsage): number | undefined {
  return usageWindow(s);
}

/** "142k · 71 %" (context and share of the session's window), "142k" without a known window, "" without a figure. */
export function contextFigure(context: number | undefined, window: number | undefined, estimated = false): string {
  if (context === undefined) return '';
  const est = estimated ? '~' : '';
  return window ? `${est}${shortTokens(context)} · ${Math.round((context / window) * 100)} %` : `${est}${shortTokens(context)}`;
}

export function billedTokens(s: SessionUsage): number {
  return s.inputTokens + s.outputTokens + s.cacheCreationTokens + s.cacheReadTokens;
}

/** "$4.10", or "$4.10+" when some usage has no price (its cost is unknown, not zero). */
export function costText(cost: number, unknown: boolean): string {
  return `$${cost.toFixed(2)}${unknown ? '+' : ''}`;
}

export interface Totals {
  sessions: number;
  tokens: number;
  cost: number;
  unknownCost: boolean;
  soon: number;
}

/** Sums sessions (subagents count in tokens and cost: they were billed; not in the session count). */
export function totalsOf(rows: readonly { session: SessionUsage; compactSoon: boolean; children: readonly { session: SessionUsage }[] }[]): Totals {
  const t: Totals = { sessions: rows.length, tokens: 0, cost: 0, unknownCost: false, soon: 0 };
  for (const r of rows) {
    if (r.compactSoon) t.soon++;
    for (const s of [r.session, ...r.children.map((x) => x.session)]) {
      t.tokens += billedTokens(s);
      if (s.cost === undefined) t.unknownCost = true;
      else t.cost += s.cost;
    }
  }
  return t;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 sessions · $4.10 · 1.25M tokens · 1 to compact": count and cost first, the side bar cuts the end. */
export function totalsText(t: Totals): string {
  return [plural(t.sessions, 'session'), costText(t.cost, t.unknownCost), `${shortTokens(t.tokens)} tokens`, t.soon > 0 ? `${t.soon} to compact` : ''].filter(Boolean).join(' · ');
}

/** A title cut to `max` characters for a row (the whole title is in the hover and the quick pick). */
export function rowTitle(title: string, max: number): string {
  return title.length > max ? `${title.slice(0, max - 1).trimEnd()}…` : title;
}
