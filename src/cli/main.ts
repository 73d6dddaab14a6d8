// `context-compactor` CLI entry: dispatches subcommands; every failure is one line on stderr.
import { runCompact } from './compactCommand';
import { runEvalCommand } from './evalCommand';
import { runExport } from './exportCommand';
import { runInspect } from './inspectCommand';
import { runSimulate } from './simulateCommand';
import { runUsageCommand } from '../node/usage/usageCommand';
import type { CliIo } from './io';

const USAGE = `usage: context-compactor <command> [options]
commands:
  inspect FILE [--json]     what fills the transcript's context
  compact FILE [--out PATH] [--keep-recent N] [--json]
                            write a compacted copy the agent can resume
  simulate FILE [--threshold N] [--keep-recent N] [--json]
                            replay the session under a rolling compaction policy
  usage [DIR...] [--json] [--no-cache] [--threshold N]
                            token usage and cost of every agent session
  eval [PATH...] [--strategies LIST] [--provider P] [--json] [--markdown FILE] [--jobs N]
                            every transcript through every strategy: time, cost, reduction, what it lost
  export FILE --markdown [--out PATH]
                            the transcript as a readable Markdown document
`;

type Command = (args: string[], io: CliIo) => Promise<number>;
const COMMANDS: Record<string, Command> = { inspect: runInspect, compact: runCompact, usage: runUsageCommand, simulate: runSimulate, export: runExport, eval: runEvalCommand };

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE);
    return name ? 0 : 2;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.stderr(`context-compactor: unknown command '${name}' (try --help)\n`);
    return 2;
  }
  return cmd(rest, io);
}

if (require.main === module) {
  const io: CliIo = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env };
  main(process.argv.slice(2), io).then(
    (code) => { process.exitCode = code; },
    (e: unknown) => { io.stderr(`context-compactor: ${e instanceof Error ? e.message : String(e)}\n`); process.exitCode = 1; },
  );
}
