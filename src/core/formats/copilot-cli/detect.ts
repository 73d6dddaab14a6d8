// Recognises a GitHub Copilot CLI session: session-state/<id>/events.jsonl (since 1.0.11; before, a flat
// session-state/<id>.jsonl, which current versions still list but no longer resume), an event log of
// {type, data, id, parentId, timestamp} envelopes whose first is `session.start`.
import type { FsView } from '../../agents/agent';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const START = /^\uFEFF?\s*\{\s*"type"\s*:\s*"session\.start"\s*,\s*"data"\s*:/;
const SESSION_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a file's first bytes are a Copilot CLI log's. */
export const startsLikeCopilotLog = (head: string): boolean => START.test(head);

/** The log a path names (a session folder, its events.jsonl, or a flat log), or undefined when it is not one. */
export function copilotLogOf(p: string, fs: FsView): string | undefined {
  if (fs.isFolder(p)) {
    const log = fs.join(p, 'events.jsonl');
    if (!fs.list(p).includes('events.jsonl')) return undefined;
    // By content when it can be seen (a compacted copy's folder may have any name); by name only, a store's session folder.
    return (fs.head ? startsLikeCopilotLog(fs.head(log)) : SESSION_DIR.test(fs.basename(p))) ? log : undefined;
  }
  if (!p.endsWith('.jsonl')) return undefined;
  // Without content to look at (by name only), a log in a session folder of the store's shape.
  if (!fs.head) return fs.basename(p) === 'events.jsonl' && SESSION_DIR.test(fs.basename(fs.dirname(p))) ? p : undefined;
  return startsLikeCopilotLog(fs.head(p)) ? p : undefined;
}

/** The sessions of a session-state folder: its session folders with a log, and flat logs. */
export function copilotSessionsUnder(root: string, fs: FsView): string[] {
  return fs.list(root).flatMap((name) => {
    const p = fs.join(root, name);
    const log = copilotLogOf(p, fs);
    return log ? [log] : [];
  });
}
