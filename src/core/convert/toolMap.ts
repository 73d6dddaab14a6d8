// Tool calls from one agent's tools to another's: each known call's intent (intent.ts) written as the target's own
// tool, or as a shell command where the target has no tool of that kind. Anything else is not mapped (folded).
import type { AgentId } from '../model/ids';
import type { ToolCallBlock } from '../model/transcript';
import { intentOf, type ToolIntent } from './intent';
import { patchToEdits, editToPatch, writeToPatch } from './patch';

/** A shell-safe single-quoted word. */
const q = (s: string): string => (/^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Absolute for the agents whose file tools want one (Claude Code, OpenCode), from the session's folder. */
function absolute(p: string, cwd: string | undefined): string {
  if (!cwd || p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) return p;
  const rel = p.replace(/^\.\//, '');
  return rel === '.' || rel === '' ? cwd : `${cwd.replace(/[\\/]+$/, '')}/${rel}`;
}

/** The same work as a shell command, for targets without a tool of that kind. */
function asShell(i: ToolIntent): string {
  switch (i.kind) {
    case 'shell': return i.dir ? `cd ${q(i.dir)} && ${i.command}` : i.command;
    case 'read': return `cat ${q(i.path)}`;
    case 'list': return `ls -la ${q(i.path)}`;
    case 'grep': return `rg -n ${q(i.pattern)}${i.include ? ` -g ${q(i.include)}` : ''}${i.path ? ` ${q(i.path)}` : ''}`;
    case 'glob': return `rg --files -g ${q(i.pattern)}${i.path ? ` ${q(i.path)}` : ''}`;
    default: return '';
  }
}

/** A recorded call as the target agent's own tool call, or undefined when it is folded into words. */
export function mapToolCall(call: ToolCallBlock, to: AgentId, cwd: string | undefined): { name: string; input: unknown } | undefined {
  let intent = intentOf(call);
  if (!intent) return undefined;
  // A patch becomes the one write or edit it holds, for targets that have no patch tool.
  if (intent.kind === 'patch' && to !== 'codex') intent = patchToEdits(intent.patch);
  if (!intent) return undefined;
  switch (to) {
    case 'claude-code': return toClaude(intent, cwd);
    case 'codex': return toCodex(intent);
    case 'gemini-cli': return toGemini(intent);
    case 'opencode': return toOpencode(intent, cwd);
    case 'goose': return toGoose(intent, cwd);
    default: return undefined;
  }
}

function toClaude(i: ToolIntent, cwd: string | undefined): { name: string; input: unknown } | undefined {
  switch (i.kind) {
    case 'read': return { name: 'Read', input: { file_path: absolute(i.path, cwd) } };
    case 'write': return { name: 'Write', input: { file_path: absolute(i.path, cwd), content: i.content } };
    case 'edit': return { name: 'Edit', input: { file_path: absolute(i.path, cwd), old_string: i.oldText, new_string: i.newText } };
    case 'grep': return { name: 'Grep', input: { pattern: i.pattern, ...(i.path ? { path: i.path } : {}), ...(i.include ? { glob: i.include } : {}) } };
    case 'glob': return { name: 'Glob', input: { pattern: i.pattern, ...(i.path ? { path: i.path } : {}) } };
    case 'patch': return undefined;
    default: return { name: 'Bash', input: { command: asShell(i) } };
  }
}

function toCodex(i: ToolIntent): { name: string; input: unknown } | undefined {
  switch (i.kind) {
    case 'patch': return { name: 'apply_patch', input: i.patch };
    case 'write': return { name: 'apply_patch', input: writeToPatch(i.path, i.content) };
    case 'edit': return { name: 'apply_patch', input: editToPatch(i.path, i.oldText, i.newText) };
    case 'shell': return { name: 'exec_command', input: { cmd: i.command, ...(i.dir ? { workdir: i.dir } : {}) } };
    default: return { name: 'exec_command', input: { cmd: asShell(i) } };
  }
}

function toGemini(i: ToolIntent): { name: string; input: unknown } | undefined {
  switch (i.kind) {
    case 'shell': return { name: 'run_shell_command', input: { command: i.command, ...(i.dir ? { dir_path: i.dir } : {}) } };
    case 'read': return { name: 'read_file', input: { file_path: i.path } };
    case 'write': return { name: 'write_file', input: { file_path: i.path, content: i.content } };
    case 'edit': return { name: 'replace', input: { file_path: i.path, old_string: i.oldText, new_string: i.newText } };
    case 'list': return { name: 'list_directory', input: { dir_path: i.path } };
    case 'grep': return { name: 'grep_search', input: { pattern: i.pattern, ...(i.path ? { dir_path: i.path } : {}), ...(i.include ? { include: i.include } : {}) } };
    case 'glob': return { name: 'glob', input: { pattern: i.pattern, ...(i.path ? { dir_path: i.path } : {}) } };
    default: return undefined;
  }
}

function toOpencode(i: ToolIntent, cwd: string | undefined): { name: string; input: unknown } | undefined {
  switch (i.kind) {
    case 'shell': return { name: 'bash', input: { command: asShell(i), description: 'Runs a command' } };
    case 'read': return { name: 'read', input: { filePath: absolute(i.path, cwd) } };
    case 'write': return { name: 'write', input: { filePath: absolute(i.path, cwd), content: i.content } };
    case 'edit': return { name: 'edit', input: { filePath: absolute(i.path, cwd), oldString: i.oldText, newString: i.newText } };
    case 'list': return { name: 'list', input: { path: absolute(i.path, cwd) } };
    case 'grep': return { name: 'grep', input: { pattern: i.pattern, ...(i.path ? { path: i.path } : {}), ...(i.include ? { include: i.include } : {}) } };
    case 'glob': return { name: 'glob', input: { pattern: i.pattern, ...(i.path ? { path: i.path } : {}) } };
    default: return undefined;
  }
}

/** Goose's developer extension (1.3x): shell, write, edit (before / after), tree; reading is a shell command. */
function toGoose(i: ToolIntent, cwd: string | undefined): { name: string; input: unknown } | undefined {
  switch (i.kind) {
    case 'write': return { name: 'write', input: { path: absolute(i.path, cwd), content: i.content } };
    case 'edit': return { name: 'edit', input: { path: absolute(i.path, cwd), before: i.oldText, after: i.newText } };
    case 'list': return { name: 'tree', input: { path: absolute(i.path, cwd) } };
    case 'patch': return undefined;
    default: return { name: 'shell', input: { command: asShell(i) } };
  }
}
