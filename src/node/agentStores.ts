// Where each agent keeps its sessions, and the file name a new session must have to be found.
import * as os from 'node:os';
import * as path from 'node:path';
import type { FormatId } from '../core/model/transcript';

/** Claude Code's project folder name: every non-alphanumeric character becomes '-'. */
export const claudeProjectSlug = (cwd: string): string => cwd.normalize('NFC').replace(/[^A-Za-z0-9]/g, '-').slice(0, 200);

export function claudeHome(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CLAUDE_CONFIG_DIR?.split(',')[0]?.trim();
  return dir || path.join(env.HOME || os.homedir(), '.claude');
}

export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex');
}

// Both agents name sessions by UUID (Claude Code v4, Codex v4 or v7): anything else did not come from them.
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether id has the shape of a session id the agent writes (transcripts are untrusted input). */
export const isSessionId = (id: string): boolean => SESSION_ID.test(id);

/** A cwd as an agent records it: an absolute path (POSIX or Windows), one line, no NUL. */
export const isRecordedCwd = (cwd: string): boolean =>
  cwd.length > 0 && cwd.length <= 4096 && !/[\0\r\n]/.test(cwd) && (cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwd) || cwd.startsWith('\\\\'));

const pad = (n: number): string => String(n).padStart(2, '0');

/** `rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` in local time, as Codex names them. */
export function codexFileName(id: string, at: Date): string {
  const d = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `rollout-${d}T${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}-${id}.jsonl`;
}

/** File name of a new session next to its original. */
export function sessionFileName(format: FormatId, id: string, at: Date): string {
  return format === 'claude-code' ? `${id}.jsonl` : codexFileName(id, at);
}

/**
 * Path inside the agent's own store, where `claude --resume` / `codex resume` look. The id must be a UUID and a
 * recorded cwd an absolute path (both come from a transcript); the slug keeps only [A-Za-z0-9-], so no cwd can
 * lead outside the projects folder.
 */
export function storePath(format: FormatId, id: string, cwd: string | undefined, at: Date, env: NodeJS.ProcessEnv = process.env): string {
  if (!isSessionId(id)) throw new Error(`not a session id: ${JSON.stringify(id.slice(0, 80))}`);
  if (format === 'claude-code') {
    if (cwd !== undefined && !isRecordedCwd(cwd)) throw new Error(`the transcript's working folder is not an absolute path: ${JSON.stringify(cwd.slice(0, 120))}`);
    return path.join(claudeHome(env), 'projects', claudeProjectSlug(cwd ?? process.cwd()), `${id}.jsonl`);
  }
  return path.join(codexHome(env), 'sessions', String(at.getFullYear()), pad(at.getMonth() + 1), pad(at.getDate()), codexFileName(id, at));
}

/**
 * `claude --resume <id>` / `codex resume <id>`, for the clipboard and a shell; undefined when the id is not a
 * UUID, so a transcript cannot smuggle shell syntax (`x; curl … | sh`) into a command the user runs.
 */
export function resumeCommandFor(format: FormatId, id: string): string | undefined {
  if (!isSessionId(id)) return undefined;
  return format === 'claude-code' ? `claude --resume ${id}` : `codex resume ${id}`;
}

/** The resume command of a session we created (its id is ours, always a UUID). */
export function resumeCommand(format: FormatId, id: string): string {
  const cmd = resumeCommandFor(format, id);
  if (cmd === undefined) throw new Error(`not a session id: ${JSON.stringify(id.slice(0, 80))}`);
  return cmd;
}
