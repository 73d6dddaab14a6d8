// The hook's additionalContext: the snapshot's facts of the compacted history within a token budget, minus what the
// agent's summary already states, in the order summaries drop them most (errors and identifiers first).
import { estimateTokens } from '../tokens/estimate';
import type { FileFact } from '../snapshot/collect';
import { ID_KINDS, KIND_LABELS, type IdKind } from '../snapshot/kinds';
import type { HookFacts, IdFact } from './facts';

/** The issue's ceiling: the hook adds at most this much to every window after a compaction. */
export const HOOK_BUDGET_TOKENS = 2_000;

export interface ContextOptions {
  /** The agent's own summary when it is on disk already: the budget never exceeds it, and what it states is left out. */
  readonly summary?: string;
  /** Other text the agent keeps past the compaction: what it states is left out too (it does not change the budget). */
  readonly kept?: string;
  readonly budgetTokens?: number;
  /** The session's folder: paths inside it are written relative (shorter; both spellings name the file). */
  readonly cwd?: string;
}

/** An item, the key the summary is searched for (the fact as written), and its kind when listed by kind. */
interface Item { readonly text: string; readonly key: string; readonly kind?: IdKind }
interface Section { readonly title: string; readonly items: Item[]; readonly share: number }

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n)}…`);
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** Lower case, one kind of slash and space: the cheap check whether the summary already states a fact. */
const norm = (s: string): string => s.toLowerCase().replace(/\\+/g, '/').replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;
/** Terminal escapes (CSI `ESC[…m`, OSC `ESC]…BEL`, two-byte `ESC x`) that tool output carries (colored build logs). */
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]?|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
/** Other C0 controls but \t and \n, DEL and C1: noise in model context, and a C1 U+009B is a CSI of its own. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Transcript text as context for a model: escapes and controls go (they are never a fact), the words stay. */
export const plainText = (s: string): string => s.replace(ESCAPES, '').replace(CONTROLS, '');
const it = (text: string, key: string, kind?: IdKind): Item => ({ text: plainText(text), key, ...(kind ? { kind } : {}) });

/** The budget: 2,000 tokens, and never more than the agent's own summary when that is known. */
export function hookBudget(summary: string | undefined, budget = HOOK_BUDGET_TOKENS): number {
  return summary === undefined ? budget : Math.min(budget, estimateTokens(summary));
}

/** What a shell redirect in code is not: `pip install "x>=1.26"`, `-> domain.Payload::` (the collector reads `>` as one). */
const NOT_A_PATH = /^[=:>-]|::$/;

/** A command by its first line that runs something (a comment heading a script is not it). */
const commandHead = (c: string): string => c.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('#')) ?? c.trim();

function fileShape(x: FileFact): string {
  const size = x.plus || x.minus ? ` +${x.plus} −${x.minus}` : '';
  const parts = [x.deleted ? 'deleted' : x.created ? 'created' : x.writes ? `written${x.writes > 1 ? ` ${x.writes}×` : ''}` : '', x.edits ? `edited ${x.edits}×` : ''].filter(Boolean);
  return `${parts.join(', ') || 'moved'}${size}${x.movedTo ? ` → ${x.movedTo}` : ''}`;
}

/** Identifiers newest first, one of each kind in turn: every kind gets its newest in before any gets its tenth. */
function idItems(ids: readonly IdFact[], rel: (s: string) => string): Item[] {
  const byKind = new Map<IdKind, IdFact[]>();
  for (const x of ids) byKind.set(x.kind, [...(byKind.get(x.kind) ?? []), x]);
  const out: Item[] = [];
  const lists = [...byKind.values()];
  for (let k = 0; lists.some((l) => k < l.length); k++) {
    for (const l of lists) {
      const x = l[k];
      if (x) out.push(it(rel(x.line ?? x.id), x.id, x.kind));
    }
  }
  return out;
}

function sections(h: HookFacts, rel: (s: string) => string): Section[] {
  const f = h.facts;
  const newest = <T extends { at?: number; last?: number }>(xs: T[]): T[] => [...xs].reverse();
  const files = newest([...f.files.values()]);
  const changed = files.filter((x) => !NOT_A_PATH.test(x.path)).filter((x) => x.edits || x.writes || x.created || x.deleted || x.movedTo);
  const read = files.filter((x) => !changed.includes(x) && !NOT_A_PATH.test(x.path));
  const open = f.plan?.items.filter((t) => !/^(?:completed|done)$/i.test(t.status)) ?? [];
  return [
    { title: 'Errors (newest first; error line as printed)', share: 0.16, items: newest(f.errors).map((e) => it(`- ${code(clip(rel(e.what), 100))}: ${clip(e.line, 200)} — ${e.fixed ? `fixed (${e.fixed})` : 'still open'}`, e.line.slice(0, 100))) },
    { title: 'Identifiers by kind (newest first; numbers in their line)', share: 0.3, items: idItems(h.ids, rel) },
    { title: 'Commands run (newest first) → outcome', share: 0.14, items: newest([...f.commands.values()]).map((c) => {
      const more = c.command.trim().split('\n').length - 1;
      return it(`- ${code(clip(commandHead(c.command), 160))}${more > 0 ? ` (+${more} lines)` : ''} → ${c.ok ? 'ok' : c.exit !== undefined ? `exit ${c.exit}` : 'failed'}${c.runs > 1 ? ` (${c.runs} runs)` : ''}`, commandHead(c.command).slice(0, 80));
    }) },
    { title: 'Constraints the user stated (verbatim)', share: 0.1, items: h.constraints.map((c) => it(`- ${c}`, c)) },
    { title: 'Files (newest first)', share: 0.1, items: [...changed.map((x) => it(`- ${rel(x.path)}: ${fileShape(x)}`, rel(x.path))), ...(read.length ? [it(`- read: ${read.slice(0, 30).map((x) => rel(x.path)).join(', ')}`, '')] : [])] },
    // A request asked again ("commit", a template re-run) is listed once, at its newest: the budget is for other facts.
    { title: 'Latest requests (newest first)', share: 0.15, items: [...new Set(newest(f.requests).filter((r) => /[\p{L}\p{N}]{2}/u.test(r.text)).map((r) => squash(r.text)))].map((t) => it(`> ${clip(t, 300)}`, t)) },
    { title: 'Todo list (latest; open items)', share: 0.05, items: [...open.map((t) => it(`- [${t.status || ' '}] ${clip(t.text, 200)}`, t.text)), ...(f.plan && f.plan.items.length > open.length ? [it(`- (${f.plan.items.length - open.length} done)`, '')] : [])] },
  ];
}

/** Items one a line; identifiers one line per kind. */
function render(items: readonly Item[]): string {
  if (!items[0]?.kind) return items.map((i) => i.text).join('\n');
  return ID_KINDS.filter((k) => items.some((i) => i.kind === k)).map((k) => `- ${KIND_LABELS[k]}: ${items.filter((i) => i.kind === k).map((i) => i.text).join(k === 'quantity' ? '; ' : ', ')}`).join('\n');
}

/** Whether the summary (normalized) already says the fact: its key, or the key's first 120 characters. */
function stated(key: string, summary: string): boolean {
  const k = norm(key);
  return k.length >= 4 && summary.includes(k.slice(0, 120));
}

/**
 * The additionalContext text: sections in order of what a summary drops most, each first within its share of the
 * budget, then the rest while any budget is left. Empty when there is nothing the summary does not say.
 */
export function hookContext(facts: HookFacts, options: ContextOptions = {}): string {
  const budget = hookBudget(options.summary, options.budgetTokens);
  const summary = norm(`${options.summary ?? ''}\n${options.kept ?? ''}`);
  const base = options.cwd?.replace(/[\\/]+$/, '');
  const rel = (s: string): string => (base && base.length > 1 ? s.split(`${base}/`).join('').split(`${base}\\`).join('') : s);
  const head = 'Facts from the conversation before this compaction, copied from its transcript by context-compactor (the summary may have left them out):';
  const all = sections(facts, rel).map((s) => ({ ...s, items: s.items.filter((i) => !stated(i.key, summary)), taken: new Set<number>() }));
  let used = estimateTokens(head);
  // Each section first within its share, then any section while budget is left; an item too big is passed over.
  for (const round of [0, 1]) {
    for (const s of all) {
      let mine = 0;
      s.items.forEach((item, k) => {
        if (s.taken.has(k)) return;
        const c = estimateTokens(item.text) + 1 + (s.taken.size === 0 ? estimateTokens(s.title) + 4 : 0);
        if (used + c > budget || (round === 0 && mine + c > s.share * budget)) return;
        s.taken.add(k);
        used += c;
        mine += c;
      });
    }
  }
  const parts = all.filter((s) => s.taken.size).map((s) => `## ${s.title}\n${render(s.items.filter((_, k) => s.taken.has(k)))}`);
  if (!parts.length) return '';
  let text = [head, ...parts].join('\n');
  // The sums above are per piece; the whole is measured once more and trimmed from its end if it came out over.
  while (estimateTokens(text) > budget && text.includes('\n')) text = text.slice(0, text.lastIndexOf('\n'));
  return text === head ? '' : text;
}

/** What a SessionStart hook prints: Claude Code and Codex read the same shape. */
export function hookOutput(context: string): { hookSpecificOutput: { hookEventName: 'SessionStart'; additionalContext: string } } {
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } };
}
