// Runs the real Gemini CLI offline: a throwaway home whose settings select API-key auth and trust the folder, the
// loopback fake as its API (GOOGLE_GEMINI_BASE_URL), and nothing inherited that could reach a real account.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
export const GEMINI_TIMEOUT_MS = 120_000;
/** The model every run names (`-m`), so the CLI's model router does not pick one. */
export const GEMINI_MODEL = 'gemini-3-flash-preview';

/** GEMINI_BIN, else the pinned CLI in .cache/agents, installed by `scripts/install-npm-cli.sh gemini` (a no-op once there). */
export function geminiBin(): string {
  if (process.env.GEMINI_BIN) return process.env.GEMINI_BIN;
  execFileSync(path.join(REPO, 'scripts', 'install-npm-cli.sh'), ['gemini'], { stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 });
  return path.join(REPO, '.cache', 'agents', 'node_modules', '.bin', 'gemini');
}

/**
 * A home for the CLI with its settings written; returns the environment to run it with. Session retention is off:
 * by default the CLI deletes chats older than 30 days when it starts, and the real fixtures are older.
 */
export function geminiHome(home: string, apiUrl: string, apiKey: string): NodeJS.ProcessEnv {
  const dir = path.join(home, '.gemini');
  fs.mkdirSync(dir, { recursive: true });
  const settings = { security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true, sessionRetention: { enabled: false } } };
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: home, TMPDIR: os.tmpdir(), GEMINI_API_KEY: apiKey, GOOGLE_GEMINI_BASE_URL: apiUrl, NO_COLOR: '1' };
}

export interface GeminiRun { readonly code: number | null; readonly stdout: string; readonly stderr: string }

/** `gemini -m <model> --yolo -p <prompt> [--resume <id>]` in `cwd`. */
export function runGemini(bin: string, cwd: string, env: NodeJS.ProcessEnv, prompt: string, resume?: string): Promise<GeminiRun> {
  const args = ['-m', GEMINI_MODEL, '--yolo', ...(resume ? ['--resume', resume] : []), '-p', prompt];
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: GEMINI_TIMEOUT_MS, killSignal: 'SIGKILL' });
    let stdout = '', stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The chats folder of a project (the CLI names its temp folder after the project's folder name). */
export function chatsDir(home: string, project: string): string {
  const tmp = path.join(home, '.gemini', 'tmp');
  const slug = fs.readdirSync(tmp).find((d) => fs.existsSync(path.join(tmp, d, '.project_root')) && fs.readFileSync(path.join(tmp, d, '.project_root'), 'utf8').trim() === project);
  if (!slug) throw new Error(`no Gemini temp folder for ${project} under ${tmp}`);
  return path.join(tmp, slug, 'chats');
}

/**
 * A project under ROOT with its Gemini home (`root/home`) as the CLI would have left it: the registry maps the
 * project root to the temp folder named after it, which the root owns. Returns the environment and the chats folder.
 */
export function geminiProject(root: string, apiUrl: string, apiKey: string): { project: string; env: NodeJS.ProcessEnv; chats: string } {
  const project = path.join(root, 'project');
  fs.mkdirSync(project);
  const home = path.join(root, 'home');
  const env = geminiHome(home, apiUrl, apiKey);
  const slug = path.basename(project);
  fs.writeFileSync(path.join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [project]: slug } }));
  for (const base of ['tmp', 'history']) {
    fs.mkdirSync(path.join(home, '.gemini', base, slug), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini', base, slug, '.project_root'), project);
  }
  const chats = path.join(home, '.gemini', 'tmp', slug, 'chats');
  fs.mkdirSync(chats, { recursive: true });
  return { project, env, chats };
}
