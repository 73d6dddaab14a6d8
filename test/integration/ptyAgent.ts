// Runs an interactive agent CLI (Codex's TUI) in a pseudo-terminal via util-linux `script`, answering the terminal
// queries a real terminal answers, until a condition holds; then kills it. For commands with no non-interactive form.
import { spawn } from 'node:child_process';

/** What a terminal replies to the queries a TUI sends before it draws (cursor position, colours, attributes). */
const REPLIES: readonly [string, string][] = [
  ['\x1b[6n', '\x1b[1;1R'],
  ['\x1b]10;?', '\x1b]10;rgb:ffff/ffff/ffff\x1b\\'],
  ['\x1b]11;?', '\x1b]11;rgb:0000/0000/0000\x1b\\'],
  ['\x1b[c', '\x1b[?62;22c'],
  ['\x1b[?u', '\x1b[?0u'],
];

const shellWord = (w: string): string => (/^[\w./:=@-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/**
 * `argv` runs in a 120×40 terminal in `cwd`; `answers`: when the screen text (escapes removed) shows the key, the
 * value is typed once. Resolves with the screen text once `done()` holds or after `ms`.
 */
export async function runInPty(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, done: () => boolean, answers: Readonly<Record<string, string>>, ms: number): Promise<string> {
  const child = spawn('script', ['-qfec', `stty cols 120 rows 40; exec ${argv.map(shellWord).join(' ')}`, '/dev/null'], { cwd, env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  const typed = new Set<string>();
  const screen = (): string => raw.replace(/\x1b\[[0-9;?>]*[a-zA-Z]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '');
  child.stdout.on('data', (c: Buffer) => {
    const t = c.toString('utf8');
    raw = (raw + t).slice(-256 * 1024);
    for (const [query, reply] of REPLIES) if (t.includes(query)) child.stdin.write(reply);
    for (const [key, keys] of Object.entries(answers)) {
      if (!typed.has(key) && screen().includes(key)) {
        typed.add(key);
        setTimeout(() => child.stdin.write(keys), 300);
      }
    }
  });
  child.stdin.on('error', () => undefined);
  try {
    for (const end = Date.now() + ms; Date.now() < end && !done() && child.exitCode === null; ) await new Promise((r) => setTimeout(r, 250));
  } finally {
    child.kill('SIGKILL');
  }
  return screen().slice(-2000);
}
