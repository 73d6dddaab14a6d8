// Installs or removes the compaction guard in an agent's hook settings file: parsed, edited, written atomically.
import { jsonErrorText } from '../../core/read/jsonError';
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HookAgent } from '../../core/hook/boundary';
import { withHook, withoutHook, type Settings } from '../../core/hook/settings';
import { writeFileAtomic } from '../atomicWrite';
import { kindOf } from '../regularFile';

export type HookScope = 'user' | 'project';

/** A problem the user sees as one line; the settings file is left as it was. */
export class HookSettingsError extends Error {
  override readonly name = 'HookSettingsError';
}

/**
 * Where the agent reads hooks. Claude Code: settings.json in its config folder (CLAUDE_CONFIG_DIR, else ~/.claude) or
 * the project's .claude/. Codex: hooks.json in CODEX_HOME (else ~/.codex) or the project's .codex/.
 */
export function hookSettingsPath(agent: HookAgent, scope: HookScope, cwd: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  if (agent === 'claude-code') {
    // One folder, as Claude Code reads it (its own code takes the variable whole): not the comma list usage tools read.
    const dir = scope === 'project' ? path.join(cwd, '.claude') : env.CLAUDE_CONFIG_DIR || path.join(home, '.claude');
    return path.join(dir, 'settings.json');
  }
  return path.join(scope === 'project' ? path.join(cwd, '.codex') : env.CODEX_HOME || path.join(home, '.codex'), 'hooks.json');
}

/** The command the agent runs: absolute node and CLI paths, quoted (the agents run it through a shell). */
export function hookCommand(agent: HookAgent, nodePath: string, cliPath: string): string {
  const q = (s: string): string => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
  return `${q(nodePath)} ${q(cliPath)} hook ${agent}`;
}

interface Read { readonly settings: Settings; readonly mode?: number; readonly bom: boolean; readonly target: string }

/**
 * The settings as parsed, and where to write them back: a settings.json that is a symlink (dotfiles managers) is
 * edited where it points, so the link stays. A read-only file is the user's "do not touch": reported, not replaced.
 */
async function readSettings(file: string): Promise<Read> {
  let text: string;
  let mode: number | undefined;
  let target = file;
  try {
    target = await realpath(file);
    const st = await stat(target);
    // A FIFO would block the read and /dev/zero never end (a cloned project can hold such a link): never opened.
    if (!st.isFile()) throw new HookSettingsError(`${file} is ${kindOf(st)}, not a regular file; left unchanged`);
    mode = st.mode & 0o777;
    text = await readFile(target, 'utf8');
  } catch (e) {
    if (e instanceof HookSettingsError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, bom: false, target };
    throw new HookSettingsError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if ((mode & 0o222) === 0) throw new HookSettingsError(`${file} is read-only; left unchanged`);
  // A byte-order mark (Windows editors write one) is not JSON: parsed without it, written back with it.
  const bom = text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  if (text.trim() === '') return { settings: {}, mode, bom, target };
  let value: unknown;
  try {
    // Plain JSON, as the agents write these files: a file with comments is reported, never rewritten without them.
    value = JSON.parse(text);
  } catch (e) {
    throw new HookSettingsError(`${file} is ${jsonErrorText(e)}; left unchanged`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HookSettingsError(`${file} does not hold a JSON object; left unchanged`);
  return { settings: value as Settings, mode, bom, target };
}

async function writeSettings(read: Read, settings: Settings, createDir: boolean): Promise<void> {
  await writeFileAtomic(read.target, [`${read.bom ? '\uFEFF' : ''}${JSON.stringify(settings, null, 2)}\n`], { createDir, mode: read.mode ?? 0o600 });
}

/**
 * Project scope only: a cloned project is not trusted, and its .claude/settings.json (or .claude itself) may be a
 * link to any JSON file of the user's, which install would then merge a hooks key into. A link that stays inside
 * the project is followed; one that leaves it (or leads nowhere) is refused. User scope follows links (dotfiles).
 */
async function refuseLinkOutOfProject(file: string, cwd: string): Promise<void> {
  const root = await realpath(cwd).catch(() => path.resolve(cwd));
  for (const p of [path.dirname(file), file]) {
    const link = await lstat(p).catch(() => undefined);
    if (!link?.isSymbolicLink()) continue;
    const target = await realpath(p).catch(() => undefined);
    const rel = target === undefined ? undefined : path.relative(root, target);
    if (rel === undefined || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
      throw new HookSettingsError(`${p} is a link ${target === undefined ? 'that leads nowhere' : `to ${target}, outside the project`}; left unchanged`);
    }
  }
}

export interface HookChange { readonly file: string; readonly changed: boolean; readonly command?: string }

/** Adds our entry (idempotent; an entry with other paths is replaced). */
export async function installHook(agent: HookAgent, scope: HookScope, cwd: string, env: NodeJS.ProcessEnv, command: string): Promise<HookChange> {
  const file = hookSettingsPath(agent, scope, cwd, env);
  if (scope === 'project') await refuseLinkOutOfProject(file, cwd);
  const read = await readSettings(file);
  const edit = withHook(read.settings, agent, command);
  if (!edit.ok) throw new HookSettingsError(`${file}: ${edit.error}; left unchanged`);
  if (edit.changed) await writeSettings(read, edit.settings, true);
  return { file, changed: edit.changed, command };
}

/** Removes our entry; other hooks and keys stay. A missing file is nothing to remove. */
export async function uninstallHook(agent: HookAgent, scope: HookScope, cwd: string, env: NodeJS.ProcessEnv): Promise<HookChange> {
  const file = hookSettingsPath(agent, scope, cwd, env);
  if (scope === 'project') await refuseLinkOutOfProject(file, cwd);
  const read = await readSettings(file);
  const edit = withoutHook(read.settings, agent);
  if (!edit.ok) throw new HookSettingsError(`${file}: ${edit.error}; left unchanged`);
  if (edit.changed) await writeSettings(read, edit.settings, false);
  return { file, changed: edit.changed };
}

/**
 * The hook command for a runtime that may not be Node: VS Code's extension host runs in Electron (its execPath is
 * the editor). Node itself when that is what runs us, else a `node` on PATH, else (POSIX shells) the editor's own
 * binary as Node through ELECTRON_RUN_AS_NODE; undefined when none of these works.
 */
export function hookCommandForRuntime(agent: HookAgent, execPath: string, script: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform, exists: (p: string) => boolean): string | undefined {
  const exe = platform === 'win32' ? 'node.exe' : 'node';
  if (path.basename(execPath).toLowerCase() === exe) return hookCommand(agent, execPath, script);
  const onPath = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : ':').filter(Boolean).map((d) => path.join(d, exe)).find(exists);
  if (onPath) return hookCommand(agent, onPath, script);
  return platform === 'win32' ? undefined : `ELECTRON_RUN_AS_NODE=1 ${hookCommand(agent, execPath, script)}`;
}
