// Every command's help text and the package version: main.ts answers `--help`, `-h` and `--version` for any command
// from here, without loading the command's own bundle (a help screen never evaluates the compaction engine).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { STRATEGIES } from '../core/eval/types';
import { HOOK_AGENTS } from '../core/hook/boundary';
import { AGENT_IDS } from '../core/model/ids';

/** Exit codes, the same for every command (README: "Exit codes"). */
const EXIT_CODES = `exit codes: 0 done · 1 nothing found, every eval row failed, or a summary asked for failed (the cleaned
            copy is written) · 2 bad arguments or input, a --provider without its key (nothing written) · 130
            interrupted; the reason is on stderr`;

export const TOP_USAGE = `usage: context-compactor <command> [options]     (context-compactor <command> --help: its options)
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
  search QUERY [--agent A] [--project P] [--since DATE] [--regex] [--limit N] [--json]
                            every session of every agent, by what was said and done in it
  hook AGENT | hook install|uninstall AGENT [--scope user|project]
                            guard the agent's own compaction (claude-code, codex): a SessionStart hook
                            that hands back the facts its summary may drop
  --version                 the version of context-compactor
${EXIT_CODES}
`;

export const USAGES = {
  inspect: 'usage: context-compactor inspect FILE [--json]',
  compact: `usage: context-compactor compact FILE [--out PATH | --into-store] [--to AGENT [--cwd DIR]] [--keep-recent N] [--keep-recent-tokens N]
       [--keep-recent-results N] [--json] [--no-summary] [--provider anthropic|openai|openai-compatible|none]
       [--model M] [--base-url URL] [--focus TEXT] [--timeout SECONDS] [--max-output-tokens N]
       [--max-input-tokens N] [--exact]
default output: a new session beside FILE; --into-store: where the agent resumes sessions from (never over a file)
--to AGENT: continue in another agent (claude, codex, gemini, opencode, goose): the compacted session written in its
  native format, into its store (or --out), with the latest request, the state snapshot and the recent turns, tool
  calls mapped to its tools or folded into words; the report names its resume command and what was not carried over;
  --cwd DIR: the folder to continue in (default: the session's recorded one)
keys: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_COMPATIBLE_API_KEY (environment only); a --provider without its key
  is refused before anything is read (exit 2, nothing written); a summary call that fails writes the cleaned
  transcript and exits 1 with the reason on stderr`,
  simulate: 'usage: context-compactor simulate FILE [--threshold N] [--keep-recent N] [--summary-tokens N] [--no-summary] [--json]',
  usage: `usage: context-compactor usage [DIR...] [--json] [--no-cache] [--threshold N]
a DIR that does not exist is an error (exit 2); no session found: exit 1`,
  eval: `usage: context-compactor eval [PATH...] [--strategies ${STRATEGIES.join(',')}] [--json] [--markdown FILE] [--jobs N] [--resume-check]
       [--provider anthropic|openai|openai-compatible|none] [--model M] [--base-url URL] [--timeout SECONDS]
       [--max-output-tokens N] [--max-input-tokens N] [--keep-recent N] [--threshold N] [--rounds N]
PATH: transcript files or folders (default: every session of a supported agent on this machine)
--resume-check: the real claude / codex CLI (PATH, or CLAUDE_BIN / CODEX_BIN) resumes each written output offline
  against a loopback model; resumeBytesRatio = request bytes for the output / for the original (slow)
--rounds N: cleanup, summary and cleanup+summary compact their own output again as the session grows, N times in
  all (default 1); probes kept per round
keys: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_COMPATIBLE_API_KEY (environment only)
every row failed: exit 1, each failed row's reason listed under the table`,
  export: 'usage: context-compactor export FILE --markdown [--out PATH]',
  search: `usage: context-compactor search QUERY [DIR...] [--agent A] [--project P] [--since DATE] [--regex] [--limit N] [--json] [--no-cache]
  QUERY          case-insensitive text (with --regex: a JavaScript regular expression, case-insensitive)
  DIR...         search only these folders (default: every agent's sessions on this machine)
  --agent A      one agent: ${AGENT_IDS.join(', ')}
  --project P    sessions whose project path contains P
  --since DATE   sessions active since DATE (2026-12-01, an ISO time, or 7d / 12h ago)
  --limit N      list at most N matches per session (default 5; counts stay complete)
  --json         the matches as JSON
no match: exit 1`,
  hook: `usage: context-compactor hook <agent>          (run by the agent: SessionStart JSON on stdin)
       context-compactor hook install <agent> [--scope user|project]
       context-compactor hook uninstall <agent> [--scope user|project]
agents: ${HOOK_AGENTS.join(', ')}`,
} as const;

export type CommandName = keyof typeof USAGES;

/** A command's help screen (stdout, exit 0). */
export const commandHelp = (name: CommandName): string => `${USAGES[name]}\n${EXIT_CODES}\n`;

/**
 * Where the command line asks for help or the version, whatever else it holds (`compact FILE --help`): options only,
 * so a FILE named `-h` after `--` is still a file.
 */
export function wantsFlag(args: readonly string[], flags: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (flags.includes(a)) return true;
  }
  return false;
}

/**
 * The version in package.json, found upward from this bundle (dist/cli-main.js: one folder up; src/cli/help.ts under
 * tsx: two), read only when asked: start-up never reads it.
 */
export function packageVersion(from: string = __dirname): string {
  let dir = from;
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'context-compactor' && typeof pkg.version === 'string') return pkg.version;
    } catch { /* not here */ }
    dir = dirname(dir);
  }
  return 'unknown';
}
