// What a recorded tool call did, read from any agent's tool name and arguments into one of a few kinds (shell, read,
// write, edit, list, grep, glob, patch) every target agent has a tool (or a shell command) for.
import type { ToolCallBlock } from '../model/transcript';

type Obj = Record<string, unknown>;

/** What a call did, in the words every agent's tools share. */
export type ToolIntent =
  | { readonly kind: 'shell'; readonly command: string; readonly dir?: string }
  | { readonly kind: 'read'; readonly path: string }
  | { readonly kind: 'write'; readonly path: string; readonly content: string }
  | { readonly kind: 'edit'; readonly path: string; readonly oldText: string; readonly newText: string }
  | { readonly kind: 'list'; readonly path: string }
  | { readonly kind: 'grep'; readonly pattern: string; readonly path?: string; readonly include?: string }
  | { readonly kind: 'glob'; readonly pattern: string; readonly path?: string }
  | { readonly kind: 'patch'; readonly patch: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A shell command recorded as argv (`["bash","-lc","ls"]`) as the line it ran. */
function commandLine(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return undefined;
  const argv = v as string[];
  if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2];
  return argv.join(' ');
}

/** The intent of a recorded call, or undefined for a tool no other agent has. */
export function intentOf(call: ToolCallBlock): ToolIntent | undefined {
  const name = call.name.replace(/^developer__/, '');
  const a: Obj = isObj(call.input) ? call.input : {};
  const path = str(a.file_path) ?? str(a.filePath) ?? str(a.absolute_path) ?? str(a.absolutePath) ?? str(a.path);
  switch (name) {
    // Cline and Roo: execute_command; Copilot Chat: run_in_terminal.
    case 'Bash': case 'bash': case 'shell': case 'shell_command': case 'exec_command': case 'execute_command': case 'run_in_terminal': case 'run_shell_command': case 'local_shell': {
      const command = commandLine(a.command) ?? commandLine(a.cmd);
      const dir = str(a.workdir) ?? str(a.dir_path) ?? str(a.directory) ?? str(a.working_directory);
      return command ? { kind: 'shell', command, ...(dir ? { dir } : {}) } : undefined;
    }
    case 'Read': case 'read_file': case 'read': case 'view':
      return path ? { kind: 'read', path } : undefined;
    case 'Write': case 'write_file': case 'write': case 'write_to_file': case 'create_file':
      return path && typeof a.content === 'string' ? { kind: 'write', path, content: a.content } : undefined;
    case 'Edit': case 'replace': case 'edit': {
      // Goose's `edit` names the two texts before / after.
      const oldText = str(a.old_string) ?? str(a.oldString) ?? str(a.before), newText = a.new_string ?? a.newString ?? a.after;
      return path && oldText !== undefined && typeof newText === 'string' ? { kind: 'edit', path, oldText, newText } : undefined;
    }
    case 'text_editor': {
      if (!path) return undefined;
      if (a.command === 'view') return { kind: 'read', path };
      if (a.command === 'write' && typeof a.file_text === 'string') return { kind: 'write', path, content: a.file_text };
      if (a.command === 'str_replace' && typeof a.old_str === 'string' && typeof a.new_str === 'string') return { kind: 'edit', path, oldText: a.old_str, newText: a.new_str };
      return undefined;
    }
    case 'LS': case 'list_directory': case 'list': case 'tree': case 'list_files': case 'list_dir':
      return { kind: 'list', path: str(a.dir_path) ?? path ?? '.' };
    case 'Grep': case 'grep_search': case 'search_file_content': case 'grep': case 'search_files': {
      const pattern = str(a.pattern) ?? str(a.regex);
      const include = str(a.glob) ?? str(a.include) ?? str(a.file_pattern);
      const dir = str(a.dir_path) ?? path;
      return pattern ? { kind: 'grep', pattern, ...(dir ? { path: dir } : {}), ...(include ? { include } : {}) } : undefined;
    }
    case 'Glob': case 'glob': {
      const pattern = str(a.pattern);
      const dir = str(a.dir_path) ?? path;
      return pattern ? { kind: 'glob', pattern, ...(dir ? { path: dir } : {}) } : undefined;
    }
    case 'apply_patch': {
      const patch = typeof call.input === 'string' ? call.input : str(a.input) ?? str(a.patch);
      return patch?.includes('*** Begin Patch') ? { kind: 'patch', patch } : undefined;
    }
    default: return undefined;
  }
}
