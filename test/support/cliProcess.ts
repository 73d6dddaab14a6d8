// Runs the CLI in a child process (node + tsx + runCli.ts), in-process through main(), and checksums files.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main';

export const REPO = path.resolve(__dirname, '..', '..');

/** argv that runs the CLI with these arguments (prefix it with setpriv, unshare, … as needed). */
export function cliArgv(args: readonly string[]): string[] {
  return [process.execPath, '--import', 'tsx', path.join(REPO, 'test', 'support', 'runCli.ts'), ...args];
}

export function spawnCli(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const [cmd, ...rest] = cliArgv(args);
  return spawn(cmd!, rest, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

export interface CliRun { readonly code: number | null; readonly stdout: string; readonly stderr: string }

/** Runs argv (a CLI argv, maybe behind a wrapper) to completion. */
export function runSync(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliRun {
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd: REPO, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI in this process, with captured output. */
export async function cliInProcess(env: NodeJS.ProcessEnv, ...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env });
  return { code, stdout, stderr };
}

export const sha256 = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Every name in dir, dot files included, sorted. */
export const listDir = (dir: string): string[] => fs.readdirSync(dir).sort();

/** The CLI's promise for a failure: exit 2 and exactly one line on stderr, no stack trace. */
export function assertOneLineFailure(r: CliRun, pattern: RegExp): void {
  const lines = r.stderr.split('\n').filter(Boolean);
  if (r.code !== 2 || lines.length !== 1 || !pattern.test(lines[0]!) || /\n\s+at /.test(r.stderr)) {
    throw new Error(`expected exit 2 and one line matching ${pattern}; got exit ${r.code}: ${JSON.stringify(r.stderr)}`);
  }
}
