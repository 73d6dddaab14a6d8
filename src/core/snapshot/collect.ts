// Reads the facts of a stretch of history from its messages as read: requests, the latest plan, files and the
// shape of their changes, commands and their outcomes, errors and whether a later step fixed them, identifiers.
import type { Message, ToolCallBlock } from '../model/transcript';
import { PLAN_TOOLS, patchShape } from '../cleanup/argRecords';
import { blockIdentifiers, MEMO_MIN_CHARS } from '../cleanup/identifiers';
import { outcomeOf } from './errorLine';
import { idsByKind, kindOf, measuredLines, packageVersions, printedFound, type IdKind, type TextSource } from './kinds';
import { isHarnessText } from '../text/harnessText';
import { previousFacts, type PreviousFacts } from './previous';

export interface FileFact { path: string; created: boolean; deleted: boolean; movedTo?: string; edits: number; writes: number; plus: number; minus: number; read: boolean; last: number }
/** `measured`: the lines of its latest output that state a figure (42 passed, 1.2 s, 3.2 MB, 87 %). */
export interface CommandFact { command: string; runs: number; ok: boolean; exit?: number; last: number; measured?: string[] }
export interface ErrorFact { what: string; line: string; key: string; at: number; fixed?: string }
export interface Facts {
  requests: { text: string; at: number }[];
  plan?: { items: { text: string; status: string }[]; raw?: string; at: number };
  files: Map<string, FileFact>;
  commands: Map<string, CommandFact>;
  errors: ErrorFact[];
  /** Identifiers by kind, newest last. */
  kinds: Map<string, IdKind>;
  /** Every identifier the cleanup's scanner finds (paths, codes, error lines…), newest last. */
  others: Set<string>;
  /** Versions and numbers with units tools printed (file reads aside), newest last: only the latest few are listed. */
  printed: Map<string, IdKind>;
  /** Summaries already in the history (an earlier compaction, the agent's or ours): their prose. */
  summaries: { text: string; origin: string }[];
  /** Lines an earlier snapshot of ours held, carried as the oldest items of their sections. */
  carried: PreviousFacts['lines'];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const lines = (s: string | undefined): number => (s ? s.split('\n').length : 0);

const SHELL = /^(?:bash|shell|shell_command|local_shell|exec_command|container\.exec|run_shell_command|run_in_terminal|execute_command|powershell|developer__shell|terminal)$/i;
const READS = /^(?:read|read_file|view|notebookread|read_many_files|open_file)$/i;
const WRITES = /^(?:write|write_file|write_to_file|create_file|create)$/i;
const EDITS = /^(?:edit|multiedit|notebookedit|replace|replace_in_file|replace_string_in_file|insert_edit_into_file|edit_file|str_replace|str_replace_editor|multi_replace_string_in_file)$/i;

/** Commands that print files or listings: a figure in their output is the file's, not a measurement of the run. */
const SHOWS_FILES = /^\s*(?:cd\s+\S+\s*&&\s*)?(?:cat|sed\s+-n|head|tail|nl|rg|grep|ls|find|tree|wc|Get-Content|Get-ChildItem|type|git\s+(?:show|log|diff|grep))\b/i;

function pathOf(i: Obj): string | undefined {
  return str(i.file_path) ?? str(i.filePath) ?? str(i.absolute_path) ?? str(i.absolutePath) ?? str(i.path) ?? str(i.notebook_path) ?? str(i.target_file);
}

/** The command a shell-like call ran: `["bash","-lc","x"]` is `x`. */
export function commandOf(call: ToolCallBlock): string | undefined {
  if (!SHELL.test(call.name) && !/shell|terminal|exec/i.test(call.name)) return undefined;
  const i = obj(call.input);
  const c = i.command ?? i.cmd ?? obj(i.action).command;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.map(String);
    return parts.length >= 3 && /^(?:ba|z)?sh$|pwsh|powershell/i.test(parts[0]!.replace(/^.*[\\/]/, '')) ? parts[parts.length - 1] : parts.join(' ');
  }
  return typeof call.input === 'string' ? call.input : undefined;
}

function fileFact(f: Facts, path: string, at: number): FileFact {
  let x = f.files.get(path);
  if (!x) { x = { path, created: false, deleted: false, edits: 0, writes: 0, plus: 0, minus: 0, read: false, last: at }; f.files.set(path, x); }
  f.files.delete(path); f.files.set(path, x); // newest last
  x.last = at;
  return x;
}

/** Edits a call made: path → lines added/removed, or created/deleted/moved (patches name several files). */
function noteChanges(f: Facts, call: ToolCallBlock, resultText: string, at: number): string[] {
  const i = obj(call.input);
  const patchText = call.name === 'apply_patch' || typeof call.input === 'string' ? (typeof call.input === 'string' ? call.input : str(i.input) ?? str(i.patch) ?? '') : (commandOf(call) ?? '');
  if (patchText.includes('*** Begin Patch')) {
    const out: string[] = [];
    let current: FileFact | undefined;
    for (const line of patchShape(patchText) ?? []) {
      const m = /^\*\*\* (Update|Add|Delete) File: (.+?) \(\+(\d+) −(\d+)\)$|^\*\*\* Move to: (.+?) \(/.exec(line);
      if (!m) continue;
      if (m[5]) { if (current) current.movedTo = m[5]; continue; }
      current = fileFact(f, m[2]!, at);
      if (m[1] === 'Add') current.created = true; else if (m[1] === 'Delete') current.deleted = true; else current.edits++;
      current.plus += Number(m[3]); current.minus += Number(m[4]);
      out.push(m[2]!);
    }
    return out;
  }
  const sub = str(i.command);
  const name = /text_editor/i.test(call.name) && sub ? sub : call.name; // Goose: one tool, the operation in `command`
  const path = pathOf(i);
  if (!path) return [];
  if (READS.test(name)) { fileFact(f, path, at).read = true; return []; }
  if (WRITES.test(name)) {
    const x = fileFact(f, path, at);
    const content = str(i.content) ?? str(i.file_text) ?? str(i.text) ?? '';
    if (/\bcreated\b/i.test(resultText.slice(0, 300)) && x.edits + x.writes === 0) x.created = true;
    x.writes++; x.plus = lines(content); x.minus = 0; x.deleted = false;
    return [path];
  }
  if (EDITS.test(name)) {
    const x = fileFact(f, path, at);
    const edits = Array.isArray(i.edits) ? i.edits.map(obj) : [i];
    for (const e of edits) {
      x.edits++;
      x.minus += lines(str(e.old_string) ?? str(e.oldString) ?? str(e.old_str));
      x.plus += lines(str(e.new_string) ?? str(e.newString) ?? str(e.new_str));
    }
    return [path];
  }
  return [];
}

const unquote = (p: string): string => p.replace(/^['"]|['"]$/g, '');

/** `rm`, `mv` and `git mv|rm` in a shell command: the shape a file change took outside the edit tools. */
function noteShellChanges(f: Facts, cmd: string, at: number): string[] {
  const out: string[] = [];
  for (const m of cmd.matchAll(/(?:^|[;&|]\s*)(?:git\s+)?(rm|mv)\s+(?:-\w+\s+)*([^\s;&|]+)(?:\s+([^\s;&|]+))?/gm)) {
    const x = fileFact(f, m[2]!, at);
    if (m[1] === 'rm') x.deleted = true; else if (m[3]) x.movedTo = m[3];
    out.push(m[2]!);
  }
  // A file written from the shell (`> f`, `cat <<EOF > f`, `tee f`) or edited in place (`sed -i … f`).
  const first = cmd.split('\n')[0]!;
  for (const m of cmd.matchAll(/(?<![0-9&>])>>?\s*(['"]?[^\s'";&|<>()]+['"]?)|\btee\s+(?:-a\s+)?(['"]?[^\s'";&|<>()-][^\s'";&|<>()]*['"]?)/g)) {
    const path = unquote(m[1] ?? m[2]!);
    if (/^\/dev\/|^&/.test(path) || !/[./]/.test(path)) continue;
    const x = fileFact(f, path, at);
    x.writes++; x.plus = cmd.includes('<<') ? Math.max(0, cmd.split('\n').length - 2) : x.plus; x.deleted = false;
    out.push(path);
  }
  const sed = /\bsed\s+-i\S*\s+(?:-e\s+)?(?:'[^']*'|"[^"]*"|\S+)\s+(['"]?[^\s'";&|<>]+['"]?)/.exec(first);
  if (sed) { const x = fileFact(f, unquote(sed[1]!), at); x.edits++; out.push(x.path); }
  return out;
}

function planOf(call: ToolCallBlock): Facts['plan'] | undefined {
  const i = obj(call.input);
  const list = [i.todos, i.plan, i.items].find(Array.isArray) as unknown[] | undefined;
  if (!list) return { items: [], raw: call.inputText, at: 0 };
  return { items: list.map(obj).map((t) => ({ text: str(t.content) ?? str(t.step) ?? str(t.description) ?? str(t.title) ?? '', status: str(t.status) ?? '' })).filter((t) => t.text), at: 0 };
}

/** An earlier summary: our snapshot's facts become the oldest facts; its prose (or an agent's summary) stays prose. */
function carry(f: Facts, text: string, origin: string, at: number): void {
  const prev = previousFacts(text);
  if (!prev) { f.summaries.push({ text, origin }); return; }
  if (prev.prose) f.summaries.push({ text: prev.prose, origin });
  for (const r of prev.requests) f.requests.push({ text: r, at });
  for (const k of ['plan', 'errors', 'files', 'commands'] as const) f.carried[k].push(...prev.lines[k]);
  for (const [id, kind] of prev.kinds) if (!f.kinds.has(id)) f.kinds.set(id, kind);
  for (const id of prev.others) f.others.add(id);
}

/** The scans of one long text, kept for the next time the same text comes (see `scansOf` in collectFacts). */
interface LongScans { ids?: Map<string, IdKind>; versions?: Map<string, string>; printed?: readonly (readonly [string, IdKind])[] }

const PR_URL = /\/(?:pull|issues|merge_requests)\/(\d+)\b/;

/** `repeats: 'scan'` scans a long text seen before again instead of reusing its scans (the test's reference path). */
export function collectFacts(messages: readonly Message[], options: { readonly repeats?: 'reuse' | 'scan' } = {}): Facts {
  const f: Facts = { requests: [], files: new Map(), commands: new Map(), errors: [], kinds: new Map(), others: new Set(), printed: new Map(), summaries: [], carried: { plan: [], errors: [], files: [], commands: [] } };
  const calls = new Map<string, { call: ToolCallBlock; at: number }>();
  const resultOf = new Map<string, string>();
  for (const m of messages) for (const b of m.blocks) if (b.type === 'tool_result') resultOf.set(b.id, b.text.slice(0, 300));
  const touched = new Map<string, number>(); // path → last change position, to say a later edit fixed an error
  const note = (id: string, k: IdKind): void => { f.kinds.delete(id); f.kinds.set(id, k); };
  // Patterns only over words people wrote (prompts, replies, commands, error lines); output's URLs and hashes
  // come from the scanner's identifiers below, computed once per block and shared with the recall measure.
  // A long output seen again (a file read again and again: a third of a real session's result text) gives the same
  // scans: each is made once per text and source, as the identifier memo does (same length threshold, same reason).
  const seen: Record<TextSource, Map<string, LongScans>> = { prose: new Map(), args: new Map(), output: new Map() };
  const scansOf = (text: string, source: TextSource): LongScans | undefined => {
    if (text.length < MEMO_MIN_CHARS || options.repeats === 'scan') return undefined;
    let s = seen[source].get(text);
    if (!s) seen[source].set(text, (s = {}));
    return s;
  };
  const kinds = (text: string, source: TextSource = 'prose'): void => {
    const memo = scansOf(text, source);
    let found = memo?.ids;
    if (!found) { found = new Map<string, IdKind>(); idsByKind(text, found, source); if (memo) memo.ids = found; }
    for (const [id, k] of found) note(id, k);
  };
  // A package's version, beside its name, once: a later version of the same package replaces the earlier one.
  const versionOf = new Map<string, string>();
  const versions = (text: string, source: TextSource): void => {
    const memo = scansOf(text, source);
    const found = memo?.versions ?? packageVersions(text);
    if (memo) memo.versions = found;
    for (const [name, id] of found) {
      const old = versionOf.get(name);
      if (old !== undefined && old !== id) f.kinds.delete(old);
      versionOf.set(name, id);
      note(id, 'version');
    }
  };
  let at = 0;
  for (const m of messages) {
    for (const b of m.blocks) {
      at++;
      for (const id of blockIdentifiers(b)) {
        const k = kindOf(id);
        if (k) note(id, k); else { f.others.delete(id); f.others.add(id); }
        const pr = k === 'url' ? PR_URL.exec(id) : null; // a PR or issue link also names its number
        if (pr) note(`#${pr[1]}`, 'issue');
      }
      if (b.type === 'summary') { carry(f, b.text, b.origin, at); continue; }
      if (b.type === 'text') {
        if (m.role === 'user' && !m.toolResultsOnly && b.text.trim() && !b.text.startsWith('[context-compactor') && !isHarnessText(b.text)) f.requests.push({ text: b.text, at });
        kinds(b.text);
      } else if (b.type === 'tool_call') {
        calls.set(b.id, { call: b, at });
        if (PLAN_TOOLS.has(b.name)) { const p = planOf(b); if (p) f.plan = { ...p, at }; continue; }
        const cmd = commandOf(b);
        for (const p of noteChanges(f, b, resultOf.get(b.id) ?? '', at)) touched.set(p, at);
        if (cmd !== undefined && !cmd.includes('*** Begin Patch')) {
          for (const p of noteShellChanges(f, cmd, at)) touched.set(p, at);
          const key = cmd.trim();
          const c = f.commands.get(key) ?? { command: key, runs: 0, ok: true, last: at };
          c.runs++; c.last = at;
          f.commands.delete(key); f.commands.set(key, c);
          kinds(cmd);
        } else { kinds(b.inputText, 'args'); versions(b.inputText, 'args'); } // a patch or file written names tickets (FR-009), a manifest its packages
      } else if (b.type === 'tool_result') {
        const c = calls.get(b.id);
        const o = outcomeOf(b);
        kinds(b.text, 'output');
        versions(b.text, 'output');
        // A file read prints the file's own numbers, not what a run measured.
        if (!(c && READS.test(c.call.name))) {
          const memo = scansOf(b.text, 'output');
          const printed = memo?.printed ?? printedFound(b.text);
          if (memo) memo.printed = printed;
          for (const [id, kind] of printed) { f.printed.delete(id); f.printed.set(id, kind); }
        }
        const cmd = c ? commandOf(c.call) : undefined;
        const entry = cmd !== undefined ? f.commands.get(cmd.trim()) : undefined;
        if (entry) { entry.ok = o.ok; entry.exit = o.exit; entry.measured = SHOWS_FILES.test(entry.command) ? undefined : measuredLines(b.text); }
        if (o.ok) {
          // A later success of the same command closes its earlier failures.
          if (cmd !== undefined) for (const e of f.errors) if (!e.fixed && e.key === `$ ${cmd.trim()}`) e.fixed = 'a later run succeeded';
          continue;
        }
        const path = c ? pathOf(obj(c.call.input)) : undefined;
        const what = cmd !== undefined ? cmd.trim().split('\n')[0]! : `${c?.call.name ?? 'tool'}${path ? ` ${path}` : ''}`;
        const error = { what, line: o.line || (o.exit !== undefined ? `exit ${o.exit}` : 'failed'), key: cmd !== undefined ? `$ ${cmd.trim()}` : `${c?.call.name} ${path ?? ''}`, at };
        // The same failure again is one error (its latest time).
        const same = f.errors.findIndex((e) => e.key === error.key && e.line === error.line && !e.fixed);
        if (same >= 0) f.errors.splice(same, 1);
        f.errors.push(error);
        kinds(o.line);
      }
    }
  }
  // An error is fixed by a later change of a file it names (or the file its tool worked on).
  for (const e of f.errors) {
    if (e.fixed) continue;
    for (const [p, when] of touched) if (when > e.at && (e.key.endsWith(` ${p}`) || e.line.includes(p) || e.what.includes(p))) { e.fixed = `${p} edited later`; break; }
  }
  return f;
}
