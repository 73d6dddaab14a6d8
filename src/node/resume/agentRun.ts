// Runs a real agent CLI offline: found on PATH (or CLAUDE_BIN / CODEX_BIN), in a fresh home, with a bounded time.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** One CLI run may take this long at most; a hung agent is killed and its check fails. */
export const AGENT_TIMEOUT_MS = 120_000;
/** The prompt each resumed session gets: unique, so its request is told apart from side requests. */
export const RESUME_PROMPT = 'Resume check 7f3a: please continue with the next step.';

export type ResumableAgent = 'claude-code' | 'codex';
const BIN = { 'claude-code': { name: 'claude', env: 'CLAUDE_BIN' }, codex: { name: 'codex', env: 'CODEX_BIN' } } as const;

/** The agent's CLI: its *_BIN variable when set, else the first executable of that name on PATH; undefined when absent. */
export function findAgentBin(agent: ResumableAgent, env: NodeJS.ProcessEnv): string | undefined {
  const { name, env: variable } = BIN[agent];
  const candidates = env[variable] ? [env[variable]] : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((d) => path.join(d, name));
  return candidates.find((c) => {
    try { accessSync(c, constants.X_OK); return true; } catch { return false; }
  });
}

/**
 * The environment an agent runs in: nothing inherited but PATH and a locale, so the user's real keys, base URLs
 * or config can neither leak into nor redirect the offline run.
 */
export function agentEnv(home: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: home, TMPDIR: os.tmpdir(), ...extra };
}

export interface AgentRun { readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string }

/** Keeps the last part of an output stream only: an agent may print a lot, the report needs its end. */
const TAIL = 64 * 1024;

export function runAgent(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: AGENT_TIMEOUT_MS, killSignal: 'SIGKILL', ...(signal ? { signal } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout = (stdout + c.toString('utf8')).slice(-TAIL); });
    child.stderr.on('data', (c: Buffer) => { stderr = (stderr + c.toString('utf8')).slice(-TAIL); });
    child.on('error', (e) => (signal?.aborted ? resolve({ code: null, signal: 'SIGTERM', stdout, stderr }) : reject(e)));
    child.on('close', (code, sig) => resolve({ code, signal: sig, stdout, stderr }));
  });
}

/** One line that says how a run ended, for messages. */
export const describeRun = (r: AgentRun): string =>
  `exit ${r.code ?? r.signal}; stderr tail: ${r.stderr.slice(-1500)}; stdout tail: ${r.stdout.slice(-500)}`;
