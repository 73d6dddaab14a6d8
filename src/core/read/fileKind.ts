// What a file that is no agent's session looks like, for the one-line error: "package.json: a JSON file, not a
// session of any supported agent" tells a person what they gave; "no line is valid JSON" did not. Never quotes bytes.
import { supportedAgents } from './supported';

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** A short noun phrase for what `head` (the file's first bytes; empty for an empty file) and its name look like. */
export function fileKind(name: string, head: Uint8Array): string {
  if (head.length === 0) return 'an empty file';
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if (text.startsWith(SQLITE_MAGIC)) return 'a SQLite database';
  if (looksBinary(text)) return 'a binary file';
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return 'an empty file';
  const first = lines[0]!;
  if (first.startsWith('{') || first.startsWith('[')) {
    // Every whole line of the head a JSON value (the last may be cut by the head's end): JSON Lines; else one document.
    const whole = lines.slice(0, text.endsWith('\n') ? lines.length : lines.length - 1);
    return whole.length > 0 && whole.every(isJson) ? 'a JSON Lines file' : 'a JSON file';
  }
  if (/\.(md|markdown)$/i.test(name) || /^#{1,6}\s/.test(first)) return 'a Markdown file';
  return 'a text file';
}

/** The one-line error for a file no reader took: its name, what it looks like, and what would have been read. */
export function notASession(name: string, head: Uint8Array): string {
  const kind = fileKind(name, head);
  if (kind === 'a SQLite database') return `${name}: a SQLite database, not a Goose or OpenCode store`;
  const what = kind === 'a Markdown file' ? 'not an Aider chat history or a session of another supported agent' : 'not a session of any supported agent';
  return `${name}: ${kind}, ${what} (supported: ${supportedAgents()})`;
}

function isJson(line: string): boolean {
  try { JSON.parse(line); return true; } catch { return false; }
}

/** Whether the first `sampleChars` of a text look like binary data (a NUL, or over a tenth control/undecodable chars). */
export function looksBinary(text: string, sampleChars = 1024): boolean {
  const sample = text.slice(0, sampleChars);
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return true;
    if ((c < 9 || (c > 13 && c < 32)) || c === 0xfffd) odd++;
  }
  return odd > sample.length / 10;
}
