// A Gemini CLI chat's project folder from its header's projectHash: the SHA-256 of the project root's path.
import { sha256Hex } from '../../usage/sha256';

/** Absolute paths as a chat's text holds them (Windows drive paths may hold spaces; POSIX paths stop at one). */
const WINDOWS_PATH = /\b[A-Za-z]:\\[^"<>|*?\r\n\t]*/g;
const POSIX_PATH = /(?<![\w.~\\/])\/[^\s"'`<>|*?()[\]{},;:]+/g;
/** Enough candidates for any real chat; a crafted one cannot make the scan hash without end. */
const MAX_CANDIDATES = 4000;
const MAX_TEXT = 4 << 20;

/**
 * Chats written before the CLI named its workspace in the first prompt record only `projectHash`
 * (sha256 of the root path, as `process.cwd()` spelled it). Every absolute path the chat mentions (a file it read,
 * a folder listed, a pasted path) and each of its parent folders is hashed until one is the project's:
 * a folder is reported only when the hash proves it, never guessed.
 */
export function projectFromHash(projectHash: string | undefined, rawText: string): string | undefined {
  if (!projectHash || !/^[0-9a-f]{64}$/.test(projectHash)) return undefined;
  // The chat's JSON spells a backslash as two: paths are searched in the text as the agent wrote them.
  const text = rawText.slice(0, MAX_TEXT).replace(/\\\\/g, '\\');
  const tried = new Set<string>();
  for (const re of [WINDOWS_PATH, POSIX_PATH]) {
    for (const m of text.matchAll(re)) {
      const sep = re === WINDOWS_PATH ? '\\' : '/';
      // The path itself, then each parent down to the root's first folder (`C:\x`, `/x`); the root itself (`/`, `C:\`) is no project.
      for (let p = m[0].replace(/[\\/.\s]+$/, ''); p.length > (sep === '\\' ? 3 : 1); p = p.slice(0, Math.max(0, p.lastIndexOf(sep)))) {
        if (tried.has(p)) break; // its parents were tried with it
        if (tried.size >= MAX_CANDIDATES) return undefined;
        tried.add(p);
        if (sha256Hex(p) === projectHash) return p;
      }
    }
  }
  return undefined;
}
