// Renders collected facts as one Markdown block within a token budget: each section first within its share,
// then the rest of the budget in the same order; inside a section the newest facts win.
import { CONSTRAINT } from '../cleanup/rules/trimOldPrompts';
import { opening } from '../cleanup/rules/trimOldReplies';
import { IdentifierListing } from '../cleanup/listing';
import { codeSpan, fenced } from '../text/markdown';
import { estimateTokens } from '../tokens/estimate';
import type { Facts, FileFact } from './collect';
import { ID_KINDS, KIND_LABELS, type IdKind } from './kinds';

export const SNAPSHOT_SECTIONS = ['requests', 'plan', 'errors', 'files', 'commands', 'earlier', 'identifiers'] as const;
export type SnapshotSection = (typeof SNAPSHOT_SECTIONS)[number];

const TITLES: Record<SnapshotSection, string> = {
  requests: '## Requests and constraints (the user\'s words)',
  plan: '## Latest plan / todo list',
  errors: '## Errors',
  files: '## Files changed',
  commands: '## Commands run (latest last)',
  earlier: '## From the earlier compaction',
  identifiers: '## Identifiers',
};
/** Each section's first share of the budget; what a section leaves goes to the next. */
const SHARE: Record<SnapshotSection, number> = { requests: 0.3, plan: 0.1, errors: 0.1, files: 0.12, commands: 0.18, earlier: 0.1, identifiers: 0.1 };

interface Item { readonly text: string; readonly tokens: number; readonly at: number }
const item = (text: string, at: number): Item => ({ text, tokens: estimateTokens(text) + 1, at });
const quote = (t: string): string => t.split('\n').map((l) => `> ${l}`).join('\n');

/** A prompt as kept: verbatim when short, else its opening and every line stating a constraint. */
function request(text: string): string {
  const t = text.trim();
  if (estimateTokens(t) <= 300) return quote(t);
  const { head } = opening(t, 120);
  const rest = t.split('\n').slice(head.split('\n').length).map((l) => l.trim()).filter((l) => CONSTRAINT.test(l) && l.length < 400).slice(0, 20);
  return quote([head.trim(), ...rest, '[… rest of this long message omitted]'].join('\n'));
}

function fileLine(x: FileFact, listing: IdentifierListing): string {
  const size = x.plus || x.minus ? ` (+${x.plus} −${x.minus})` : '';
  const shape = x.deleted ? 'deleted' : x.created ? `created${x.edits ? `, edited ${x.edits}×` : ''}${size}`
    : x.writes && !x.edits ? `written${x.writes > 1 ? ` ${x.writes}×` : ''}${size}` : `edited ${x.edits + x.writes}×${size}`;
  return `- ${codeSpan(listing.relativize(x.path))}: ${shape}${x.movedTo ? `, moved to ${codeSpan(listing.relativize(x.movedTo))}` : ''}`;
}

/** A command as run: one line in a code span, several lines in a fenced block clipped to 12 lines. */
function commandText(cmd: string): string {
  if (!cmd.includes('\n')) return codeSpan(cmd.length > 300 ? `${cmd.slice(0, 300)}…` : cmd);
  const all = cmd.split('\n');
  const kept = all.slice(0, 12).map((l) => (l.length > 160 ? `${l.slice(0, 160)}…` : l));
  if (all.length > 12) kept.push(`… (${all.length - 12} more lines)`);
  return `\n${fenced(kept.join('\n'))}`;
}

function sectionItems(f: Facts, listing: IdentifierListing): Record<Exclude<SnapshotSection, 'identifiers'>, Item[]> {
  const files = [...f.files.values()].filter((x) => x.edits || x.writes || x.created || x.deleted || x.movedTo).map((x) => item(fileLine(x, listing), x.last));
  const reads = [...f.files.values()].filter((x) => x.read && !(x.edits || x.writes || x.created || x.deleted));
  if (reads.length) files.push(item(`- read: ${reads.slice(-30).map((x) => codeSpan(listing.relativize(x.path))).join(', ')}`, 0));
  const plan = f.plan ? (f.plan.items.length ? f.plan.items.map((t) => item(`- [${t.status === 'completed' ? 'x' : ' '}] ${t.text.replace(/\s+/g, ' ')}${t.status && t.status !== 'completed' && t.status !== 'pending' ? ` (${t.status})` : ''}`, f.plan!.at)) : [item(fenced(f.plan.raw ?? ''), f.plan.at)]) : [];
  return {
    // The first request states the goal: it outranks the middle ones when the budget is short.
    requests: f.requests.map((r, k) => item(request(listing.relativize(r.text)), k === 0 ? Number.MAX_SAFE_INTEGER : r.at)),
    plan,
    errors: f.errors.map((e) => item(`- ${codeSpan(listing.relativize(e.what.length > 160 ? `${e.what.slice(0, 160)}…` : e.what))}: ${codeSpan(listing.relativize(e.line))} — ${e.fixed ? `fixed (${listing.relativize(e.fixed)})` : 'not fixed in this part'}`, e.at)),
    files,
    commands: [...f.commands.values()].map((c) => item(`- ${commandText(listing.relativize(c.command))} → ${c.ok ? 'ok' : c.exit !== undefined ? `exit ${c.exit}` : 'failed'}${c.runs > 1 ? ` (${c.runs} runs)` : ''}`, c.last)),
    earlier: f.summaries.slice(-1).map((s) => item(s.text.replace(/^\[context-compactor\][^\n]*\n+/, '').trim(), 0)),
  };
}

/** Picks items newest first within `budget`; returns them in their original order and what is left. */
function pick(items: readonly Item[], budget: number, taken: Set<Item>): number {
  for (const it of [...items].sort((a, b) => b.at - a.at)) {
    if (taken.has(it)) continue;
    if (it.tokens > budget) continue;
    taken.add(it);
    budget -= it.tokens;
  }
  return budget;
}

export interface RenderedSnapshot { readonly text: string; readonly tokens: number; readonly sections: Partial<Record<SnapshotSection, number>> }

/** `shown`: identifiers the kept transcript already holds (never listed again). */
export function renderSnapshot(f: Facts, budgetTokens: number, cwd: string | undefined, shown: Iterable<string>): RenderedSnapshot {
  const listing = new IdentifierListing(cwd);
  const items = sectionItems(f, listing);
  const taken = new Set<Item>();
  const order = SNAPSHOT_SECTIONS.filter((s): s is Exclude<SnapshotSection, 'identifiers'> => s !== 'identifiers');
  let left = budgetTokens;
  let carry = 0;
  for (const s of order) {
    const share = Math.floor(budgetTokens * SHARE[s]) + carry;
    const rest = pick(items[s], share, taken);
    carry = rest;
    left -= share - rest;
  }
  // Second pass: what the shares left, newest first again, in the same order.
  for (const s of order) left = pick(items[s], left, taken);
  const parts: string[] = [];
  const sections: Partial<Record<SnapshotSection, number>> = {};
  for (const s of order) {
    const chosen = items[s].filter((it) => taken.has(it));
    if (!chosen.length) continue;
    const omitted = items[s].length - chosen.length;
    const body = [...chosen.map((c) => c.text), ...(omitted ? [`- … ${omitted} older item(s) omitted`] : [])];
    parts.push(TITLES[s], ...body);
    sections[s] = chosen.reduce((a, c) => a + c.tokens, 0);
  }
  const ids = identifierLines(f, listing, parts.join('\n'), shown, Math.max(0, left) * 3.5);
  if (ids.length) { parts.push(TITLES.identifiers, ...ids); sections.identifiers = estimateTokens(ids.join('\n')); }
  const text = parts.join('\n');
  return { text, tokens: estimateTokens(text), sections };
}

/** Identifiers not already in the text or the kept transcript: by kind first, then the rest (paths, codes), newest first. */
function identifierLines(f: Facts, listing: IdentifierListing, text: string, shown: Iterable<string>, chars: number): string[] {
  listing.commit(shown);
  const byKind = new Map<IdKind, string[]>();
  const newestKinds = [...f.kinds].reverse();
  const picked = listing.pick(newestKinds.map(([id]) => id), text, chars);
  listing.commit(picked);
  const kindOf = new Map(newestKinds);
  let used = picked.reduce((a, id) => a + id.length + 2, 0);
  for (const id of picked) { const k = kindOf.get(id)!; byKind.set(k, [...(byKind.get(k) ?? []), id]); }
  const out = ID_KINDS.filter((k) => byKind.has(k)).map((k) => `- ${KIND_LABELS[k]}: ${byKind.get(k)!.map((id) => listing.relativize(id)).join(', ')}`);
  const others = listing.pick([...f.others].reverse(), text, chars - used);
  used += others.length;
  if (others.length) out.push(`- other: ${others.map((id) => listing.relativize(id)).join(', ')}`);
  return out;
}
