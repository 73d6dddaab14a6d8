// The registered agents on this machine: their folders under this user's home and environment, and the paths and
// commands built from a transcript's values (validated by the agent modules; see core/agents/agent.ts).
import { shellOf, type Shell } from '../core/text/shellQuote';
import * as os from 'node:os';
import * as path from 'node:path';
import type { HostEnv } from '../core/agents/agent';
import { codexHome as codexHomeOf } from '../core/formats/codex/agent';
import { AGENT_IDS, agentModule, type AgentId } from '../core/formats/registry';

export { isRecordedCwd, isSessionId } from '../core/agents/agent';
export { claudeProjectSlug } from '../core/formats/claude-code/agent';

/**
 * path.join without its normalizing pass when there is nothing to normalize (POSIX, non-empty parts, no `//`, `.` or
 * `..` segment): the result is the same string. The agents' roots are ~80 joins per scan (every editor's storage for
 * Cline, Roo, Kilo and Copilot Chat), a tenth of a warm `usage`.
 */
export function fastJoin(...parts: string[]): string {
  if (path.sep !== '/' || parts.length === 0 || parts.some((p) => p === '')) return path.join(...parts);
  const joined = parts.join('/');
  return /\/\/|(^|\/)\.\.?(\/|$)/.test(joined) ? path.join(...parts) : joined;
}

/** This machine as agent modules see it. */
export function hostEnv(env: NodeJS.ProcessEnv = process.env): HostEnv {
  return { home: env.HOME || os.homedir(), vars: env, platform: process.platform, join: fastJoin, basename: path.basename };
}

export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return codexHomeOf(hostEnv(env));
}

/** The session folders of the JSONL agents (existing or not), walked for `*.jsonl`; document agents list their own. */
export function agentRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const host = hostEnv(env);
  return AGENT_IDS.flatMap((id) => (agentModule(id).reading.kind === 'lines' ? agentModule(id).roots(host) : []));
}

/** Every agent's session folders, for file watching. */
export function allAgentRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const host = hostEnv(env);
  return AGENT_IDS.flatMap((id) => agentModule(id).roots(host));
}

/** File name of a new session next to its original. */
export function sessionFileName(format: AgentId, id: string, at: Date): string {
  return agentModule(format).fileName(id, at);
}

/** Path inside the agent's own store, where it looks when resuming; `id` and `cwd` are validated first. */
export function storePath(format: AgentId, id: string, cwd: string | undefined, at: Date, env: NodeJS.ProcessEnv = process.env, original?: string): string {
  return agentModule(format).storePath(hostEnv(env), id, cwd, at, original);
}

/**
 * The resume command for the clipboard and a shell; undefined when the id is not a UUID, so a transcript cannot
 * smuggle shell syntax (`x; curl … | sh`) into a command the user runs.
 */
export function resumeCommandFor(format: AgentId, id: string): string | undefined {
  return agentModule(format).resumeCommand(id);
}

/**
 * The shell a printed command is for when no terminal says which: PowerShell on Windows, else `$SHELL`'s kind (sh,
 * fish; sh when unset). VS Code passes its terminal's own (vscode/resumeTerminal.ts).
 */
export function hostShell(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): Shell {
  return platform === 'win32' ? 'powershell' : shellOf(env.SHELL || 'sh', platform);
}

/** The resume command of a session we created (its id is ours) and wrote to `written` (when it was written), for `shell`. */
export function resumeCommand(format: AgentId, id: string, written?: string, shell: Shell = hostShell()): string {
  const cmd = agentModule(format).resumeCommand(id, written, shell);
  if (cmd !== undefined) return cmd;
  // The id is fine, so the written path is what a shell cannot take safely (a cmd.exe metacharacter in an OpenCode or
  // Goose import path, for the shell it is meant for): the copy is written all the same; the report offers no command ('').
  if (written !== undefined && agentModule(format).resumeCommand(id) !== undefined) return '';
  throw new Error(`not a session id: ${JSON.stringify(id.slice(0, 80))}`);
}

/** Where a written session is, as its agent sees it: found (the resume command works) or where it looks instead. */
export type StoreCheck = { readonly found: true } | { readonly found: false; readonly looksIn: string };

/**
 * Whether the agent finds the session `id` written at `written` when resuming: its command imports the file
 * (OpenCode, Goose: any place works), or the file is where `storePath` puts it (Claude Code: the project folder of
 * `cwd`; Gemini CLI: the project's chats folder; Cline: the CLI's tasks folder), or, for Codex, which searches its
 * sessions folder by id, anywhere under it. A copy in `demo-output/`, a workspace or any `--out` folder is not found.
 */
export function agentFinds(format: AgentId, id: string, written: string, session: { readonly cwd?: string; readonly input?: string }, at: Date, env: NodeJS.ProcessEnv = process.env): StoreCheck {
  const agent = agentModule(format);
  const plain = agent.resumeCommand(id);
  if (plain === undefined) return { found: false, looksIn: '' };
  // A command that names the file imports it from wherever it is (asked with a plain name: the written path may be one
  // a shell cannot take, and then the copy is there with no command, which `resumeCommand` says).
  if (agent.resumeCommand(id, 'session.json') !== plain) return { found: true };
  let target: string;
  try {
    target = path.resolve(storePath(format, id, session.cwd, at, env, session.input));
  } catch {
    return { found: false, looksIn: '' };
  }
  const out = path.resolve(written);
  if (out === target || (path.dirname(out) === path.dirname(target) && path.basename(out) === path.basename(target))) return { found: true };
  if (format === 'codex') {
    const sessions = path.resolve(agent.roots(hostEnv(env))[0]!);
    const rel = path.relative(sessions, out);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && path.basename(out).endsWith(`${id}.jsonl`)) return { found: true };
    return { found: false, looksIn: `${sessions}${path.sep}` };
  }
  return { found: false, looksIn: `${path.dirname(target)}${path.sep}` };
}
