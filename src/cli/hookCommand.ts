// `context-compactor hook <agent>` (the SessionStart hook itself) and `hook install|uninstall <agent> [--scope …]`.
// The hook runs on the user's critical path after every compaction: it never fails the agent (exit 0, one stderr line).
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { HOOK_AGENTS, type HookAgent } from '../core/hook/boundary';
import { hookOutput } from '../core/hook/context';
import { guardContext } from '../node/hooks/compactedStretch';
import { readHookStdin } from '../node/hooks/hookStdin';
import { hookCommand, HookSettingsError, installHook, uninstallHook, type HookScope } from '../node/hooks/install';
import { OutputError } from '../node/atomicWrite';
import { parseArgs } from './args';
import { USAGES } from './help';
import type { CliIo } from './io';

const USAGE = `${USAGES.hook}\n`;

const isAgent = (s: string | undefined): s is HookAgent => HOOK_AGENTS.includes(s as HookAgent);

/** The hook's stdin (a few hundred bytes), bounded in size and time; a test passes it through io.readStdin. */
function readStdin(io: CliIo): Promise<string> {
  return io.readStdin ? io.readStdin() : readHookStdin(process.stdin);
}

/** What the agent sends: the fields the hook needs, or why it cannot go on. */
export function hookInput(text: string): { transcript: string; cwd?: string } | { skip: string } {
  let v: unknown;
  try { v = JSON.parse(text); } catch { return { skip: 'stdin is not JSON' }; }
  if (typeof v !== 'object' || v === null) return { skip: 'stdin is not a JSON object' };
  const o = v as Record<string, unknown>;
  if (o.hook_event_name !== undefined && o.hook_event_name !== 'SessionStart') return { skip: `event ${JSON.stringify(o.hook_event_name)} is not SessionStart` };
  if (o.source !== 'compact') return { skip: `source ${JSON.stringify(o.source ?? null)} is not "compact"` };
  if (typeof o.transcript_path !== 'string' || !o.transcript_path) return { skip: 'no transcript_path' };
  return { transcript: o.transcript_path, cwd: typeof o.cwd === 'string' ? o.cwd : undefined };
}

async function runHook(io: CliIo): Promise<number> {
  // One line, whatever a path or message from stdin holds: the agent shows the hook's stderr as is.
  const say = (why: string): number => { io.stderr(`context-compactor hook: ${why.replace(/[\r\n]+/g, ' ')}; nothing added\n`); return 0; };
  try {
    const input = hookInput(await readStdin(io));
    if ('skip' in input) return say(input.skip);
    const { context } = await guardContext(input.transcript, input.cwd);
    if (!context) return say('the summary already states every fact found');
    (io.raw ?? io).stdout(`${JSON.stringify(hookOutput(context))}\n`);
    return 0;
  } catch (e) {
    const message = ((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such transcript' : (e as Error).message ?? String(e)).split('\n')[0]!;
    return say(message);
  }
}

/** dist/cli.js, the executable the hook entry names: beside this bundle's folder, or (run from sources) the build's. */
export function cliScriptPath(here = __dirname): string | undefined {
  return [path.join(here, '..', 'cli.js'), path.join(here, 'cli.js'), path.join(here, '..', '..', 'dist', 'cli.js')].find((p) => existsSync(p));
}

async function runInstall(verb: 'install' | 'uninstall', rest: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(rest, { scope: 'value' });
  const agent = parsed.ok ? parsed.positional[0] : undefined;
  const scope = parsed.ok ? parsed.values.scope ?? 'user' : 'user';
  if (!parsed.ok || parsed.positional.length !== 1 || !isAgent(agent) || (scope !== 'user' && scope !== 'project')) {
    io.stderr(`context-compactor hook ${verb}: ${!parsed.ok ? parsed.error : !isAgent(agent) ? `unknown agent '${agent ?? ''}'` : `--scope is user or project, not '${scope}'`}\n${USAGE}`);
    return 2;
  }
  try {
    if (verb === 'uninstall') {
      const r = await uninstallHook(agent, scope as HookScope, process.cwd(), io.env);
      io.stdout(r.changed ? `removed the compaction guard from ${r.file}\n` : `no compaction guard of ours in ${r.file}; nothing changed\n`);
      return 0;
    }
    const cli = cliScriptPath();
    if (!cli) { io.stderr('context-compactor hook install: cannot find dist/cli.js (run npm run build)\n'); return 2; }
    const r = await installHook(agent, scope as HookScope, process.cwd(), io.env, hookCommand(agent, process.execPath, cli));
    io.stdout(r.changed ? `installed the compaction guard in ${r.file}\n  ${r.command}\n` : `the compaction guard is already installed in ${r.file}; nothing changed\n`);
    // Codex 0.169 runs hooks by default, but only those the user reviewed: we never mark ours trusted for them.
    if (agent === 'codex' && r.changed) io.stdout('Codex runs a new hook once you trust it: open codex and review it under /hooks.\n');
    return 0;
  } catch (e) {
    if (e instanceof HookSettingsError || e instanceof OutputError) { io.stderr(`context-compactor: ${e.message}\n`); return 2; }
    throw e;
  }
}

export async function runHookCommand(args: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = args;
  if (first === 'install' || first === 'uninstall') return runInstall(first, rest, io);
  // One reader for both agents: the transcript's own format says how to read it.
  if (isAgent(first) && rest.length === 0) return runHook(io);
  if (first === '--help' || first === '-h') { io.stdout(USAGE); return 0; }
  io.stderr(`context-compactor hook: ${first ? `unknown agent '${first}'` : 'which agent?'}\n${USAGE}`);
  return 2;
}

/**
 * Run as a file of its own (`node context-compactor-hook.js hook claude-code`): what the VS Code extension installs,
 * a copy of this bundle in its global storage, so an extension update never leaves the agent a missing path.
 */
if (require.main === module) {
  const argv = process.argv.slice(2);
  void runHookCommand(argv[0] === 'hook' ? argv.slice(1) : argv, {
    stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env,
  }).then((code) => { process.exitCode = code; });
}
