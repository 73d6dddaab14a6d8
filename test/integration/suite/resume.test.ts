// Compact → Accept in VS Code, then the real `claude` and `codex` CLIs resume the written session with exactly the
// report's resume command, in its working folder and the same agent homes, against a loopback model.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codexHome } from '../../../src/node/agentStores';
import { isTurnRequest, mentions } from '../../../src/node/resume/agentHome';
import { agentEnv, describeRun, RESUME_PROMPT, runAgent } from '../../../src/node/resume/agentRun';
import type { LoopbackServer } from '../../../src/node/resume/loopback';
import { startLoopbackMessages, startLoopbackResponses } from '../../../src/node/resume/loopbackModels';
import { CommandIds } from '../../../src/vscode/commandIds.js';
import type { CompactOutcome } from '../../../src/vscode/compactCommand.js';
import { openResumeTerminal } from '../../../src/vscode/resumeTerminal.js';
import { test } from '../harness.js';
import { activeExtension } from './fixtures.js';

const KEY = 'sk-loopback-flow';

/** The pinned CLI the prereqs installed; a missing one fails the test with one line (never a skip). */
async function cli(name: 'claude' | 'codex'): Promise<string> {
  const bin = path.join((await activeExtension()).extensionPath, '.cache', 'agents', 'node_modules', '.bin', name);
  if (!fs.existsSync(bin)) throw new Error(`the real ${name} CLI is not installed at ${bin}; run scripts/test-prereqs.sh`);
  return bin;
}

/**
 * A copy of a real fixture whose recorded working folder is a fresh folder on this machine (the resume runs there):
 * the sample's own folder was a temporary one of the machine that recorded it.
 */
function relocated(fixture: string, recordedCwd: string): { file: string; cwd: string; root: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-flow-')));
  const cwd = path.join(root, 'repo');
  fs.mkdirSync(cwd);
  const file = path.join(root, path.basename(fixture));
  fs.writeFileSync(file, fs.readFileSync(fixture, 'utf8').split(recordedCwd).join(cwd));
  return { file, cwd, root };
}

const fixtures = async (...parts: string[]): Promise<string> => path.join((await activeExtension()).extensionPath, 'test', 'fixtures', ...parts);

async function acceptInVsCode(file: string): Promise<CompactOutcome> {
  const outcome = await vscode.commands.executeCommand<CompactOutcome | undefined>(CommandIds.compactTranscript, vscode.Uri.file(file), { decision: 'accept' });
  assert.ok(outcome?.written && outcome.output, 'Accept wrote the session');
  assert.ok(outcome.report.resumeCommand, 'with a resume command');
  return outcome;
}

/** Codex's config.toml with the custom provider id "loopback" (the Codex sample's) pointed at the loopback model. */
function writeLoopbackConfig(config: string, url: string): void {
  fs.writeFileSync(config, ['model = "gpt-5.5"', 'model_provider = "loopback"', '[model_providers.loopback]', 'name = "loopback"',
    `base_url = "${url}/v1"`, 'wire_api = "responses"', 'env_key = "LOOPBACK_API_KEY"', ''].join('\n'));
}

/** The request that carried the resumed turn; fails with what the agent printed when there is none. */
function turnOf(agent: 'claude-code' | 'codex', server: LoopbackServer, run: Awaited<ReturnType<typeof runAgent>>): NonNullable<LoopbackServer['requests'][number]> {
  const turn = server.requests.find((r) => isTurnRequest(agent, r));
  assert.ok(turn, `the resumed turn reached the loopback model (${server.requests.length} requests; ${describeRun(run)})`);
  return turn;
}

test('Claude Code resumes the accepted session with exactly report.resumeCommand (real CLI, loopback model)', async () => {
  const bin = await cli('claude');
  const sample = await fixtures('claude-code', 'sample.jsonl');
  const { file, cwd, root } = relocated(sample, '/tmp/tmp.SqKaBIBLXl/repo');
  const server = await startLoopbackMessages(KEY);
  let outcome: CompactOutcome | undefined;
  try {
    outcome = await acceptInVsCode(file);
    assert.equal(outcome.cwd, cwd, 'the resume runs in the recorded working folder');
    assert.ok(outcome.output!.startsWith(path.join(process.env.CLAUDE_CONFIG_DIR ?? '?', 'projects') + path.sep), outcome.output);
    // The command as the report gives it, with the non-interactive prompt flag appended.
    const args = [...outcome.report.resumeCommand.split(' ').slice(1), '-p', '--', RESUME_PROMPT];
    assert.equal(outcome.report.resumeCommand.split(' ')[0], 'claude');
    const env = agentEnv(path.join(root, 'home'), {
      CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR!, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
    });
    const run = await runAgent(bin, args, outcome.cwd!, env);
    const turn = turnOf('claude-code', server, run);
    // A marker of the compacted history: the session's first task, and a cleanup mark of ours.
    assert.ok(mentions(turn.body, 'Task 1: investigate how npm handles'), 'the history of the session was sent');
    assert.ok(mentions(turn.body, '[context-compactor'), 'the compacted history, not the original');
  } finally {
    await server.close();
    if (outcome?.output) fs.rmSync(outcome.output, { force: true });
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('Codex resumes the accepted rollout with the words of report.resumeCommand (real CLI, exec form, loopback model)', async () => {
  const bin = await cli('codex');
  const sample = await fixtures('codex', 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl');
  const { file, cwd, root } = relocated(sample, '/tmp/tmp.USjQqTv2c5/repo');
  const server = await startLoopbackResponses(KEY);
  const home = codexHome();
  const config = path.join(home, 'config.toml');
  let outcome: CompactOutcome | undefined;
  try {
    outcome = await acceptInVsCode(file);
    assert.equal(outcome.cwd, cwd);
    assert.ok(outcome.output!.startsWith(path.join(home, 'sessions') + path.sep), outcome.output);
    // The sample was recorded with a custom provider id "loopback"; Codex resumes only with that provider.
    writeLoopbackConfig(config, server.url);
    const [codex, verb, id, ...rest] = outcome.report.resumeCommand.split(' ');
    assert.deepEqual([codex, verb, id, rest], ['codex', 'resume', outcome.report.sessionId, []]);
    // `codex resume <id>` is the interactive form (its TUI, run in a terminal, also starts an app-server daemon that
    // outlives it); `codex exec resume <id> <prompt>` is the same resume, non-interactive: the report's words, with
    // `exec` and its flag put in front of them.
    const run = await runAgent(bin, ['exec', '--skip-git-repo-check', verb!, id!, '--', RESUME_PROMPT], outcome.cwd!, agentEnv(path.join(root, 'home'), { CODEX_HOME: home, LOOPBACK_API_KEY: KEY }));
    const turn = turnOf('codex', server, run);
    assert.ok(mentions(turn.body, '[context-compactor'), 'the compacted history was sent');
  } finally {
    await server.close();
    fs.rmSync(config, { force: true });
    if (outcome?.output) fs.rmSync(outcome.output, { force: true });
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('Continue in another agent: a Claude Code session accepted for Codex, resumed by the real codex CLI with the report\'s words', async () => {
  const bin = await cli('codex');
  const sample = await fixtures('claude-code', 'sample.jsonl');
  const { file, cwd, root } = relocated(sample, '/tmp/tmp.SqKaBIBLXl/repo');
  const server = await startLoopbackResponses(KEY);
  const home = codexHome();
  const config = path.join(home, 'config.toml');
  let outcome: CompactOutcome | undefined;
  try {
    // Codex's own setup, read when the session is converted: it resumes a thread only under the provider it records.
    fs.mkdirSync(home, { recursive: true });
    writeLoopbackConfig(config, server.url);
    outcome = await vscode.commands.executeCommand<CompactOutcome | undefined>(CommandIds.continueIn, vscode.Uri.file(file), { to: 'codex', decision: 'accept' });
    assert.ok(outcome?.written && outcome.output, 'Accept wrote the session');
    assert.equal(outcome.report.format, 'codex');
    assert.equal(outcome.report.from, 'claude-code');
    assert.ok(outcome.output.startsWith(path.join(home, 'sessions') + path.sep), outcome.output);
    const [codex, verb, id, ...rest] = outcome.report.resumeCommand.split(' ');
    assert.deepEqual([codex, verb, id, rest], ['codex', 'resume', outcome.report.sessionId, []]);
    const run = await runAgent(bin, ['exec', '--skip-git-repo-check', verb!, id!, '--', RESUME_PROMPT], outcome.cwd ?? cwd, agentEnv(path.join(root, 'home'), { CODEX_HOME: home, LOOPBACK_API_KEY: KEY }));
    const turn = turnOf('codex', server, run);
    // The Claude session's latest request, verbatim, and its state snapshot.
    assert.ok(mentions(turn.body, 'Task 2: investigate how npm handles "workspace", reproduce the missing-module error, and write notes in NOTES-2.md.'), 'the latest request was sent');
    assert.ok(mentions(turn.body, 'state snapshot of the earlier part of this session'), 'the snapshot was sent');
  } finally {
    await server.close();
    fs.rmSync(config, { force: true });
    if (outcome?.output) fs.rmSync(outcome.output, { force: true });
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('Resume in terminal runs the command in the session\'s folder, else the workspace folder', async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cc-flow-term-')));
  const ran = async (cwd: string | undefined, marker: string): Promise<string> => {
    // A stand-in for the resume command that shows where it ran.
    const terminal = openResumeTerminal({ command: `pwd > ${path.join(root, marker)}`, cwd, name: `Resume ${marker}` });
    const file = path.join(root, marker);
    for (let i = 0; i < 100 && !(fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim()); i++) await new Promise((r) => setTimeout(r, 100));
    terminal.dispose();
    assert.ok(fs.existsSync(file), `the terminal ran the command (${marker})`);
    return fs.readFileSync(file, 'utf8').trim();
  };
  try {
    const session = path.join(root, 'session-folder');
    fs.mkdirSync(session);
    assert.equal(await ran(session, 'a'), session);
    assert.equal(await ran(path.join(root, 'gone'), 'b'), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  } finally {
    // Leave the window as found: no terminal panel, the editor focused (later suites open editors in the active group).
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    fs.rmSync(root, { recursive: true, force: true });
  }
});
