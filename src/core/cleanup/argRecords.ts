// Old tool-call arguments as records: paths and commands stay, edit bodies, file contents, patches and
// heredocs shrink to their shape (lines, files, ± lines) plus the identifiers they held.
import type { ToolCallBlock } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import { extractIdentifiers } from './identifiers';
import type { IdentifierListing } from './listing';
import { cut, MARK } from './records';
import { stringifySafe } from '../read/safeJson';

/** Argument keys whose values name things (paths, commands, queries): kept longer, never reshaped when one line. */
const KEY_ARGS = new Set(['file_path', 'path', 'command', 'cmd', 'url', 'pattern', 'query', 'notebook_path', 'workdir', 'description', 'glob', 'prompt']);

export interface ArgRecordParams { readonly argChars: number; readonly identifierChars: number }

function lineCount(s: string): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

const firstLine = (s: string): string => s.slice(0, (s.indexOf('\n') + 1 || s.length + 1) - 1).trim();

/** `*** Update File: a.ts (+3 −1)` lines of an apply_patch body, or undefined when `s` is not one. */
export function patchShape(s: string): string[] | undefined {
  const begin = s.indexOf('*** Begin Patch');
  if (begin < 0) return undefined;
  const out: string[] = [];
  let head: string | undefined;
  let plus = 0, minus = 0;
  const flush = (): void => { if (head) out.push(`${head} (+${plus} −${minus})`); plus = 0; minus = 0; };
  for (const line of s.slice(begin).split('\n')) {
    if (/^\*\*\* (Update|Add|Delete) File: /.test(line) || line.startsWith('*** Move to: ')) { flush(); head = line.trim(); }
    else if (line.startsWith('+') && !line.startsWith('+++')) plus++;
    else if (line.startsWith('-') && !line.startsWith('---')) minus++;
  }
  flush();
  return out;
}

/** A heredoc command keeps its first line (where the target file is named) and the terminator. */
export function heredocShape(s: string): string | undefined {
  const m = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1/.exec(s);
  if (!m) return undefined;
  const lines = s.split('\n');
  const start = lines.findIndex((l) => l.includes(m[0]));
  const end = lines.findIndex((l, i) => i > start && l.trim() === m[2]);
  if (start < 0 || end < 0) return undefined;
  const body = end - start - 1;
  return [lines.slice(0, start + 1).join('\n'), `[${MARK}: heredoc body of ${body} lines omitted]`, ...lines.slice(end)].join('\n');
}

/** The record of one long string argument. */
function shrinkString(key: string, s: string, p: ArgRecordParams, listed: Listing): string {
  const oneLine = !s.includes('\n');
  if (oneLine && s.length <= (KEY_ARGS.has(key) ? p.argChars * 5 : p.argChars)) return s;
  if (oneLine && KEY_ARGS.has(key)) return withIdentifiers(cut(s, p.argChars * 5), s, p, listed);
  const patch = patchShape(s);
  if (patch) return withIdentifiers([`[${MARK}: patch of ${lineCount(s)} lines, shape kept]`, ...patch].join('\n'), s, p, listed);
  const heredoc = (key === 'command' || key === 'cmd' || key === '') ? heredocShape(s) : undefined;
  if (heredoc && heredoc.length < s.length) return withIdentifiers(cut(heredoc, p.argChars * 5), s, p, listed);
  const what = key === 'old_string' ? 'replaced' : key === 'new_string' ? 'written' : key === 'content' ? 'of file content' : 'of text';
  return withIdentifiers(`[${MARK}: ${lineCount(s)} lines ${what} (${s.length} chars); first: ${cut(firstLine(s), 80)}]`, s, p, listed);
}

/** The listing of this run, and the identifiers this record adds (committed once the record is kept). */
interface Listing { readonly listing: IdentifierListing; readonly added: Set<string> }

/** Appends the identifiers of `original` that `shown` lacks and no earlier record listed. */
function withIdentifiers(shown: string, original: string, p: ArgRecordParams, l: Listing): string {
  const ids = new Set<string>();
  extractIdentifiers(original, ids);
  const missing = l.listing.pick(ids, shown, p.identifierChars, l.added);
  for (const id of missing) l.added.add(id);
  return missing.length ? `${shown}\n${l.listing.line(missing)}` : shown;
}

function shrink(key: string, v: unknown, p: ArgRecordParams, listed: Listing, depth: number): unknown {
  if (typeof v === 'string') return shrinkString(key, v, p, listed);
  if (typeof v !== 'object' || v === null || depth > 20) return v;
  if (Array.isArray(v)) {
    // Codex shell calls: ["bash", "-lc", "<script>"]: the script is the command.
    return v.map((x, i) => shrink(key === 'command' && i === v.length - 1 ? 'command' : key, x, p, listed, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    // A malformed call can hold its whole text in an argument's name (a model that broke its JSON: a 220,000-character
    // key): a name that long is shrunk as a value would be, or the record would be as large as the call.
    let name = k.length > p.argChars * 5 ? shrinkString('', k, p, listed) : k;
    while (name !== k && Object.prototype.hasOwnProperty.call(out, name)) name += ' ';
    Object.defineProperty(out, name, { value: shrink(k, x, p, listed, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Tools whose call states the whole plan or todo list; only the latest one matters, and it stays verbatim. */
export const PLAN_TOOLS: ReadonlySet<string> = new Set(['TodoWrite', 'update_plan', 'todowrite', 'write_todos', 'todo_write']);

/** An older plan: its item counts by status, the items themselves are in the latest plan. */
function planRecord(b: ToolCallBlock): ToolCallBlock | undefined {
  if (typeof b.input !== 'object' || b.input === null || Array.isArray(b.input)) return undefined;
  const input: Record<string, unknown> = { ...(b.input as Record<string, unknown>) };
  let changed = false;
  for (const [k, v] of Object.entries(input)) {
    if (!Array.isArray(v)) continue;
    const by = new Map<string, number>();
    for (const item of v) {
      const status = typeof item === 'object' && item !== null && typeof (item as Record<string, unknown>).status === 'string' ? (item as Record<string, string>).status! : 'item';
      by.set(status, (by.get(status) ?? 0) + 1);
    }
    input[k] = `[${MARK}: superseded by a later plan — ${v.length} items: ${[...by].map(([st, n]) => `${n} ${st}`).join(', ')}]`;
    changed = true;
  }
  if (!changed) return undefined;
  const inputText = stringifySafe(input);
  return { ...b, input, inputText, tokens: estimateTokens(inputText) + 8 };
}

/**
 * The call with its arguments as a record, or undefined when nothing long enough to shrink is in it.
 * `listing` collects the identifiers written into records, so each is listed once per transcript.
 */
export function callRecord(b: ToolCallBlock, p: ArgRecordParams, listing: IdentifierListing): ToolCallBlock | undefined {
  if (PLAN_TOOLS.has(b.name)) return planRecord(b);
  if (b.inputText.length <= p.argChars) return undefined;
  const l: Listing = { listing, added: new Set() };
  const input = shrink(typeof b.input === 'string' ? '' : 'input', b.input, p, l, 0);
  const inputText = typeof input === 'string' ? input : stringifySafe(input); // hostile inputs nest 100,000 deep
  if (inputText.length >= b.inputText.length) return undefined;
  listing.commit(l.added);
  return { ...b, input, inputText, tokens: estimateTokens(inputText) + 8 };
}
