// Where Cline, Roo Code and Kilo Code keep task folders: VS Code's (and its forks') globalStorage under each
// extension's id, and the Cline CLI's data folder; which of the three a task path belongs to.
import type { HostEnv } from '../../agents/agent';

/** The three extensions that write the same `tasks/<id>/` layout. */
export type ClineVariant = 'cline' | 'roo' | 'kilo';

export const STORAGE_IDS: Readonly<Record<ClineVariant, string>> = {
  cline: 'saoudrizwan.claude-dev',
  roo: 'rooveterinaryinc.roo-cline',
  kilo: 'kilocode.kilo-code',
};

export const VARIANT_LABEL: Readonly<Record<ClineVariant, string>> = { cline: 'Cline', roo: 'Roo Code', kilo: 'Kilo Code' };

/** VS Code and the forks where these extensions run, by their user-data folder name. */
const EDITORS = ['Code', 'Code - Insiders', 'Cursor', 'Windsurf', 'Windsurf - Next', 'VSCodium', 'VSCodium - Insiders', 'Code - OSS', 'Trae', 'Kiro', 'Positron'];
/** Remote / server installs (SSH, WSL, Codespaces, dev containers) keep their data under the home folder. */
const SERVERS = ['.vscode-server', '.vscode-server-insiders', '.vscode-remote', '.cursor-server', '.windsurf-server', '.vscodium-server'];

/** Every globalStorage folder an editor may use on this machine (existing or not). */
export function globalStorageDirs(host: HostEnv): string[] {
  const { home, vars, platform } = host;
  const base = platform === 'darwin' ? host.join(home, 'Library', 'Application Support')
    : platform === 'win32' ? (vars.APPDATA || host.join(home, 'AppData', 'Roaming'))
      : (vars.XDG_CONFIG_HOME || host.join(home, '.config'));
  const local = EDITORS.map((e) => host.join(base, e, 'User', 'globalStorage'));
  const remote = platform === 'win32' ? [] : SERVERS.map((s) => host.join(home, s, 'data', 'User', 'globalStorage'));
  // code-server (and Coder) keeps its user data under XDG_DATA_HOME, on Linux and macOS alike.
  const codeServer = platform === 'win32' ? [] : [host.join(vars.XDG_DATA_HOME || host.join(home, '.local', 'share'), 'code-server', 'User', 'globalStorage')];
  return [...local, ...remote, ...codeServer];
}

/** The Cline CLI's (and, since 2026, JetBrains') data folder: $CLINE_DATA_DIR, $CLINE_DIR/data, ~/.cline/data. */
export function clineDataDir(host: HostEnv): string {
  const v = host.vars.CLINE_DATA_DIR?.trim();
  if (v) return v;
  return host.join(host.vars.CLINE_DIR?.trim() || host.join(host.home, '.cline'), 'data');
}

/** Every `tasks` folder of the three extensions in every editor, and the Cline CLI's. */
export function taskRoots(host: HostEnv): string[] {
  const out: string[] = [];
  for (const dir of globalStorageDirs(host)) for (const id of Object.values(STORAGE_IDS)) out.push(host.join(dir, id, 'tasks'));
  out.push(host.join(clineDataDir(host), 'tasks'));
  return out;
}

/** The extension a task folder belongs to, from its path (Cline for the CLI's folder and unknown places). */
export function variantOfPath(p: string): ClineVariant | undefined {
  const lower = p.toLowerCase();
  if (lower.includes(STORAGE_IDS.roo)) return 'roo';
  if (lower.includes(STORAGE_IDS.kilo)) return 'kilo';
  if (lower.includes(STORAGE_IDS.cline)) return 'cline';
  return undefined;
}
