// The facts of a compacted stretch of history, read by code from its messages: what a hook hands back to the agent.
// One function (`hookFacts`), so the state snapshot (core/snapshot) can take its place without touching the hook.
import { PLAN_TOOLS } from '../cleanup/argRecords';
import { blockIdentifiers } from '../cleanup/identifiers';
import { outputBody } from '../cleanup/records';
import { CONSTRAINT } from '../cleanup/rules/trimOldPrompts';
import type { Message, ToolCallBlock, ToolResultBlock } from '../model/transcript';

export interface FileChange { readonly path: string; readonly changes: string[] }
export interface CommandRun { readonly command: string; readonly outcome: string }
export interface ErrorFact { readonly what: string; readonly line: string; readonly fixedBy?: string }
export interface TodoItem { readonly text: string; readonly status: string }

export interface HookFacts {
  /** The user's prompts, newest first, as written. */
  readonly requests: string[];
  /** Sentences of the prompts that bind the agent, newest first, verbatim. */
  readonly constraints: string[];
  /** Files written or edited, most recently changed first, each with the shape of its changes. */
  readonly files: FileChange[];
  /** Shell commands, newest first, one entry per command (its latest outcome). */
  readonly commands: CommandRun[];
  /** Errors still open, then the last one fixed (newest first). */
  readonly errors: ErrorFact[];
  /** The latest todo list / plan. */
  readonly todo: TodoItem[];
  /** Identifiers (hashes, URLs, paths, ids) of the stretch, newest first. */
  readonly identifiers: string[];
}

const SHELL_TOOLS = new Set(['Bash', 'PowerShell', 'shell', 'shell_command', 'exec_command', 'local_shell', 'local_shell_call', 'container.exec', 'run_shell_command']);
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'write_file', 'edit_file', 'replace']);
/** What trimOldPrompts' rule does not catch: prohibitions and preferences phrased otherwise, and other languages. */
const MORE_CONSTRAINT = /\b(?:rather than|not allowed|no need to|stick to|leave)\b|não|nunca|sempre|不要|别|必须|禁止|不能|不许|只用/i;
const ERROR_LINE = /error|exception|failed|failure|fatal|traceback|not found|denied|cannot|can't|invalid|refused|panic/i;
/** Harness text in a user record, not a request: slash-command echoes, their output, system reminders. */
const HARNESS = /^\s*<(?:command-|local-command|system-reminder|user-prompt-submit-hook|bash-)/;

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const lines = (s: string): string[] => s.split('\n').map((l) => l.trim()).filter(Boolean);
const count = (s: unknown): number => (typeof s === 'string' && s ? s.split('\n').length : 0);

export function shellCommand(call: ToolCallBlock): string | undefined {
  if (!SHELL_TOOLS.has(call.name)) return undefined;
  const i = obj(call.input);
  const c = i.command ?? i.cmd ?? obj(i.action).command;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.map(String);
    return parts.length >= 3 && /^(?:ba|z)?sh$/.test(parts[0]!.replace(/^.*\//, '')) ? parts[parts.length - 1] : parts.join(' ');
  }
  return undefined;
}

/** Files a call changes, each with the shape of the change ("Edit −2 +5 lines", "Write 40 lines"). */
function changesOf(call: ToolCallBlock): { path: string; change: string }[] {
  const i = obj(call.input);
  if (EDIT_TOOLS.has(call.name)) {
    const p = i.file_path ?? i.notebook_path ?? i.path;
    if (typeof p !== 'string') return [];
    if (call.name === 'Write' || call.name === 'write_file') return [{ path: p, change: `written (${count(i.content)} lines)` }];
    const edits = Array.isArray(i.edits) ? i.edits.map(obj) : [i];
    const minus = edits.reduce((n, e) => n + count(e.old_string), 0), plus = edits.reduce((n, e) => n + count(e.new_string), 0);
    return [{ path: p, change: `edited −${minus} +${plus} lines` }];
  }
  const text = call.name === 'apply_patch' ? call.inputText : (shellCommand(call) ?? '');
  if (!text.includes('*** Begin Patch')) return [];
  const out: { path: string; change: string }[] = [];
  const done = { Update: 'updated', Add: 'added', Delete: 'deleted' } as const;
  for (const m of text.matchAll(/^\*\*\* (Update|Add|Delete) File: (.+)$/gm)) out.push({ path: m[2]!.trim(), change: `${done[m[1] as keyof typeof done]} by patch` });
  return out;
}

/** The line of an error output that says what went wrong: not Claude Code's `Exit code N` header, not a blank. */
export function errorLine(text: string): string {
  const all = lines(outputBody(text).body).filter((l) => !/^Exit code \d+$/.test(l));
  return (all.find((l) => ERROR_LINE.test(l)) ?? all[0] ?? '').slice(0, 300);
}

function failed(r: ToolResultBlock): boolean {
  if (r.isError) return true;
  const exit = outputBody(r.text).exit;
  return exit !== undefined && exit !== 0;
}

/** Same tool on the same target: a later success of it means an earlier error was fixed. */
function callKey(c: ToolCallBlock): string {
  const cmd = shellCommand(c);
  return cmd ? `${c.name} ${cmd.trim().split(/\s+/).slice(0, 2).join(' ')}` : `${c.name} ${changesOf(c)[0]?.path ?? ''}`;
}

/**
 * Sentences and list items of a prompt that bind the agent, verbatim. Written apart from eval's probes on purpose:
 * the measurement of what the hook keeps must not be read with the hook's own rules.
 */
export function constraintSentences(text: string): string[] {
  const items = text.replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '').split(/\n|(?<=[.!?。！？])\s+/);
  return items.map((t) => t.trim()).filter((t) => t.length >= 8 && t.length <= 400 && (CONSTRAINT.test(t) || MORE_CONSTRAINT.test(t)));
}

function todoOf(call: ToolCallBlock): TodoItem[] | undefined {
  if (!PLAN_TOOLS.has(call.name)) return undefined;
  const i = obj(call.input);
  const items = i.todos ?? i.plan;
  if (!Array.isArray(items)) return undefined;
  return items.map(obj).map((t) => ({ text: String(t.content ?? t.step ?? t.description ?? '').trim(), status: String(t.status ?? '') })).filter((t) => t.text);
}

const promptOf = (m: Message): string | undefined => {
  if (m.role !== 'user' || m.toolResultsOnly) return undefined;
  const text = m.blocks.flatMap((b) => (b.type === 'text' && !HARNESS.test(b.text) ? [b.text] : [])).join('\n').trim();
  return text || undefined;
};

export function hookFacts(messages: readonly Message[]): HookFacts {
  const calls = new Map<string, ToolCallBlock>();
  const requests: string[] = [];
  const files = new Map<string, string[]>();
  const commands = new Map<string, CommandRun>();
  const open = new Map<string, ErrorFact>();
  let lastFixed: ErrorFact | undefined;
  let todo: TodoItem[] = [];
  for (const m of messages) {
    const prompt = promptOf(m);
    if (prompt) requests.push(prompt);
    for (const b of m.blocks) {
      if (b.type === 'tool_call') {
        calls.set(b.id, b);
        for (const { path, change } of changesOf(b)) {
          const list = files.get(path) ?? [];
          files.delete(path); // re-insert: Map order becomes "last changed last"
          files.set(path, [...list, change]);
        }
        todo = todoOf(b) ?? todo;
      } else if (b.type === 'tool_result') {
        const call = calls.get(b.id);
        if (!call) continue;
        const cmd = shellCommand(call);
        const bad = failed(b);
        if (cmd && !cmd.includes('*** Begin Patch')) {
          const exit = outputBody(b.text).exit;
          commands.delete(cmd);
          commands.set(cmd, { command: cmd, outcome: bad ? `failed: ${errorLine(b.text)}` : exit !== undefined ? `exit ${exit}` : 'ok' });
        }
        const key = callKey(call);
        const what = cmd ?? `${call.name} ${changesOf(call)[0]?.path ?? ''}`.trim();
        if (bad) {
          open.delete(key);
          open.set(key, { what, line: errorLine(b.text) });
        } else if (open.has(key)) {
          lastFixed = { ...open.get(key)!, fixedBy: what };
          open.delete(key);
        }
      }
    }
  }
  const identifiers = new Set<string>();
  for (let k = messages.length - 1; k >= 0; k--) for (const b of messages[k]!.blocks) for (const id of blockIdentifiers(b)) identifiers.add(id);
  const constraints = new Set<string>();
  for (const r of [...requests].reverse()) for (const s of constraintSentences(r)) constraints.add(s);
  return {
    requests: requests.reverse(),
    constraints: [...constraints],
    files: [...files].reverse().map(([path, changes]) => ({ path, changes })),
    commands: [...commands.values()].reverse(),
    errors: [...[...open.values()].reverse(), ...(lastFixed ? [lastFixed] : [])],
    todo,
    identifiers: [...identifiers],
  };
}
