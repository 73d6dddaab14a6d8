// JSON.parse's error, said without the file's bytes: V8 quotes the text it failed on (`Unexpected token 'r',
// "root:*:202"... is not valid JSON`), so a file linked to /etc/shadow would leak its first bytes into an error line.

/** "not valid JSON (at character N)" or "not valid JSON (it ends early)": where, never what. */
export function jsonErrorText(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const at = /position (\d+)/.exec(msg);
  if (at) return `not valid JSON (at character ${at[1]})`;
  if (/end of (JSON|data)|Unterminated/i.test(msg)) return 'not valid JSON (it ends early)';
  return 'not valid JSON';
}
