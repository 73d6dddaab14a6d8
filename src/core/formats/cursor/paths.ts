// Where Cursor keeps agent transcripts: ~/.cursor/projects/<project slug>/agent-transcripts/, as `<id>.txt` (plain
// text, until early 2026), `<id>.jsonl` or `<id>/<id>.jsonl` (since), subagents in `<id>/subagents/<sub>.jsonl`.
import type { FsView, HostEnv } from '../../agents/agent';

export const TRANSCRIPTS = 'agent-transcripts';

export const cursorRoots = (host: HostEnv): string[] => [host.join(host.home, '.cursor', 'projects')];

/** The JSONL form's first record: `{"role":…,"message":{"content":[` (as Cursor serializes it, keys in this order). */
const JSONL_HEAD = /^\uFEFF?\{"role":"(user|assistant)","message":\{"content":\[/;
/** The text form opens with the first speaker's line and the wrapped query. */
const TXT_HEAD = /^\uFEFF?(user|assistant):\r?\n[\s\S]{0,400}<user_query>/;

/** Whether `file` is where Cursor puts a transcript (by name and folder alone). */
function placed(file: string, fs: FsView): boolean {
  const base = fs.basename(file);
  const dir = fs.dirname(file);
  const parent = fs.basename(dir);
  if (base.endsWith('.txt')) return parent === TRANSCRIPTS;
  if (!base.endsWith('.jsonl')) return false;
  if (parent === TRANSCRIPTS) return true;
  const grand = fs.basename(fs.dirname(dir));
  // <id>/<id>.jsonl, and a subagent's <id>/subagents/<sub>.jsonl.
  return (grand === TRANSCRIPTS && parent === base.slice(0, -6)) || (parent === 'subagents' && fs.basename(fs.dirname(fs.dirname(dir))) === TRANSCRIPTS);
}

/** Whether `file` is a Cursor agent transcript: in its place, or copied elsewhere and recognised by its first bytes. */
export function isCursorTranscript(file: string, fs: FsView): boolean {
  const base = fs.basename(file);
  if (!base.endsWith('.txt') && !base.endsWith('.jsonl')) return false;
  const inPlace = placed(file, fs);
  if (!inPlace && !fs.head) return false;
  if (fs.isFolder(file)) return false;
  const head = fs.head?.(file);
  if (head === undefined) return inPlace;
  return base.endsWith('.txt') ? TXT_HEAD.test(head) || (inPlace && /^\uFEFF?(user|assistant):/.test(head)) : JSONL_HEAD.test(head);
}

/** Transcripts of one agent-transcripts folder; a session kept in both forms is read from its JSONL. */
function transcriptsIn(dir: string, fs: FsView): string[] {
  const names = fs.list(dir);
  const out: string[] = [];
  const jsonl = new Set<string>();
  for (const n of names) {
    const p = fs.join(dir, n);
    if (n.endsWith('.jsonl')) { out.push(p); jsonl.add(n.slice(0, -6)); continue; }
    if (n.endsWith('.txt') || !fs.isFolder(p)) continue;
    const inner = fs.list(p);
    if (inner.includes(`${n}.jsonl`)) { out.push(fs.join(p, `${n}.jsonl`)); jsonl.add(n); }
    if (inner.includes('subagents')) out.push(...fs.list(fs.join(p, 'subagents')).filter((s) => s.endsWith('.jsonl')).map((s) => fs.join(p, 'subagents', s)));
  }
  for (const n of names) if (n.endsWith('.txt') && !jsonl.has(n.slice(0, -4))) out.push(fs.join(dir, n));
  return out;
}

/** The transcripts under a root: ~/.cursor/projects, one project's folder, or an agent-transcripts folder. */
export function cursorSessionsUnder(root: string, fs: FsView): string[] {
  if (fs.basename(root) === TRANSCRIPTS) return transcriptsIn(root, fs);
  if (fs.list(root).includes(TRANSCRIPTS)) return transcriptsIn(fs.join(root, TRANSCRIPTS), fs);
  return fs.list(root).flatMap((p) => {
    const dir = fs.join(root, p, TRANSCRIPTS);
    return fs.isFolder(dir) ? transcriptsIn(dir, fs) : [];
  });
}
