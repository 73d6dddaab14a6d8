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

/** Path inside the agent's own store, where `claude --resume` / `codex resume` look. */
export function storePath(format: FormatId, id: string, cwd: string | undefined, at: Date, env: NodeJS.ProcessEnv = process.env): string {
  if (format === 'claude-code') return path.join(claudeHome(env), 'projects', claudeProjectSlug(cwd ?? process.cwd()), `${id}.jsonl`);
  return path.join(codexHome(env), 'sessions', String(at.getFullYear()), pad(at.getMonth() + 1), pad(at.getDate()), codexFileName(id, at));
}

export function resumeCommand(format: FormatId, id: string): string {
  return format === 'claude-code' ? `claude --resume ${id}` : `codex resume ${id}`;
}
