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
  const runs = (l: string): boolean => l.trim() !== '' && !/^\s*#(?!!)/.test(l);
  const head = all.slice(0, 12).filter(runs);
  const more = all.slice(12).filter(runs).length;
  // Nothing but comments: the script as it was written, its first line.
  if (head.length === 0 && more === 0) return codeSpan(all[0]!.trim().slice(0, 300));
  if (head.length === 1 && more === 0) return codeSpan(head[0]!.length > 300 ? `${head[0]!.slice(0, 300)}…` : head[0]!);
  const kept = head.map((l) => (l.length > 160 ? `${l.slice(0, 160)}…` : l));
  if (more) kept.push(`… (${more} more lines)`);
  return `\n${fenced(kept.join('\n'))}`;
}
