// Probes: the facts a continuation needs, read from the ORIGINAL session by rules alone (no model, deterministic).
import type { Block, Message, Session, ToolCallBlock, ToolResultBlock } from '../model/transcript';
import { outputBody } from '../cleanup/records';
import { argStrings, contentWords, normalize } from './text';
import { type ProbeKind } from './types';

export interface Probe {
  readonly kind: ProbeKind;
  /** What a reader of the report sees ("file src/a.ts", "constraint: don't touch the db"). */
  readonly label: string;
  /** Normalized strings; the probe is kept when the compacted text contains any of them. */
  readonly needles: readonly string[];
  /** For rules a summary may paraphrase: the content words that must appear close together instead. */
  readonly words?: readonly string[];
}

/** At most this many probes per kind, the most recent first: a long session must not drown the rest. */
export const PER_KIND = 10;
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'write_file', 'edit_file', 'replace']);
const SHELL_TOOLS = new Set(['Bash', 'PowerShell', 'shell', 'shell_command', 'exec_command', 'local_shell', 'local_shell_call', 'container.exec', 'run_shell_command']);
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;
/** What a user says to bind the agent, in the languages the corpus holds (English, Portuguese, Chinese). */
const CONSTRAINT = /\b(?:don'?t|do not|never|must(?:n'?t| not)?|should(?:n'?t| not)|avoid|always|make sure|instead of|rather than|only use|use only|not allowed|no need to|não|nunca|sempre)\b|不要|别|必须|禁止|不能|不许|只用/i;
/** An imperative that names the tool or way to use: "Use pnpm.", "Please keep the API stable.", "Stick to ES modules." */
const IMPERATIVE = /^(?:please\s+)?(?:use|keep|stick to|prefer|leave)\b/i;
const HEX_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// Ticket keys (ABC-123) and, in prose only, issue numbers (#123; code is full of CSS colours like #333).
const TICKET = /\b[A-Z]{2,10}-\d{1,6}\b/g;
const ISSUE = /(?<=\b(?:issues?|pr|pull request|fix(?:es|ed)?|close[sd]?|see|ticket|bug)\s*)#\d{2,5}\b/gi;
const NOT_AN_ID = /^(?:utf|iso|sha|md|aes|rsa|ucs|win|cp|gpt|claude|es|ecma)-/i;
const ERROR_LINE = /error|exception|failed|failure|fatal|traceback|not found|denied|cannot|can't|invalid|refused|panic/i;

const clip = (s: string, n: number): string => (s.length <= n ? s : s.slice(0, n));
const firstLine = (s: string): string => s.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
const isPrompt = (m: Message): boolean => m.role === 'user' && !m.toolResultsOnly && m.blocks.some((b) => b.type === 'text' && b.text.trim() !== '');
const promptText = (m: Message): string => m.blocks.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');

/** Normalized text with the session's folder taken off its paths ("/home/u/app/src/a.ts" → "src/a.ts"). */
function relative(n: string, cwd: string | undefined): string {
  const base = cwd ? normalize(cwd).replace(/\/+$/, '') : '';
  return base.length > 1 ? n.split(`${base}/`).join('') : n;
}

/** A path as the agent wrote it, relative to the session's folder when inside it (both spellings count). */
function pathNeedles(p: string, cwd: string | undefined): string[] {
  const abs = normalize(p);
  const rel = relative(abs, cwd);
  const parts = rel.split('/').filter(Boolean);
  // A bare basename ("index.ts") would be found anywhere; the last two segments name a file well enough.
  const tail = parts.length >= 2 ? parts.slice(-2).join('/') : rel;
  return [...new Set([abs, rel, tail])].filter((s) => s.length >= 3);
}

/** The first `max` characters, with or without the session's folder in its paths (records write them relative). */
function textNeedles(s: string, cwd: string | undefined, max: number): string[] {
  const n = normalize(s);
  return [...new Set([clip(n, max), clip(relative(n, cwd), max)])].filter(Boolean);
}
/** A command by its start: 40 characters say which command it was. */
const commandNeedles = (line: string, cwd: string | undefined): string[] => textNeedles(line, cwd, 40);

function record<T>(into: Map<string, T>, key: string, value: T): void {
  into.delete(key); // re-insert: Map order becomes "last seen last"
  into.set(key, value);
}
const newest = <T>(m: Map<string, T>): T[] => [...m.values()].reverse().slice(0, PER_KIND);

function shellCommand(call: ToolCallBlock): string | undefined {
  if (!SHELL_TOOLS.has(call.name)) return undefined;
  const o = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, unknown>;
  const action = (o.action && typeof o.action === 'object' ? o.action : {}) as Record<string, unknown>;
  const c = o.command ?? o.cmd ?? action.command;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.map(String);
    // ["bash", "-lc", "npm test"]: the script is what was run.
    return parts.length >= 3 && /^(?:ba|z)?sh$|powershell|pwsh|cmd(?:\.exe)?$/i.test(parts[0]!.replace(/^.*[\\/]/, '')) ? parts[parts.length - 1] : parts.join(' ');
  }
  return typeof call.input === 'string' ? call.input : undefined;
}

function editedFiles(call: ToolCallBlock): string[] {
  const o = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, unknown>;
  if (EDIT_TOOLS.has(call.name)) {
    const p = o.file_path ?? o.notebook_path ?? o.path;
    return typeof p === 'string' ? [p] : [];
  }
  const text = call.name === 'apply_patch' ? argStrings(call.input).join('\n') : (shellCommand(call) ?? '');
  if (!text.includes('*** ')) return [];
  return [...text.matchAll(PATCH_FILE)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
}

/** The line of an error output that says what went wrong (whole: needles clip it after taking the folder off). */
function errorLine(r: ToolResultBlock): string {
  const body = outputBody(r.text).body;
  const lines = body.split('\n').map((l) => l.trim()).filter(Boolean);
  return clip(lines.find((l) => ERROR_LINE.test(l)) ?? lines[0] ?? '', 400);
}

function ruleProbe(kind: ProbeKind, sentence: string): Probe {
  const text = clip(sentence.trim(), 240);
  return { kind, label: `${kind === 'constraints' ? 'constraint' : 'instruction'}: ${clip(text, 100)}`, needles: [normalize(clip(text, 120))], words: contentWords(text).slice(0, 10) };
}

/** Sentences (and list items) of a text that bind the agent. */
export function constraintSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const s of line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').split(/(?<=[.!?。！？])\s+/)) {
      const t = s.trim();
      if (t.length >= 8 && t.length <= 400 && (CONSTRAINT.test(t) || IMPERATIVE.test(t))) out.push(t);
    }
  }
  return out;
}

/** Texts of instruction files the agent was given or read: AGENTS.md / CLAUDE.md. */
function instructionTexts(session: Session, calls: ReadonlyMap<string, ToolCallBlock>): string[] {
  const out: string[] = [];
  for (const m of session.messages) {for (const b of m.blocks) {
    if ((b.type === 'meta' || b.type === 'text') && /^# AGENTS\.md instructions|Contents of [^\n]*(?:CLAUDE|AGENTS)\.md/.test(b.text)) out.push(b.text);
    if (b.type === 'tool_result' && !b.isError) {
      const call = calls.get(b.id);
      const p = call && (call.input as Record<string, unknown> | undefined)?.file_path;
      if (typeof p === 'string' && /(?:^|[\\/])(?:CLAUDE|AGENTS)\.md$/.test(p)) out.push(b.text.replace(/^\s*\d+\u2192/gm, ''));
    }
  }}
  return out;
}

export function extractProbes(session: Session): Probe[] {
  const calls = new Map<string, ToolCallBlock>();
  const results = new Map<string, ToolResultBlock>();
  const files = new Map<string, Probe>(), commands = new Map<string, Probe>(), ids = new Map<string, Probe>(), constraints = new Map<string, Probe>();
  let lastError: { result: ToolResultBlock; call?: ToolCallBlock; at: number } | undefined;
  let todos: Probe[] = [];
  let latest: Message | undefined;
  const order: Block[] = [];
  for (const m of session.messages) {
    if (isPrompt(m)) latest = m;
    for (const b of m.blocks) {
      order.push(b);
      if (b.type === 'tool_call') calls.set(b.id, b);
      if (b.type === 'tool_result') results.set(b.id, b);
    }
  }
  order.forEach((b, at) => {
    if (b.type === 'tool_call') {
      for (const f of editedFiles(b)) record(files, normalize(f), { kind: 'files', label: `file ${f}`, needles: pathNeedles(f, session.cwd) });
      const cmd = shellCommand(b);
      if (cmd && !cmd.includes('*** Begin Patch')) {
        const line = firstLine(cmd);
        if (line.length >= 2) record(commands, normalize(line), { kind: 'commands', label: `command ${clip(line, 60)}`, needles: commandNeedles(line, session.cwd) });
      }
      const list = todoList(b);
      if (list) todos = list;
      idsIn(argStrings(b.input).join('\n'), ids, false);
    } else if (b.type === 'tool_result' && b.isError && errorLine(b)) {
      lastError = { result: b, call: calls.get(b.id), at };
    } else if (b.type === 'text') {
      idsIn(b.text, ids, true);
    }
  });
  for (const m of session.messages) if (isPrompt(m)) for (const s of constraintSentences(promptText(m))) record(constraints, normalize(s), ruleProbe('constraints', s));
  const instructions = new Map<string, Probe>();
  for (const t of instructionTexts(session, calls)) for (const s of constraintSentences(t)) if (!instructions.has(normalize(s))) instructions.set(normalize(s), ruleProbe('instructions', s));

  const out: Probe[] = [...newest(files), ...newest(commands), ...newest(ids), ...todos.slice(0, PER_KIND), ...newest(constraints), ...[...instructions.values()].slice(0, PER_KIND)];
  if (latest) {
    const text = promptText(latest).trim().replace(/\s+/g, ' ');
    out.push({ kind: 'request', label: `latest request: ${clip(text, 80)}`, needles: textNeedles(text, session.cwd, 120) });
  }
  if (lastError) out.push(...errorProbes(lastError, order, results, session.cwd));
  return out;
}

/** The last error, and — when a later run of the same call succeeded — that run, which says it was fixed. */
function errorProbes(e: { result: ToolResultBlock; call?: ToolCallBlock; at: number }, order: readonly Block[], results: ReadonlyMap<string, ToolResultBlock>, cwd: string | undefined): Probe[] {
  const line = errorLine(e.result);
  const probes: Probe[] = [];
  const key = e.call ? callKey(e.call) : undefined;
  const fix = key ? order.slice(e.at + 1).find((b): b is ToolCallBlock => b.type === 'tool_call' && callKey(b) === key && results.get(b.id)?.isError === false) : undefined;
  probes.push({ kind: 'error', label: `last error${fix ? ' (fixed later)' : ' (still open)'}: ${line}`, needles: textNeedles(line, cwd, 100) });
  if (!fix) return probes;
  // A patch is named by the file it fixed; a command by its start.
  const file = editedFiles(fix)[0];
  const cmd = firstLine(shellCommand(fix) ?? '');
  if (file) probes.push({ kind: 'error', label: `the edit that fixed it: ${file}`, needles: pathNeedles(file, cwd) });
  else if (cmd) probes.push({ kind: 'error', label: `the run that fixed it: ${clip(cmd, 60)}`, needles: commandNeedles(cmd, cwd) });
  return probes;
}

/** Same tool and same target: the command's first two words, or the file edited. */
function callKey(c: ToolCallBlock): string {
  const cmd = shellCommand(c);
  if (cmd) return `${c.name} ${cmd.trim().split(/\s+/).slice(0, 2).join(' ')}`;
  return `${c.name} ${editedFiles(c)[0] ?? ''}`;
}

function todoList(b: ToolCallBlock): Probe[] | undefined {
  const o = (b.input && typeof b.input === 'object' ? b.input : {}) as Record<string, unknown>;
  const items = b.name === 'TodoWrite' ? o.todos : b.name === 'update_plan' ? o.plan : undefined;
  if (!Array.isArray(items)) return undefined;
  const open: Probe[] = [];
  for (const it of items as Record<string, unknown>[]) {
    const text = typeof it?.content === 'string' ? it.content : typeof it?.step === 'string' ? it.step : '';
    if (!text || it.status === 'completed') continue;
    const t = clip(text.trim(), 80);
    open.push({ kind: 'todos', label: `open todo: ${t}`, needles: [normalize(t)], words: contentWords(text).slice(0, 10) });
  }
  return open;
}

function idsIn(text: string, into: Map<string, Probe>, prose: boolean): void {
  if (text.length > 200_000) text = text.slice(-200_000);
  const found: { at: number; id: string }[] = [];
  // UUIDs first, then blanked out so their hex groups are not counted again as hashes.
  const rest = text.replace(UUID, (id, at: number) => { found.push({ at, id }); return ' '.repeat(id.length); });
  for (const re of prose ? [HEX_ID, TICKET, ISSUE] : [HEX_ID, TICKET]) for (const m of rest.matchAll(re)) if (!NOT_AN_ID.test(m[0])) found.push({ at: m.index, id: m[0] });
  found.sort((a, b) => a.at - b.at);
  for (const { id } of found) record(into, id.toLowerCase(), { kind: 'ids', label: `id ${id}`, needles: [normalize(id)] });
}
