// Shared steps of the resume tests: find the real agent CLIs, run them offline, compact via our CLI, hash files.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import type { CompactReport } from '../../src/core/compact/report';
import type { RecordedRequest } from '../support/fakeHttp';
import { agentEnv as agentEnvOf, RESUME_PROMPT, runAgent, type AgentRun } from '../../src/node/resume/agentRun';

const REPO = path.resolve(__dirname, '..', '..');
export { AGENT_TIMEOUT_MS, agentEnv, describeRun, runAgent, type AgentRun } from '../../src/node/resume/agentRun';
export { allStrings, mentions } from '../../src/node/resume/agentHome';
/** The prompt each resumed session gets (the product's resume check sends the same). */
export const NEW_PROMPT = RESUME_PROMPT;

/**
 * Path of a pinned agent CLI: CLAUDE_BIN / CODEX_BIN / GEMINI_BIN / OPENCODE_BIN / GOOSE_BIN / QWEN_BIN / COPILOT_BIN /
 * DROID_BIN / KILO_BIN when set, else `.cache/agents`, installed there by scripts/install-agents.sh (Claude Code, Codex,
 * OpenCode), `install-npm-cli.sh gemini|qwen|copilot` or `install-platform-cli.sh goose|droid|kilo` (these two print
 * where the CLI is) (a sub-second no-op once present) so a fresh checkout runs these tests as is.
 */
export function agentBin(name: 'claude' | 'codex' | 'gemini' | 'opencode' | 'goose' | 'qwen' | 'copilot' | 'droid' | 'kilo'): string {
  const override = {
    claude: process.env.CLAUDE_BIN, codex: process.env.CODEX_BIN, gemini: process.env.GEMINI_BIN, opencode: process.env.OPENCODE_BIN,
    goose: process.env.GOOSE_BIN, qwen: process.env.QWEN_BIN, copilot: process.env.COPILOT_BIN, droid: process.env.DROID_BIN, kilo: process.env.KILO_BIN,
  }[name];
  if (override) return override;
  const script = name === 'gemini' || name === 'qwen' || name === 'copilot' ? 'install-npm-cli.sh'
    : name === 'goose' || name === 'droid' || name === 'kilo' ? 'install-platform-cli.sh' : 'install-agents.sh';
  const one = script !== 'install-agents.sh';
  const printed = execFileSync(path.join(REPO, 'scripts', script), one ? [name] : [], { stdio: ['ignore', 'pipe', 'inherit'], timeout: 180_000, encoding: 'utf8' });
  return one ? printed.trim().replace(/^.* at /, '') : path.join(REPO, '.cache', 'agents', 'node_modules', '.bin', name);
}

/** A fresh folder, realpath'd: agents key their stores on the resolved cwd. */
export function freshDir(label: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `cc-resume-${label}-`)));
}

/** Runs the agent and returns the requests the fake received during that run only. */
export async function resumeAndRecord(
  requests: RecordedRequest[], bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv,
): Promise<{ run: AgentRun; requests: RecordedRequest[] }> {
  const from = requests.length;
  const run = await runAgent(bin, args, cwd, env);
  const mine = requests.slice(from);
  // RESUME_DUMP_DIR=dir keeps what the agent sent, to read or quote (one JSON file per resumed session).
  const dump = process.env.RESUME_DUMP_DIR;
  if (dump) fs.writeFileSync(path.join(dump, `${path.basename(bin)}-${args.join(' ').match(/[0-9a-f-]{36}/)?.[0] ?? 'run'}.json`), JSON.stringify(mine, null, 1));
  return { run, requests: mine };
}

/** Compacts FILE with the real `context-compactor compact` entry point; the new session lands next to it. */
export async function compactWithCli(file: string, summary?: { readonly baseUrl: string; readonly key: string }): Promise<CompactReport> {
  let out = '';
  let err = '';
  // Without `summary` an empty env: no provider key is picked up, so the result is the deterministic cleanup.
  const args = summary ? ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', summary.baseUrl] : ['--no-summary'];
  const code = await main(['compact', file, ...args, '--json'], { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, env: summary ? { ANTHROPIC_API_KEY: summary.key } : {} });
  if (code !== 0) throw new Error(`compact exited ${code}: ${err}`);
  return JSON.parse(out) as CompactReport;
}

export const sha256 = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** The JSON records of a JSONL file, in order. */
export function jsonl(file: string): Record<string, unknown>[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The marker our cleanup puts where it shortened or replaced content. */
export const COMPACTOR_MARK = '[context-compactor:';
/** How a far-old call folded with its result into one line starts. */
export const FOLD_MARK = '[context-compactor] ';

export interface ResumePair { readonly original: RecordedRequest; readonly compacted: RecordedRequest }

/** Byte figures of the two resume requests as one quotable line. */
export function byteFigures({ original, compacted }: ResumePair): { line: string; ratio: number } {
  const ratio = compacted.bytes / original.bytes;
  const fmt = (n: number): string => n.toLocaleString('en-US');
  return { ratio, line: `resume request bytes: original ${fmt(original.bytes)}, compacted ${fmt(compacted.bytes)}, ratio ${(ratio * 100).toFixed(1)} %` };
}

/**
 * Codex's config in CODEX_HOME for the loopback Responses API under the custom provider id "loopback" (the id the
 * Codex fixture was recorded with; Codex resumes a session only with the provider it records).
 */
export function writeCodexLoopbackConfig(codexHomeDir: string, apiUrl: string): void {
  fs.mkdirSync(codexHomeDir, { recursive: true });
  fs.writeFileSync(path.join(codexHomeDir, 'config.toml'), [
    'model = "gpt-5.5"', 'model_provider = "loopback"', '[model_providers.loopback]', 'name = "loopback"',
    `base_url = "${apiUrl}/v1"`, 'wire_api = "responses"', 'env_key = "LOOPBACK_API_KEY"', '',
  ].join('\n'));
}

/** A working folder and a Codex home under ROOT whose config points the "loopback" provider at `apiUrl`. */
export function codexLoopbackHome(root: string, apiUrl: string, key: string): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = path.join(root, 'work');
  fs.mkdirSync(cwd);
  const env = agentEnvOf(path.join(root, 'home'), { CODEX_HOME: path.join(root, 'codex'), LOOPBACK_API_KEY: key });
  writeCodexLoopbackConfig(env.CODEX_HOME!, apiUrl);
  return { cwd, env };
}

/** OpenCode's (or its fork Kilo's) global config in HOME: the Anthropic provider pointed at the loopback Messages API, nothing shared. */
export function writeOpencodeLoopbackConfig(home: string, apiUrl: string, key: string, cli: 'opencode' | 'kilo' = 'opencode'): void {
  fs.mkdirSync(path.join(home, '.config', cli), { recursive: true });
  fs.writeFileSync(path.join(home, '.config', cli, `${cli}.json`), JSON.stringify({
    model: 'anthropic/claude-sonnet-4-5', autoupdate: false, share: 'disabled',
    provider: { anthropic: { options: { baseURL: `${apiUrl}/v1`, apiKey: key } } },
  }));
}

/** A working folder and a home under ROOT where OpenCode (or Kilo) runs offline against the loopback Messages API. */
export function opencodeLoopbackHome(root: string, apiUrl: string, key: string, cli: 'opencode' | 'kilo' = 'opencode'): { cwd: string; home: string; env: NodeJS.ProcessEnv } {
  const cwd = path.join(root, 'work');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  writeOpencodeLoopbackConfig(home, apiUrl, key, cli);
  const env = agentEnvOf(home, { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', KILO_TELEMETRY_DISABLED: '1' });
  return { cwd, home, env };
}

/** A working folder and a home under ROOT where Goose runs offline against the loopback Messages API (no keyring). */
export function gooseLoopbackHome(root: string, apiUrl: string, key: string): { cwd: string; home: string; env: NodeJS.ProcessEnv } {
  const cwd = path.join(root, 'work');
  const home = path.join(root, 'home');
  fs.mkdirSync(cwd);
  const env = agentEnvOf(home, {
    XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share'), XDG_STATE_HOME: path.join(home, '.local', 'state'),
    GOOSE_DISABLE_KEYRING: '1', GOOSE_PROVIDER: 'anthropic', GOOSE_MODEL: 'claude-sonnet-4-5', GOOSE_MODE: 'auto', GOOSE_TELEMETRY_ENABLED: 'false',
    ANTHROPIC_API_KEY: key, ANTHROPIC_HOST: apiUrl,
  });
  return { cwd, home, env };
}
