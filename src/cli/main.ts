// `context-compactor` CLI entry: dispatches subcommands; every failure is one line on stderr.
import { terminalSafe } from '../core/text/terminal';
import { commandHelp, packageVersion, TOP_USAGE, wantsFlag, type CommandName } from './help';
import { keepYoungGenerationSmall } from './heap';
import type { CliIo } from './io';
import { writeOut } from './stdio';


type Command = (args: string[], io: CliIo) => Promise<number>;
/** Loaded on demand: `--help` or `usage` never evaluates the compaction engine, and no command loads an SDK up front. */
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  inspect: async () => (await import('./inspectCommand.js')).runInspect,
  compact: async () => (await import('./compactCommand.js')).runCompact,
  usage: async () => (await import('../node/usage/usageCommand.js')).runUsageCommand,
  simulate: async () => (await import('./simulateCommand.js')).runSimulate,
  export: async () => (await import('./exportCommand.js')).runExport,
  eval: async () => (await import('./evalCommand.js')).runEvalCommand,
  hook: async () => (await import('./hookCommand.js')).runHookCommand,
  search: async () => (await import('./searchCommand.js')).runSearch,
};

/**
 * The one place the CLI's human output passes: transcript text (titles, model and tool names, paths, warnings) may
 * hold terminal controls, so every command writes through writers that make them inert. JSON output has none left
 * to make inert (core/text/terminal jsonText), and what must stay byte-exact goes to `raw`.
 */
export function forHumans(io: CliIo): CliIo {
  const raw = io.raw ?? { stdout: (s: string) => io.stdout(s), stderr: (s: string) => io.stderr(s) };
  return { ...io, stdout: (s) => raw.stdout(terminalSafe(s)), stderr: (s) => raw.stderr(terminalSafe(s)), raw };
}

export async function main(argv: string[], given: CliIo): Promise<number> {
  const io = forHumans(given);
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (!name) { io.stderr(TOP_USAGE); return 2; }
    io.stdout(TOP_USAGE);
    return 0;
  }
  if (name === '--version' || name === '-V') { io.stdout(`context-compactor ${packageVersion()}\n`); return 0; }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined;
  if (!load) {
    io.stderr(`context-compactor: unknown command '${name}' (try --help)\n`);
    return 2;
  }
  // Every command answers these the same way, from help.ts: its own bundle is not loaded for them.
  if (wantsFlag(rest, ['--help', '-h'])) { io.stdout(commandHelp(name as CommandName)); return 0; }
  if (wantsFlag(rest, ['--version', '-V'])) { io.stdout(`context-compactor ${packageVersion()}\n`); return 0; }
  return (await load())(rest, io);
}

if (require.main === module) {
  const io: CliIo = { stdout: (s) => writeOut(1, s), stderr: (s) => writeOut(2, s), env: process.env, beforeBigScan: keepYoungGenerationSmall };
  main(process.argv.slice(2), io).then(
    (code) => { process.exitCode = code; },
    (e: unknown) => { io.stderr(terminalSafe(`context-compactor: ${e instanceof Error ? e.message : String(e)}\n`)); process.exitCode = 1; },
  );
}
