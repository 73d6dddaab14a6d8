// The "Files and commands" section: computed by code from the tool calls, never by the model.
import type { Message } from '../model/transcript';

const READ_TOOLS = new Set(['Read', 'NotebookRead', 'Glob', 'Grep', 'view']);
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
const SHELL_TOOLS = new Set(['Bash', 'exec_command', 'shell', 'local_shell', 'container.exec', 'shell_command']);

export interface FilesAndCommands { read: string[]; modified: string[]; commands: string[]; errors: string[] }

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

export function collectFilesAndCommands(messages: readonly Message[]): FilesAndCommands {
  const read = new Set<string>(), modified = new Set<string>(), commands: string[] = [], errors: string[] = [];
  const callNames = new Map<string, string>();
  for (const m of messages) {
    for (const b of m.blocks) {
      if (b.type === 'tool_call') {
        callNames.set(b.id, b.name);
        const i = obj(b.input);
        const file = typeof i.file_path === 'string' ? i.file_path : typeof i.path === 'string' ? i.path : typeof i.notebook_path === 'string' ? i.notebook_path : undefined;
        if (file && READ_TOOLS.has(b.name)) read.add(file);
        if (file && WRITE_TOOLS.has(b.name)) modified.add(file);
        if (b.name === 'apply_patch' || (typeof b.input === 'string' && b.input.includes('*** Begin Patch'))) {
          for (const mm of String(b.inputText).matchAll(/\*\*\* (?:Update|Add|Delete) File: (\S+)/g)) modified.add(mm[1]!);
        }
        const cmd = Array.isArray(i.command) ? i.command.map(String).join(' ') : typeof i.command === 'string' ? i.command : typeof i.cmd === 'string' ? i.cmd : undefined;
        if (cmd && SHELL_TOOLS.has(b.name)) {
          commands.push(cmd.length > 200 ? `${cmd.slice(0, 200)}…` : cmd);
          const cat = /^\s*cat\s+([^\s|;&<>]+)\s*$/.exec(cmd);
          if (cat) read.add(cat[1]!);
        }
      } else if (b.type === 'tool_result' && b.isError) {
        const line = b.text.split('\n').find((l) => /error|Error|ERR|failed|exit/i.test(l)) ?? b.text.split('\n')[0] ?? '';
        errors.push(`${callNames.get(b.id) ?? 'tool'}: ${line.trim().slice(0, 240)}`);
      }
    }
  }
  return { read: [...read], modified: [...modified], commands, errors };
}

export function renderFilesAndCommands(f: FilesAndCommands, maxItems = 40): string {
  const list = (xs: string[], tail = false): string => {
    if (xs.length === 0) return '- (none)';
    const shown = tail ? xs.slice(-maxItems) : xs.slice(0, maxItems);
    const more = xs.length - shown.length;
    return [...(tail && more > 0 ? [`- … ${more} earlier`] : []), ...shown.map((x) => `- \`${x.replace(/`/g, "'")}\``), ...(!tail && more > 0 ? [`- … ${more} more`] : [])].join('\n');
  };
  return [
    '## Files and commands',
    '### Files modified', list(f.modified),
    '### Files read', list(f.read),
    '### Commands run (latest last)', list(f.commands, true),
    '### Last errors', list(f.errors.slice(-5), true),
  ].join('\n');
}
