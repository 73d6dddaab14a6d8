// What a tool call did, read from its name and raw arguments: the shell command it ran, the files it wrote.
import type { ProbeEvent } from './types';

type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? v as Obj : {});
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Tools that write a file they name (Claude Code, Gemini CLI, Cline, Copilot Chat, OpenCode, Goose, Auggie). */
const WRITE_TOOL = /^(?:edit|multiedit|write|notebookedit|write_file|edit_file|replace|create_file|write_to_file|replace_in_file|insert_edit_into_file|replace_string_in_file|multi_replace_string_in_file|str_replace_editor|text_editor|apply_diff|insert_content|search_and_replace|str-replace-editor|save-file)$/i;
const SHELL_TOOL = /^(?:bash|powershell|shell|shell_command|exec_command|local_shell|local_shell_call|container\.exec|run_shell_command|run_in_terminal|execute_command|developer__shell|launch-process)$/i;
const PATH_KEYS = ['file_path', 'notebook_path', 'path', 'filePath', 'absolute_path', 'absolutePath', 'target_file', 'filename', 'filepath'];
/** Other agents' tools, by what their names say (Cline, Copilot Chat, OpenCode, Goose…). */
const WRITE_NAME = /write|edit|replace|create|insert|patch/i;
const SHELL_NAME = /^(?!slash)\w*(?:shell|command|terminal|bash|exec)/i;
const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

/** Every string inside a value, in order. */
export function strings(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 24) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out, depth + 1);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out, depth + 1);
  return out;
}

/** Arguments recorded as a JSON string (Codex function_call) are parsed; a freeform input stays a string. */
export function parsedArgs(v: unknown): unknown {
  if (typeof v !== 'string' || !/^\s*[{[]/.test(v)) return v;
  try { return JSON.parse(v) as unknown; } catch { return v; }
}

/** The command a shell tool ran: ["bash", "-lc", "npm test"] runs "npm test". */
export function shellCommand(name: string, args: unknown): string | undefined {
  if (!SHELL_TOOL.test(name) && !SHELL_NAME.test(name)) return undefined;
  if (typeof args === 'string') return args;
  const o = obj(args);
  const c = o.command ?? o.cmd ?? obj(o.action).command;
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return undefined;
  const parts = c.map(String);
  return parts.length >= 3 && /^(?:ba|z)?sh$|powershell|pwsh|cmd(?:\.exe)?$/i.test(parts[0]!.replace(/^.*[\\/]/, '')) ? parts[parts.length - 1] : parts.join(' ');
}

/** Files a call wrote: a write tool's path, or the files an apply_patch (tool or shell heredoc) names. */
export function writtenFiles(name: string, args: unknown, command: string | undefined): string[] {
  const o = obj(args);
  if (WRITE_TOOL.test(name) || (WRITE_NAME.test(name) && name !== 'apply_patch')) {
    for (const k of PATH_KEYS) if (typeof o[k] === 'string' && o[k]) return [o[k] as string];
    return [];
  }
  const text = name === 'apply_patch' ? strings(args).join('\n') : (command ?? '');
  if (!text.includes('*** ')) return [];
  return [...text.matchAll(PATCH_FILE)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean);
}

/** Tools whose output is a file's or a page's content: their ids and numbers are not facts of the session. */
export const READ_TOOL = /^(?:read|read_file|read_many_files|view|glob|grep|ls|list_dir|list_directory|list_files|search_files|search_file_content|file_search|webfetch|web_fetch|fetch|notebookread|codebase_search|semantic_search)$/i;

/** The call as one searchable text (for identifiers): a writer's file content is left out. */
export function callText(name: string, args: unknown, command: string | undefined): string {
  if (command !== undefined) return command;
  if (WRITE_TOOL.test(name) || WRITE_NAME.test(name)) return '';
  return strings(args).join('\n');
}

/** A tool call as a probe event: the command it ran, the files it wrote, its searchable text. */
export function callEvent(id: string, name: string, rawArgs: unknown): Extract<ProbeEvent, { t: 'call' }> {
  const args = parsedArgs(rawArgs);
  const command = shellCommand(name, args);
  return { t: 'call', id, name, ...(command !== undefined ? { command } : {}), files: writtenFiles(name, args, command), text: callText(name, args, command) };
}
