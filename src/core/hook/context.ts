// The hook's additionalContext: the facts of the compacted history within a token budget, minus what the summary says.
import { estimateTokens } from '../tokens/estimate';
import type { HookFacts } from './facts';

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

interface Section { readonly title: string; readonly items: string[]; readonly share: number }

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n)}…`);
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
/** Lower case, one kind of slash and space: the cheap check whether the summary already states a fact. */
const norm = (s: string): string => s.toLowerCase().replace(/\\+/g, '/').replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** The budget: 2,000 tokens, and never more than the agent's own summary when that is known. */
export function hookBudget(summary: string | undefined, budget = HOOK_BUDGET_TOKENS): number {
  return summary === undefined ? budget : Math.min(budget, estimateTokens(summary));
}

function sections(f: HookFacts, rel: (s: string) => string): Section[] {
  const firstLine = (s: string): string => s.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  const command = (c: string): string => {
    const more = c.trim().split('\n').length - 1;
    return clip(rel(firstLine(c)), 160) + (more > 0 ? ` (+${more} lines)` : '');
  };
  return [
    { title: 'Latest requests (newest first, verbatim)', share: 0.25, items: f.requests.slice(0, 3).map((r) => `> ${clip(squash(r), 600)}`) },
    { title: 'Constraints the user stated (verbatim)', share: 0.2, items: f.constraints.map((c) => `- ${c}`) },
    { title: 'Errors (open first)', share: 0.1, items: f.errors.map((e) => `- ${code(clip(rel(firstLine(e.what)), 100))}: ${rel(e.line)}${e.fixedBy ? ` — fixed later by ${code(clip(rel(firstLine(e.fixedBy)), 80))}` : ' — still open'}`) },
    { title: 'Todo list (latest; open items)', share: 0.1, items: todoItems(f) },
    { title: 'Files changed (latest first)', share: 0.15, items: f.files.map((x) => `- ${rel(x.path)}: ${[...new Set(x.changes)].slice(-3).join('; ')}${x.changes.length > 3 ? ` (${x.changes.length} changes)` : ''}`) },
    { title: 'Commands run (latest first) and their outcome', share: 0.15, items: f.commands.map((c) => `- ${code(command(c.command))} → ${clip(c.outcome, 200)}`) },
    { title: 'Identifiers', share: 0.05, items: usefulIds(f.identifiers).map((id) => rel(id)) },
  ];
}

/** Open items verbatim; the done ones as a count (a continuation needs what is left, and how far the list got). */
function todoItems(f: HookFacts): string[] {
  const open = f.todo.filter((t) => !/^(?:completed|done)$/i.test(t.status));
  const done = f.todo.length - open.length;
  return [...open.map((t) => `- [${t.status || ' '}] ${clip(t.text, 200)}`), ...(done ? [`- (${done} done)`] : [])];
}

/**
 * Identifiers worth their place: not a command name or a word (no digit, slash or dot), not a grep hit's
 * `file.md-` / `file.md-###` (an identifier already listed plus a suffix).
 */
function usefulIds(ids: readonly string[]): string[] {
  const seen = new Set(ids);
  return ids.filter((id) => /[\d/.]/.test(id) && !/[-#]$/.test(id) && !(/-[^/.]*$/.test(id) && seen.has(id.replace(/-[^/.]*$/, ''))));
}

/** The key the summary is searched for: a request or rule by its start, a path, command or id as written. */
function stated(item: string, summary: string): boolean {
  const key = norm(item.replace(/^(?:> |- (?:\[[^\]]*\] )?)/, '').replace(/ (?:→|—) .*$/, '').replace(/: (?:written|edited|updated|added|deleted) .*$/, ''));
  return key.length >= 4 && summary.includes(key.slice(0, 120));
}

/**
 * The additionalContext text: sections in order of what a continuation needs most, each first within its share of
 * the budget, then the rest while any budget is left. Empty when there is nothing the summary does not say.
 */
export function hookContext(facts: HookFacts, options: ContextOptions = {}): string {
  const budget = hookBudget(options.summary, options.budgetTokens);
  const summary = norm(`${options.summary ?? ''}\n${options.kept ?? ''}`);
  const base = options.cwd?.replace(/[\\/]+$/, '');
  const rel = (s: string): string => (base && base.length > 1 ? s.split(`${base}/`).join('') : s);
  const head = 'Facts from the conversation before this compaction, copied from its transcript by context-compactor (the summary may have left them out):';
  const all = sections(facts, rel).map((s) => ({ ...s, items: s.items.filter((i) => !stated(i, summary)), taken: [] as string[] }));
  let used = estimateTokens(head);
  const cost = (s: { taken: string[]; title: string }, item: string): number => estimateTokens(item) + 1 + (s.taken.length === 0 ? estimateTokens(s.title) + 4 : 0);
  for (const round of [0, 1]) {
    for (const s of all) {
      let mine = 0;
      for (const item of s.items.slice(s.taken.length)) {
        const c = cost(s, item);
        if (used + c > budget || (round === 0 && mine + c > s.share * budget)) break;
        s.taken.push(item);
        used += c;
        mine += c;
      }
    }
  }
  const parts = all.filter((s) => s.taken.length).map((s) => (s.title === 'Identifiers' ? `## ${s.title}\n${s.taken.join(', ')}` : `## ${s.title}\n${s.taken.join('\n')}`));
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
