// How a tool result ended and the line that says why it failed: past `Exit code N` headers, ANSI codes,
// `stderr:` labels and tool-error tags, so `fatal: … has no upstream branch.` is what a reader sees.
import type { ToolResultBlock } from '../model/transcript';
import { stripAnsi } from '../cleanup/identifiers';
import { outputBody } from '../cleanup/records';

export interface Outcome {
  readonly ok: boolean;
  /** The exit code when the result states one. */
  readonly exit?: number;
  /** The first meaningful line of a failure ('' when the output says nothing). */
  readonly line: string;
}

// Claude Code Bash: "Exit code 128\n<stderr>"; Gemini / OpenCode: "Exit Code: 1" or "exit status 1" lines.
const EXIT_HEADER = /^(?:Exit code:? (\d+)|Command exited with code (\d+)|exit status (\d+))\s*$/i;
const LABEL = /^(?:stderr|stdout|output|error output|command output)\s*:?\s*$|^(?:Wall time|Chunk ID|Process exited with code|Original token count)\b/i;
const TAGS = /<\/?(?:tool_use_error|error|stderr|stdout)>/g;
const STRONG = /\b(?:fatal|error|panic|exception|traceback|failed|failure|denied|refused|cannot|can't|could not|couldn't|not found|no such|invalid|undefined|unexpected|rejected|timed? ?out)\b|\w+(?:Error|Exception)\b|错误|没有那个|失败/i;
/** The opening of an output that reports its own failure. */
const SAYS_FAILED = /^(?:apply_patch verification failed\b|error:\s)/i;
const TRACEBACK = /^Traceback \(most recent call last\)/;
const EXCEPTION_LINE = /^[\w.]+(?:Error|Exception|Exit|Interrupt)\b.*$/;

/** The lines of an output as a reader would scan them: no colour codes, labels, headers or blanks. */
function readableLines(text: string): string[] {
  return stripAnsi(text.replace(TAGS, '')).split('\n').map((l) => l.replace(/\r$/, '').trim()).filter((l) => l !== '' && !LABEL.test(l) && !EXIT_HEADER.test(l));
}

/** The line of a failed output that says what went wrong, clipped to `max` characters. */
export function meaningfulLine(text: string, max = 240): string {
  const lines = readableLines(text.length > 20_000 ? `${text.slice(0, 10_000)}\n${text.slice(-10_000)}` : text);
  // A Python traceback says what failed on its last exception line, not its first.
  if (lines.some((l) => TRACEBACK.test(l))) {
    const last = [...lines].reverse().find((l) => EXCEPTION_LINE.test(l));
    if (last) return clip(last, max);
  }
  return clip(lines.find((l) => STRONG.test(l)) ?? lines[0] ?? '', max);
}

const clip = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** How `r` ended: ok, or failed with its exit code (when stated) and meaningful line. */
export function outcomeOf(r: ToolResultBlock): Outcome {
  const { body, exit: codexExit } = outputBody(r.text);
  const first = /^[^\n]{0,60}/.exec(body)?.[0] ?? '';
  const m = EXIT_HEADER.exec(stripAnsi(first).trim());
  const exit = codexExit ?? (m ? Number(m[1] ?? m[2] ?? m[3]) : undefined);
  // Without an exit code, an output that opens by saying it failed did (Codex's apply_patch: `apply_patch verification failed: …`).
  const failed = r.isError || (exit !== undefined ? exit !== 0 : SAYS_FAILED.test(body.trimStart()));
  return { ok: !failed, exit, line: failed ? meaningfulLine(body) : '' };
}
