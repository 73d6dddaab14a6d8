// One history file holds every aider run in its folder: the runs it holds, the one a path names (`FILE#N`), and
// the live one (the last: each run starts with an empty chat unless --restore-chat-history).
import type { Entry } from './grammar';

export interface AiderRun {
  /** 1-based, in file order. */
  readonly number: number;
  /** Local time the run started, as the header says (`YYYY-MM-DD HH:MM:SS`); undefined for text before any header. */
  readonly startedAt?: string;
  /** Its entries (header first when it has one). */
  readonly entries: readonly Entry[];
}

/** The runs in file order; text before the first header (a file someone cut) is a run of its own. */
export function runsOf(entries: readonly Entry[]): AiderRun[] {
  const runs: AiderRun[] = [];
  let current: Entry[] = [];
  let startedAt: string | undefined;
  const close = (): void => {
    if (current.length > 0) runs.push({ number: runs.length + 1, startedAt, entries: current });
  };
  for (const e of entries) {
    if (e.kind === 'header') {
      close();
      current = [e];
      startedAt = e.text;
    } else current.push(e);
  }
  close();
  return runs;
}

/** `path#N` names run N of the file at `path` (N ≥ 1); any other path names the file, whose live run is the last. */
export function splitRunSuffix(path: string): { file: string; run?: number } {
  const m = /^(.*)#(\d{1,6})$/.exec(path);
  if (!m || Number(m[2]) < 1) return { file: path };
  return { file: m[1]!, run: Number(m[2]) };
}

/** Whether a run holds anything the model saw (a reply, or a prompt that is not a command). */
export const hasConversation = (run: AiderRun): boolean => run.entries.some((e) => e.kind === 'assistant');
