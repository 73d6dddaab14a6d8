// Recognises Gemini CLI chats by name and place (chats/session-*.json[l], chats/<parent>/<id>.jsonl) and by content.
import type { FsView } from '../../agents/agent';

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.json` (≤ v0.38) or `.jsonl` (≥ v0.39), as the CLI names them. */
export const SESSION_FILE = /^session-.+\.jsonl?$/;
/** A subagent's chat: `chats/<parent session id>/<session id>.jsonl`. */
const SUBAGENT_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

/** The header both eras start with (JSONL line 1, or the legacy document's top level): sessionId and projectHash. */
export function isGeminiHeader(o: unknown): o is Obj {
  return isObj(o) && typeof o.sessionId === 'string' && typeof o.projectHash === 'string';
}

/** The first bytes of a file look like a Gemini CLI chat (compact JSONL header or a pretty-printed legacy document). */
export function looksLikeGemini(head: string): boolean {
  const h = head.replace(/^\uFEFF/, '').trimStart();
  if (!h.startsWith('{')) return false;
  const first = h.slice(0, 400);
  return /"sessionId"\s*:\s*"[^"]*"/.test(first) && /"projectHash"\s*:\s*"[0-9a-f]*"/.test(h);
}

/** Whether `path` is a Gemini CLI chat: by its name and folder, else (when the view can read) by its first bytes. */
export function isGeminiChat(path: string, fs: FsView): boolean {
  const name = fs.basename(path);
  if (!/\.jsonl?$/.test(name) || fs.isFolder(path)) return false;
  const dir = fs.dirname(path);
  if (SESSION_FILE.test(name) && fs.basename(dir) === 'chats') return true;
  if (SUBAGENT_FILE.test(name) && fs.basename(fs.dirname(dir)) === 'chats') return true;
  return fs.head ? looksLikeGemini(fs.head(path)) : false;
}

/** The chats under a Gemini temp root (`~/.gemini/tmp`): `<project>/chats/session-*`, subagents in `<parent id>/`. */
export function chatsUnder(root: string, fs: FsView): string[] {
  const out: string[] = [];
  for (const project of fs.list(root)) {
    const chats = fs.join(root, project, 'chats');
    const names = fs.list(chats);
    const all = new Set(names);
    for (const name of names) {
      const full = fs.join(chats, name);
      // A legacy `.json` the CLI converted on resume has a `.jsonl` twin with the same messages: the twin is the session.
      if (SESSION_FILE.test(name) && !(name.endsWith('.json') && all.has(`${name}l`))) out.push(full);
      else if (fs.isFolder(full)) for (const sub of fs.list(full)) if (SUBAGENT_FILE.test(sub)) out.push(fs.join(full, sub));
    }
  }
  return out;
}
