// Renders collected facts as one Markdown block within a token budget: each section first within its share,
// then the rest of the budget in the same order; inside a section the newest facts win.
import { CONSTRAINT } from '../cleanup/rules/trimOldPrompts';
import { opening } from '../cleanup/rules/trimOldReplies';
import { IdentifierListing } from '../cleanup/listing';
import { findSubstrings } from '../compact/substringIndex';
import { codeSpan, fenced } from '../text/markdown';
import { estimateTokens } from '../tokens/estimate';
import type { ErrorFact, Facts, FileFact } from './collect';
import { commandText } from './commandText';
import { ID_KINDS, KIND_LABELS, type IdKind } from './kinds';
import { partsOfOthers } from './idParts';
import { withoutOurHeader } from './previous';

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
/** Each section's first share of the budget; what a section leaves goes to the next (identifiers: reserved, plus the rest). */
const SHARE: Record<SnapshotSection, number> = { requests: 0.45, plan: 0.06, errors: 0.08, files: 0.08, commands: 0.1, earlier: 0.08, identifiers: 0.15 };
/** A line of a long prompt that binds the agent: a rule in Chinese or Portuguese (CONSTRAINT has the English ones). */
const BINDING = /不要|别|必须|禁止|不能|不许|只[用能允]|应该|请|\b(?:não|nunca|sempre)\b/i;
/** An item of a list: kept after the rule lines, while there is room. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\S/;
/** Lines of a long prompt kept besides its opening. */
const RULE_LINES = 40;

/** Versions and numbers with units from tool output listed at most, the newest. */
const PRINTED_PER_KIND = 12;

const CLIPPABLE: ReadonlySet<SnapshotSection> = new Set(['requests', 'earlier']);

/** Identifier kinds that state a figure or a reference rather than name a thing (see `SnapshotLimits.figuresPerKind`). */
const FIGURE_KINDS: ReadonlySet<IdKind> = new Set(['issue', 'version', 'quantity']);

/** Caps a snapshot that goes with a summary's prose uses (none by default). */
export interface SnapshotLimits {
  /** The newest commands listed (older ones are the prose's to tell). */
  readonly commands?: number;
  /** Issue numbers, versions and figures with units listed per kind, the newest (else all, as any identifier). */
  readonly figuresPerKind?: number;
}

export interface Item {
  readonly text: string;
  readonly tokens: number;
  readonly at: number;
  /** What the item says when it must be shorter (a long request: its opening and its rule lines only). */
  readonly short?: Item;
}
const item = (text: string, at: number, short?: string): Item => ({ text, tokens: estimateTokens(text) + 1, at, ...(short ? { short: item(short, at) } : {}) });
// A request as written, line for line (its own Markdown cannot open sections of the snapshot).
const quote = (t: string): string => fenced(t);

/**
 * A prompt as kept: verbatim when short, else its opening and every line stating a constraint or a list item; the
 * shorter form, for a tight budget, keeps a shorter opening and the rule lines alone.
 */
function request(text: string): { text: string; short?: string } {
  const t = text.trim();
  if (estimateTokens(t) <= 300) return { text: quote(t) };
  // Rule lines first (a long template's rules often close it, after dozens of list items), then list items while
  // there is room, in the prompt's order.
  const form = (head: number, rule: (l: string) => boolean, items: boolean): string => {
    const open = opening(t, head).head;
    const rest = t.split('\n').slice(open.split('\n').length).map((l) => l.trim()).filter((l) => l && l.length < 400);
    const chosen = new Set(rest.filter(rule).slice(0, RULE_LINES));
    if (items) for (const l of rest) if (chosen.size < RULE_LINES && LIST_ITEM.test(l)) chosen.add(l);
    return quote([open.trim(), ...rest.filter((l) => chosen.delete(l)), '[… rest of this long message omitted]'].join('\n'));
  };
  return { text: form(100, (l) => CONSTRAINT.test(l) || BINDING.test(l), true), short: form(40, (l) => CONSTRAINT.test(l), false) };
}

/** A changed file's path, relative to the session's folder when that leaves a folder in it: a bare name reads as a word, not a place. */
function placeOf(p: string, listing: IdentifierListing): string {
  const rel = listing.relativize(p);
  return rel.includes('/') || rel.includes('\\') ? rel : p;
}

function fileLine(x: FileFact, listing: IdentifierListing): string {
  const size = x.plus || x.minus ? ` (+${x.plus} −${x.minus})` : '';
  const edited = x.edits ? `edited ${x.edits}×` : '';
  const made = x.created ? 'created' : x.writes ? `written${x.writes > 1 ? ` ${x.writes}×` : ''}` : '';
  const shape = x.deleted ? 'deleted' : !made && !edited ? 'moved' : `${[made, edited].filter(Boolean).join(', ')}${size}`;
  return `- ${codeSpan(placeOf(x.path, listing))}: ${shape}${x.movedTo ? `${shape === 'moved' ? '' : ','} moved to ${codeSpan(placeOf(x.movedTo, listing))}` : ''}`;
}

/** The figures the command's latest output stated, in the line that stated them: `42 passed` says which tests. */
const measured = (lines: readonly string[] | undefined, listing: IdentifierListing): string => (lines?.length ? `: ${lines.map((l) => codeSpan(listing.relativize(l))).join(' · ')}` : '');

const lineSet = (t: string): string[] => t.split('\n').map((l) => l.trim()).filter(Boolean);

/**
 * The requests, each once: a prompt most of whose lines a later prompt repeats (a slash-command template) keeps only
 * the lines that differ. `later`: the prompts kept after the snapshot.
 */
function requestItems(f: Facts, later: readonly string[], listing: IdentifierListing): Item[] {
  const texts = [...f.requests.map((r) => r.text), ...later];
  const sets = texts.map((t) => new Set(lineSet(t)));
  const out: Item[] = [];
  f.requests.forEach((r, k) => {
    if (texts.some((t, j) => j > k && t === r.text)) return;
    const own = lineSet(r.text);
    const twin = own.length >= 5 ? sets.find((set, j) => j > k && own.filter((l) => set.has(l)).length * 10 >= own.length * 6) : undefined;
    const kept = twin ? { text: quote([...own.filter((l) => !twin.has(l)), `[… ${own.filter((l) => twin.has(l)).length} more line(s) repeat a later request]`].join('\n')) } : request(r.text);
    // The first request states the goal: it outranks the middle ones when the budget is short.
    out.push(item(listing.relativize(kept.text), k === 0 ? Number.MAX_SAFE_INTEGER : r.at, kept.short && listing.relativize(kept.short)));
  });
  return out;
}

const clipWhat = (w: string): string => (w.length > 160 ? `${w.slice(0, 160)}…` : w);
const outcome = (e: ErrorFact, listing: IdentifierListing): string => (e.fixed ? `fixed (${listing.relativize(e.fixed)})` : 'not fixed in this part');

/**
 * One item per distinct error line, at its newest occurrence: the same line from many commands (a shell profile's
 * warning printed by every call) says it once, with the newest command and how many others printed it.
 */
export function errorItems(errors: readonly ErrorFact[], listing: IdentifierListing): Item[] {
  const byLine = new Map<string, ErrorFact[]>();
  for (const e of errors) { const same = byLine.get(e.line); if (same) same.push(e); else byLine.set(e.line, [e]); }
  return [...byLine.values()].map((same) => {
    const e = same[same.length - 1]!;
    const others = new Set(same.map((x) => x.what)).size - 1;
    const open = same.filter((x) => !x.fixed).length;
    const state = others === 0 ? outcome(e, listing) : open === 0 ? 'fixed' : open === same.length ? 'not fixed in this part' : `${open} of ${same.length} not fixed in this part (the newest ${e.fixed ? 'fixed' : 'not'})`;
    return item(`- ${codeSpan(listing.relativize(clipWhat(e.what)))}${others ? ` (and ${others} other command(s))` : ''}: ${codeSpan(listing.relativize(e.line))} — ${state}`, e.at);
  });
}

/** An earlier summary: whole when it fits, else its opening and the rule lines it quotes (the user's constraints). */
function earlierItem(text: string): Item {
  const r = request(text);
  return item(text, 0, r.short ? r.text : undefined);
}

/** Lines an earlier snapshot held, as the oldest items (in their order); `fresh` items come after them. */
function carried(lines: readonly string[], fresh: readonly Item[]): Item[] {
  const newer = fresh.map((it) => it.text).join('\n');
  // The same file or command seen again is told by the newer item.
  const key = (l: string): string => /`([^`]+)`/.exec(l)?.[1] ?? l;
  return lines.filter((l) => !newer.includes(key(l))).map((l, k) => item(l, k - lines.length));
}

const withCarried = (lines: readonly string[], fresh: Item[]): Item[] => [...carried(lines, fresh), ...fresh];

/** The last `n` of `xs` (all of them without a limit). */
const newest = <T>(xs: T[], n: number | undefined): T[] => (n === undefined || xs.length <= n ? xs : xs.slice(xs.length - n));

/** Items of each section, and how many of them a limit left out before the budget chose (said with the rest). */
function sectionItems(f: Facts, later: readonly string[], listing: IdentifierListing, limits: SnapshotLimits): { items: Record<Exclude<SnapshotSection, 'identifiers'>, Item[]>; limited: Partial<Record<SnapshotSection, number>> } {
  const files = [...f.files.values()].filter((x) => x.edits || x.writes || x.created || x.deleted || x.movedTo).map((x) => item(fileLine(x, listing), x.last));
  const reads = [...f.files.values()].filter((x) => x.read && !(x.edits || x.writes || x.created || x.deleted));
  if (reads.length) files.push(item(`- read: ${reads.slice(-30).map((x) => codeSpan(listing.relativize(x.path))).join(', ')}`, 0));
  // The limit counts an earlier snapshot's commands too, as the oldest: a second compaction lists the newest ones.
  const commands = withCarried(f.carried.commands, [...f.commands.values()].map((c) => item(`- ${commandText(listing.relativize(c.command))} → ${c.ok ? 'ok' : c.exit !== undefined ? `exit ${c.exit}` : 'failed'}${c.runs > 1 ? ` (${c.runs} runs)` : ''}${measured(c.measured, listing)}`, c.last)));
  const plan = f.plan ? (f.plan.items.length ? f.plan.items.map((t) => item(`- [${t.status === 'completed' ? 'x' : ' '}] ${t.text.replace(/\s+/g, ' ')}${t.status && t.status !== 'completed' && t.status !== 'pending' ? ` (${t.status})` : ''}`, f.plan!.at)) : [item(fenced(f.plan.raw ?? ''), f.plan.at)]) : [];
  const items = {
    // The first request states the goal: it outranks the middle ones when the budget is short.
    requests: requestItems(f, later, listing),
    plan: plan.length ? plan : carried(f.carried.plan, []),
    errors: withCarried(f.carried.errors, errorItems(f.errors, listing)),
    files: withCarried(f.carried.files, files),
    commands: newest(commands, limits.commands),
    // Our header alone (a copy an older version wrote carried it as text) says nothing: no section for it.
    earlier: f.summaries.slice(-1).map((s) => withoutOurHeader(s.text).trim()).filter(Boolean).map(earlierItem),
  };
  return { items, limited: { commands: commands.length - items.commands.length } };
}

/** Picks items newest first within `budget`; returns them in their original order and what is left. */
function pick(items: Item[], budget: number, taken: Set<Item>, clippable: boolean): number {
  for (const it of [...items].sort((a, b) => b.at - a.at)) {
    if (taken.has(it)) continue;
    let chosen: Item | undefined = it;
    // A long request that does not fit says it shorter; then (or an earlier summary) keeps the lines that fit.
    if (it.tokens > budget) chosen = it.short && it.short.tokens <= budget ? it.short : clippable && budget >= 60 ? clipped(it.short ?? it, budget) : undefined;
    if (!chosen) continue;
    if (chosen !== it) items[items.indexOf(it)] = chosen;
    taken.add(chosen);
    budget -= chosen.tokens;
  }
  return budget;
}

function clipped(it: Item, budget: number): Item | undefined {
  const out: string[] = [];
  let used = 8;
  for (const l of it.text.split('\n')) {
    const t = estimateTokens(l) + 1;
    if (used + t > budget) break;
    out.push(l);
    used += t;
  }
  if (!out.length) return undefined;
  // A fenced request keeps its closing fence.
  const fence = /^(`{3,})/.exec(out[0]!)?.[1];
  return item([...out, '[… clipped to fit the snapshot]', ...(fence ? [fence] : [])].join('\n'), it.at);
}

export interface RenderedSnapshot { readonly text: string; readonly tokens: number; readonly sections: Partial<Record<SnapshotSection, number>> }

/** `shown`: identifiers the kept transcript already holds (never listed again); `later`: its prompts. */
export function renderSnapshot(f: Facts, budgetTokens: number, cwd: string | undefined, shown: Iterable<string>, later: readonly string[] = [], extraIdentifierChars = 0, identifierFloor = 0, requestTokens = Math.floor(budgetTokens * SHARE.requests), limits: SnapshotLimits = {}): RenderedSnapshot {
  const listing = new IdentifierListing(cwd);
  const { items, limited } = sectionItems(f, later, listing, limits);
  const taken = new Set<Item>();
  const order = SNAPSHOT_SECTIONS.filter((s): s is Exclude<SnapshotSection, 'identifiers'> => s !== 'identifiers');
  const reserve = Math.floor(budgetTokens * SHARE.identifiers);
  let left = budgetTokens - reserve;
  let carry = 0;
  for (const s of order) {
    const share = (s === 'requests' ? requestTokens : Math.floor(budgetTokens * SHARE[s])) + carry;
    const rest = pick(items[s], share, taken, false);
    carry = rest;
    left -= share - rest;
  }
  // Second pass: what the shares left, newest first again, in the same order.
  for (const s of order) left = pick(items[s], left, taken, CLIPPABLE.has(s));
  const parts: string[] = [];
  const sections: Partial<Record<SnapshotSection, number>> = {};
  for (const s of order) {
    const chosen = items[s].filter((it) => taken.has(it));
    if (!chosen.length) continue;
    const omitted = items[s].length - chosen.length + (limited[s] ?? 0);
    const body = [...chosen.map((c) => c.text), ...(omitted ? [`- … ${omitted} older item(s) omitted`] : [])];
    parts.push(TITLES[s], ...body);
    sections[s] = chosen.reduce((a, c) => a + c.tokens, 0);
  }
  const ids = identifierLines(f, listing, parts.join('\n'), shown, Math.max(0, left + reserve) * 3.5 + extraIdentifierChars, identifierFloor, limits.figuresPerKind);
  if (ids.length) { parts.push(TITLES.identifiers, ...ids); sections.identifiers = estimateTokens(ids.join('\n')); }
  const text = parts.join('\n');
  return { text, tokens: estimateTokens(text), sections };
}

/** Identifiers not already in the text or the kept transcript: by kind first, then the rest (paths, codes), newest first. */
function identifierLines(f: Facts, listing: IdentifierListing, text: string, shown: Iterable<string>, chars: number, floor: number, perFigureKind?: number): string[] {
  listing.commit(shown);
  const newestKinds = [...f.kinds].reverse();
  const kindOf = new Map(newestKinds);
  // Each identifier as listed, made once: it is measured twice and written once below.
  const relative = new Map<string, string>();
  const rel = (id: string): string => { let r = relative.get(id); if (r === undefined) relative.set(id, (r = listing.relativize(id))); return r; };
  const others = [...f.others].reverse().filter((id) => !kindOf.has(id) && rel(id).trim());
  // What is not shown yet, by kind first, newest first: one index of the text answers every substring check (an
  // includes() per identifier was a pass over the text each, thousands on a long session).
  const candidates = [...newestKinds.map(([id]) => id), ...others].filter((id) => !listing.has(id));
  const inText = findSubstrings(text, candidates.map((id) => listing.written(id)));
  const found = candidates.filter((_id, i) => !inText[i]);
  // A part of another identifier (a UUID's group, a folder in a path) is read inside it: listed once, in the longer.
  const parts = partsOfOthers(found.map(rel));
  const open = parts.size ? found.filter((id) => !parts.has(rel(id))) : found;
  const size = (id: string): number => rel(id).length + 2;
  // At least `floor` of them (the recall a reader is promised) whatever the budget: the shortest ones, as a count is
  // promised and a 150-character signed URL costs what ten hashes do; the budget then adds the rest, newest first.
  // Issue numbers, versions and figures with units are many and short-lived (every line of a log states one): with a
  // limit only the newest of each kind are listed, outside the promise, which is kept for what names a thing.
  const figure = (id: string): boolean => { const k = kindOf.get(id); return k !== undefined && FIGURE_KINDS.has(k); };
  const figures = new Set<string>();
  if (perFigureKind !== undefined) {
    const seen = new Map<IdKind, number>();
    for (const id of open) if (figure(id)) { const k = kindOf.get(id)!; const n = seen.get(k) ?? 0; seen.set(k, n + 1); if (n < perFigureKind) figures.add(id); }
  }
  const named = perFigureKind !== undefined ? open.filter((id) => !figure(id)) : open;
  const promised = floor > 0 ? shortest(named, Math.ceil(named.length * floor), size) : new Set<string>();
  for (const id of figures) promised.add(id);
  let budget = chars;
  for (const id of promised) budget -= size(id);
  const byKind = new Map<IdKind, string[]>();
  const rest: string[] = [];
  for (const id of open) {
    if (perFigureKind !== undefined && figure(id) && !figures.has(id)) continue;
    if (!promised.has(id)) { if (budget - size(id) < 0) continue; budget -= size(id); }
    const k = kindOf.get(id);
    if (!k) rest.push(id);
    else { const list = byKind.get(k); if (list) list.push(id); else byKind.set(k, [id]); }
  }
  // The latest figures tools printed, a few per kind beyond the budget (they are short): not every number of a log.
  const printed = [...f.printed].reverse();
  for (const k of ['version', 'quantity'] as const) {
    const listed = new Set(byKind.get(k));
    const latest = listing.pick(printed.filter(([id, kind]) => kind === k && !listed.has(id) && !kindOf.has(id)).map(([id]) => id), text, Number.MAX_SAFE_INTEGER).slice(0, PRINTED_PER_KIND);
    if (latest.length) byKind.set(k, [...(byKind.get(k) ?? []), ...latest]);
  }
  const out = ID_KINDS.filter((k) => byKind.has(k)).map((k) => `- ${KIND_LABELS[k]}: ${byKind.get(k)!.map(rel).join(', ')}`);
  if (rest.length) out.push(`- other: ${rest.map(rel).join(', ')}`);
  return out;
}

/** The `n` shortest of `ids` as written (the earlier, newer one first among equals). */
export function shortest(ids: readonly string[], n: number, size: (id: string) => number): Set<string> {
  if (n >= ids.length) return new Set(ids);
  return new Set(ids.map((id, k) => ({ id, k, s: size(id) })).sort((a, b) => a.s - b.s || a.k - b.k).slice(0, n).map((x) => x.id));
}
