// A command as the snapshot lists it: one line in a code span, a script in a fenced block of the lines that run.
import { heredocShape } from '../cleanup/argRecords';
import { codeSpan, fenced } from '../text/markdown';

/** A command as run: one line in a code span, several lines in a fenced block clipped to 12 lines. */
export function commandText(command: string): string {
  // A heredoc writes a file: its first line names it, the body is on disk.
  const cmd = command.includes('<<') ? heredocShape(command) ?? command : command;
  if (!cmd.includes('\n')) return codeSpan(cmd.length > 300 ? `${cmd.slice(0, 300)}…` : cmd);
  // A script's comment lines and blank lines say what it is for, not what ran: of its first 12 lines those that run
  // are kept (never more lines than before: a longer item would leave other commands out of the budget).
  const all = cmd.split('\n');
  const head = linesThatRun(all.slice(0, 12));
  const more = linesThatRun(all).length - head.length;
  // Nothing but comments: the script as it was written, its first line.
  if (head.length === 0 && more === 0) return codeSpan(all[0]!.trim().slice(0, 300));
  if (head.length === 1 && more === 0) return codeSpan(head[0]!.length > 300 ? `${head[0]!.slice(0, 300)}…` : head[0]!);
  const kept = head.map((l) => (l.length > 160 ? `${l.slice(0, 160)}…` : l));
  if (more) kept.push(`… (${more} more lines)`);
  return `\n${fenced(kept.join('\n'))}`;
}

/** A heredoc's start on a line (`<<EOF`, `<< 'PATCH'`, `<<-"END"`; not a here-string `<<<`): its terminator. */
const HEREDOC = /(?<!<)<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1/;

/**
 * The lines but blank ones and comment lines (`#`, not a shebang). A line inside a quoted string that spans lines
 * (a PowerShell here-string, a multi-line `-m "…"`) or a heredoc's body (one heredocShape left whole: its terminator
 * missing) is text, whatever it begins with: a Markdown heading or a patch's context line there is what the command
 * wrote. Quotes are followed as sh and PowerShell write them; a trailing comment ends a line.
 */
function linesThatRun(lines: readonly string[]): string[] {
  const out: string[] = [];
  let quote = '';
  let heredoc: string | undefined;
  for (const l of lines) {
    if (heredoc !== undefined) {
      out.push(l);
      if (l.trim() === heredoc) heredoc = undefined;
      continue;
    }
    if (!quote && (l.trim() === '' || /^\s*#(?!!)/.test(l))) continue;
    out.push(l);
    for (let i = 0; i < l.length; i++) {
      const c = l[i]!;
      if (quote) {
        if (c === quote) quote = '';
        else if (c === '\\' && quote === '"') i++;
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '\\') i++;
      else if (c === '#' && (i === 0 || /\s/.test(l[i - 1]!))) break;
    }
    if (!quote) heredoc = HEREDOC.exec(l)?.[2];
  }
  return out;
}
