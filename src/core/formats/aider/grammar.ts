// The grammar of `.aider.chat.history.md` as aider/io.py writes it: `# aider chat started at …` session headers,
// `#### ` input lines, `> ` tool output lines (each ending in two spaces, a Markdown hard break), and the model's
// replies as plain Markdown in between. Lines are split into entries; which session is live is sessions.ts's job.

/** `# aider chat started at YYYY-MM-DD HH:MM:SS` (local time, no zone), written once per run. */
export const SESSION_HEADER = /^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$/;

export type EntryKind = 'header' | 'user' | 'tool' | 'assistant';

/** A run of lines of one kind: [start, end) line indexes and their text with the markup taken off. */
export interface Entry {
  readonly kind: EntryKind;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Aider ends every input and tool line with two spaces; a line without them is Markdown the model wrote. */
const HARD_BREAK = '  ';
const endsWithBreak = (l: string): boolean => l.endsWith(HARD_BREAK);
const unbreak = (l: string): string => (endsWithBreak(l) ? l.slice(0, -2) : l);

const isUserLine = (l: string): boolean => (l.startsWith('#### ') || l === '####') && endsWithBreak(l);
const isToolStart = (l: string): boolean => l.startsWith('> ') || l === '>  ';
/** A continued tool message (text with newlines gets `> ` on its first line only) ends at a line with the break. */
const MAX_CONTINUATION = 400;

/** Splits the file's lines (without their `\n`; a trailing `\r` is ignored) into entries, in order. */
export function entriesOf(lines: readonly string[]): Entry[] {
  const out: Entry[] = [];
  const line = (i: number): string => { const l = lines[i]!; return l.endsWith('\r') ? l.slice(0, -1) : l; };
  let assistantFrom = -1;
  const closeAssistant = (end: number): void => {
    if (assistantFrom < 0) return;
    const text = trimBlankLines(lines.slice(assistantFrom, end).map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)));
    if (text) out.push({ kind: 'assistant', start: assistantFrom, end, text });
    assistantFrom = -1;
  };
  let i = 0;
  while (i < lines.length) {
    const l = line(i);
    if (SESSION_HEADER.test(l)) {
      closeAssistant(i);
      out.push({ kind: 'header', start: i, end: i + 1, text: SESSION_HEADER.exec(l)![1]! });
      i++;
      continue;
    }
    if (isUserLine(l)) {
      closeAssistant(i);
      const start = i;
      const parts: string[] = [];
      while (i < lines.length && isUserLine(line(i))) parts.push(unbreak(line(i++)).slice(5));
      out.push({ kind: 'user', start, end: i, text: parts.join('\n') });
      continue;
    }
    const toolEnd = isToolStart(l) ? toolMessageEnd(i, line, lines.length, assistantFrom >= 0 && hasText(lines, assistantFrom, i)) : undefined;
    if (toolEnd !== undefined) {
      closeAssistant(i);
      const start = i;
      const parts: string[] = [];
      // Consecutive tool messages form one entry: the harness output between two replies or inputs.
      let end = toolEnd;
      for (;;) {
        const first = line(i).slice(2);
        parts.push(unbreak([first, ...lines.slice(i + 1, end).map((_, k) => line(i + 1 + k))].join('\n')));
        i = end;
        if (i >= lines.length || !isToolStart(line(i))) break;
        const next = toolMessageEnd(i, line, lines.length, false);
        if (next === undefined) break;
        end = next;
      }
      out.push({ kind: 'tool', start, end: i, text: parts.join('\n') });
      continue;
    }
    if (assistantFrom < 0 && line(i).trim() !== '') assistantFrom = i;
    i++;
  }
  closeAssistant(lines.length);
  return out;
}

/**
 * Where the tool message starting at `i` ends (exclusive), or undefined when the line is the model's Markdown
 * quote. One line when it ends with the break; else the lines up to the first that does (a multi-line message),
 * provided no other input, tool or header line comes first. Inside a reply only a one-line message (or the usage
 * report) counts: a `> ` line there is more likely the model's Markdown quote.
 */
function toolMessageEnd(i: number, line: (i: number) => string, n: number, insideReply: boolean): number | undefined {
  if (endsWithBreak(line(i))) return i + 1;
  // After a reply only the usage report is split over lines (`Tokens: … cache hit, … received.` / `Cost: …`).
  if (insideReply && !line(i).startsWith('> Tokens: ')) return undefined;
  for (let j = i + 1; j < n && j <= i + MAX_CONTINUATION; j++) {
    const l = line(j);
    if (SESSION_HEADER.test(l) || isUserLine(l) || isToolStart(l)) return undefined;
    if (endsWithBreak(l)) return j + 1;
  }
  return undefined;
}

function hasText(lines: readonly string[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (lines[k]!.trim() !== '') return true;
  return false;
}

function trimBlankLines(ls: string[]): string {
  let a = 0, b = ls.length;
  while (a < b && ls[a]!.trim() === '') a++;
  while (b > a && ls[b - 1]!.trim() === '') b--;
  return ls.slice(a, b).join('\n');
}
