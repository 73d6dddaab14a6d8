// One word of a command we print or type into a terminal, quoted for the shell that will read it (sh, fish,
// PowerShell, cmd), or none where no quote is safe: a folder named `;calc;` must stay a name in every one of them.
// sh's `'…'\''…'` is not PowerShell's (`''` inside '…'), and cmd has no quote that stops %VAR% or !VAR!.

export type Shell = 'sh' | 'fish' | 'powershell' | 'cmd' | 'other';

/** Control characters (a newline ends the command when pasted), in any shell: never offered. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Words every shell reads as themselves; a leading `-` would read as an option. */
const PLAIN = /^[A-Za-z0-9_./:][A-Za-z0-9_./:-]*$/;
/** sh reads these unquoted as themselves too. */
const PLAIN_SH = /^[A-Za-z0-9_./:@+=,][A-Za-z0-9_./:@+=,-]*$/;
/** PowerShell takes all four as single quotes: each one inside '…' is doubled. */
const PS_QUOTES = /['\u2018\u2019\u201a\u201b]/g;

/** `s` as one word for `shell`, or undefined when that shell has no safe quote for it (say so instead of offering). */
export function quoteArg(s: string, shell: Shell): string | undefined {
  if (s === '' || CONTROL.test(s)) return undefined;
  switch (shell) {
    case 'sh':
      return PLAIN_SH.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
    case 'fish':
      // fish reads \' and \\ inside single quotes as escapes (sh does not): both escaped.
      return PLAIN_SH.test(s) ? s : `'${s.replace(/[\\']/g, '\\$&')}'`;
    case 'powershell':
      return PLAIN.test(s) ? s : `'${s.replace(PS_QUOTES, '$&$&')}'`;
    case 'cmd':
      // Inside "…" cmd reads & | < > ^ as text, but still expands %VAR% (and !VAR! with delayed expansion); " ends it.
      if (/[%!"]/.test(s)) return undefined;
      return PLAIN.test(s) ? s : `"${s}"`;
    default:
      // A shell whose quoting we do not know (nu, csh, …): only words that need none.
      return PLAIN.test(s) ? s : undefined;
  }
}

/** `second` runs when `first` succeeded: `&&` where the shell has it; Windows PowerShell 5.1 has not. */
export function andThen(first: string, second: string, shell: Shell): string {
  return shell === 'powershell' ? `${first}; if ($?) { ${second} }` : `${first} && ${second}`;
}

/**
 * The shell a terminal runs, from its executable's path (VS Code's `env.shell`, `$SHELL`); without one, the
 * platform's default terminal shell (PowerShell on Windows, sh elsewhere).
 */
export function shellOf(executable: string | undefined, platform: string): Shell {
  const name = (executable ?? '').split(/[\\/]/).pop()!.toLowerCase().replace(/\.exe$/, '');
  if (!name) return platform === 'win32' ? 'powershell' : 'sh';
  if (name === 'pwsh' || name === 'powershell' || name.startsWith('pwsh-')) return 'powershell';
  if (name === 'cmd') return 'cmd';
  if (name === 'fish') return 'fish';
  // bash (Git Bash and WSL too), zsh and the POSIX shells quote as sh; csh expands `!` even inside '…'.
  if (['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'busybox', 'wsl'].includes(name)) return 'sh';
  return 'other';
}
