// An earlier snapshot of ours inside the replaced turns (a second compaction): its facts carry forward as the
// oldest items of the new one, under the same budget, instead of being nested whole or lost.
import { MARK } from '../cleanup/records';
import { ID_KINDS, KIND_LABELS, type IdKind } from './kinds';

/** What an earlier snapshot held, by section; lines as written, so carrying them again changes nothing. */
export interface PreviousFacts {
  readonly requests: string[];
  readonly lines: { plan: string[]; errors: string[]; files: string[]; commands: string[] };
  readonly kinds: [string, IdKind][];
  readonly others: string[];
  /** The text around it (a summary's prose, an agent's own summary): kept as the earlier summary. */
  readonly prose: string;
}

export const SNAPSHOT_HEADER = `[${MARK}: state snapshot of the earlier part of this session, built from its records]`;

const SECTION_OF: Record<string, keyof PreviousFacts['lines'] | 'requests' | 'identifiers' | 'earlier'> = {
  'Requests and constraints': 'requests', 'Latest plan / todo list': 'plan', Errors: 'errors', 'Files changed': 'files',
  'Commands run': 'commands', 'From the earlier compaction': 'earlier', Identifiers: 'identifiers',
};
const KIND_OF_LABEL = new Map<string, IdKind>(ID_KINDS.map((k) => [KIND_LABELS[k], k]));

/** The facts of an earlier snapshot in `text`, or undefined when it holds none. */
export function previousFacts(text: string): PreviousFacts | undefined {
  const at = text.indexOf(SNAPSHOT_HEADER);
  if (at < 0) return undefined;
  const out: PreviousFacts = { requests: [], lines: { plan: [], errors: [], files: [], commands: [] }, kinds: [], others: [], prose: text.slice(0, at).trim() };
  let section: string | undefined;
  let fence: string | undefined;
  let block: string[] = [];
  const earlier: string[] = [];
  for (const line of text.slice(at + SNAPSHOT_HEADER.length).split('\n')) {
    if (fence === undefined && line.startsWith('## ')) { section = SECTION_OF[Object.keys(SECTION_OF).find((t) => line.slice(3).startsWith(t)) ?? '']; continue; }
    if (section === 'requests') {
      // Requests are fenced blocks: their lines are the user's, whatever they look like.
      if (fence === undefined) { const f = /^(`{3,})/.exec(line)?.[1]; if (f) { fence = f; block = []; } continue; }
      if (line === fence) { out.requests.push(block.join('\n')); fence = undefined; continue; }
      block.push(line);
    } else if (section === 'identifiers') {
      const m = /^- ([^:]+): (.*)$/.exec(line);
      if (!m) continue;
      const kind = KIND_OF_LABEL.get(m[1]!);
      for (const id of m[2]!.split(', ').filter(Boolean)) if (kind) out.kinds.push([id, kind]); else out.others.push(id);
    } else if (section === 'earlier') earlier.push(line);
    else if (section && !/^- … \d+ older item/.test(line)) {
      // A fenced command spans lines: they stay with the item they belong to.
      const list = out.lines[section as keyof PreviousFacts['lines']];
      if (line.startsWith('- ') || list.length === 0) list.push(line); else list[list.length - 1] += `\n${line}`;
    }
  }
  const prose = [withoutOurHeader(out.prose), earlier.join('\n')].filter((s) => s.trim()).join('\n\n');
  return { ...out, prose: prose.trim() };
}

/**
 * `text` without our summary's opening line: what an earlier compaction of ours said, for the next one to carry. The
 * header may end the text (a cleanup-only snapshot's, trimmed), not only a line.
 */
export const withoutOurHeader = (text: string): string => text.replace(/^\[context-compactor\][^\n]*(?:\n+|$)/, '');
