// Cline task folders that hold only ui_messages.json (real Cline CLI 2.18.0 and VS Code 3.51.0 tasks with their API
// history removed): the conversation rebuilt from the UI log, inspect works, compaction refuses in one line.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import { main } from '../../../src/cli/main';
import type { Block, Message } from '../../../src/core/model/transcript';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { scanUsage } from '../../../src/node/usage/scanner';
import { CLINE_4TURNS, CLINE_REAL, ROO_CONDENSED } from '../../support/clineFixtures';
import { tmpDir } from '../../support/tmp';

/** A copy of a real task folder without its API history. */
function uiOnly(t: TestContext, from: string): string {
  const dir = path.join(tmpDir(t), path.basename(from));
  fs.cpSync(from, dir, { recursive: true });
  fs.rmSync(path.join(dir, 'api_conversation_history.json'));
  return dir;
}

const blocksOf = (ms: readonly Message[], type: Block['type']): Block[] => ms.flatMap((m) => m.blocks.filter((b) => b.type === type));
const ui = (dir: string): Record<string, unknown>[] => JSON.parse(fs.readFileSync(path.join(dir, 'ui_messages.json'), 'utf8'));

/** main() as the command line runs it: a thrown error is the one line main.ts prints, exit code 1. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  try {
    const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {} });
    return { code, stdout, stderr };
  } catch (e) {
    return { code: 1, stdout, stderr: `${stderr}context-compactor: ${(e as Error).message}\n` };
  }
}

test('Cline CLI task with only ui_messages.json: prompts, replies, every tool and command paired with its result, usage', async (t) => {
  const dir = uiOnly(t, CLINE_4TURNS);
  const { session } = await readTranscriptFile(dir);
  const log = ui(dir);
  assert.equal(session.format, 'cline');
  assert.equal(session.id, path.basename(CLINE_4TURNS));
  assert.match(session.title!, /^Turn 1: find where estimateTokens/);
  assert.match(session.warnings.join('\n'), /api_conversation_history.json is missing: the conversation is rebuilt from ui_messages.json/);
  // The four prompts, as the user typed them.
  const prompts = session.messages.filter((m) => m.role === 'user' && m.blocks[0]!.type === 'text').map((m) => (m.blocks[0] as { text: string }).text);
  assert.deepEqual(prompts.map((p) => p.slice(0, 7)), ['Turn 1:', 'Turn 2:', 'Turn 3:', 'Turn 4:']);
  // One call per tool or command entry, each answered by the next message.
  const calls = blocksOf(session.messages, 'tool_call') as Extract<Block, { type: 'tool_call' }>[];
  const results = blocksOf(session.messages, 'tool_result') as Extract<Block, { type: 'tool_result' }>[];
  assert.equal(calls.length, log.filter((u) => u.say === 'tool' || u.say === 'command').length);
  assert.ok(calls.length > 0);
  assert.deepEqual(results.map((r) => r.id), calls.map((c) => c.id));
  session.messages.forEach((m, i) => {
    for (const b of m.blocks) if (b.type === 'tool_call') assert.ok(session.messages[i + 1]!.blocks.some((r) => r.type === 'tool_result' && r.id === b.id), `call ${b.id} answered next`);
  });
  // A command's result is what the model got: the whole output, from the request Cline recorded.
  const grep = calls.findIndex((c) => c.name === 'execute_command' && (c.input as { command: string }).command.startsWith('grep -rn "estimateTokens"'));
  assert.ok(grep >= 0);
  assert.match(results[grep]!.text, /^\[execute_command for 'grep -rn "estimateTokens" src \| head -60'\] Result:\nCommand executed successfully/);
  assert.match(results[grep]!.text, /src\/cleanup\/argRecords\.ts:4:import \{ estimateTokens \}/);
  // A file read's result holds the file, not the path the UI shows.
  const read = calls.findIndex((c) => c.name === 'readFile');
  assert.match(results[read]!.text, /^\[read_file for '.*'\] Result:\n1 \| /);
  assert.equal(session.warnings.length, 1, session.warnings.join('\n'));
  // Usage from api_req_started: every request answered by an assistant message carries its figures.
  const requests = log.filter((u) => u.say === 'api_req_started').map((u) => JSON.parse(u.text as string) as Record<string, number>);
  const used = session.messages.filter((m) => m.usage);
  assert.equal(used.length, requests.length);
  assert.deepEqual(used[0]!.usage, { inputTokens: requests[0]!.tokensIn, outputTokens: requests[0]!.tokensOut, cacheReadTokens: requests[0]!.cacheReads, cacheCreationTokens: requests[0]!.cacheWrites });
  assert.equal(session.models[0], 'claude-sonnet-4-5-20250929');
  assert.ok(session.recordedContext! > 70_000);
});

test('VS Code task with only ui_messages.json: the task (a say:text entry) is the first prompt; context close to the API reading', async (t) => {
  const dir = uiOnly(t, CLINE_REAL);
  const { session } = await readTranscriptFile(dir);
  const first = session.messages[0]!;
  assert.equal(first.role, 'user');
  assert.match((first.blocks[0] as { text: string }).text, /^You have been given a Dockerized codebase for an unfinished 3D multiplayer Unity/);
  const calls = blocksOf(session.messages, 'tool_call');
  const results = blocksOf(session.messages, 'tool_result');
  assert.equal(calls.length, 46);
  assert.deepEqual(results.map((r) => 'id' in r && r.id), calls.map((c) => 'id' in c && c.id));
  assert.ok(blocksOf(session.messages, 'reasoning').length > 40);
  // inspect through the CLI: same recorded context as the full folder, estimate within 2% of it.
  const full = await cli(['inspect', CLINE_REAL, '--json']);
  const only = await cli(['inspect', dir, '--json']);
  assert.equal(only.code, 0, only.stderr);
  const a = (JSON.parse(full.stdout) as { tokens: { total: number; recordedContext: number } }).tokens;
  const b = (JSON.parse(only.stdout) as { tokens: { total: number; recordedContext: number } }).tokens;
  assert.ok(b.recordedContext > 60_000);
  assert.equal(b.recordedContext, a.recordedContext);
  assert.ok(Math.abs(b.total - a.total) / a.total < 0.02, `${b.total} vs ${a.total}`);
});

test('compact refuses a task with only ui_messages.json in one line and leaves the folder as it was', async (t) => {
  const dir = uiOnly(t, CLINE_4TURNS);
  const before = fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
  const out = path.join(tmpDir(t), 'out');
  const r = await cli(['compact', dir, '--out', out, '--no-summary']);
  assert.notEqual(r.code, 0);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /this task has only ui_messages\.json; compaction needs api_conversation_history\.json to resume/);
  assert.ok(!fs.existsSync(out) || fs.readdirSync(out).length === 0);
  assert.deepEqual(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]), before);
});

test('a folder with neither file is still not a task', async (t) => {
  const dir = path.join(tmpDir(t), 'empty-task');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'task_metadata.json'), '{}');
  const r = await cli(['inspect', dir]);
  assert.notEqual(r.code, 0);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
});

test('the usage scan (Sessions view, `usage`) lists a task with only ui_messages.json, with the tokens it recorded', async (t) => {
  const home = tmpDir(t);
  const task = path.join(home, '.cline', 'data', 'tasks', path.basename(CLINE_4TURNS));
  fs.mkdirSync(path.dirname(task), { recursive: true });
  fs.cpSync(CLINE_4TURNS, task, { recursive: true });
  fs.rmSync(path.join(task, 'api_conversation_history.json'));
  const { report } = await scanUsage({ env: { HOME: home }, useCache: false });
  const found = report.sessions.filter((s) => s.agent === 'cline');
  assert.deepEqual(found.map((s) => s.file), [task]);
  const requests = ui(task).filter((u) => u.say === 'api_req_started').map((u) => JSON.parse(u.text as string) as Record<string, number>);
  assert.equal(found[0]!.outputTokens, requests.reduce((a, r) => a + r.tokensOut!, 0));
  assert.deepEqual(found[0]!.models, ['claude-sonnet-4-5-20250929']);
});

test('Roo task (hand-made fixture) with only ui_messages.json: a condense leaves its summary and what followed; a result the log lacks is said', async (t) => {
  const dir = uiOnly(t, ROO_CONDENSED);
  const { session } = await readTranscriptFile(dir);
  assert.equal(session.title, 'fix the retry loop in src/retry.ts: it never stops after maxAttempts');
  const first = session.messages[0]!;
  assert.equal(first.blocks[0]!.type, 'summary');
  assert.match((first.blocks[0] as { text: string }).text, /^## Conversation summary/);
  // What the condense replaced is no longer in context: the readFile call before it is gone.
  const calls = blocksOf(session.messages, 'tool_call') as Extract<Block, { type: 'tool_call' }>[];
  assert.deepEqual(calls.map((c) => c.name), ['execute_command']);
  assert.deepEqual(calls[0]!.input, { command: 'npm test -- retry' });
  const results = blocksOf(session.messages, 'tool_result') as Extract<Block, { type: 'tool_result' }>[];
  assert.deepEqual(results.map((r) => [r.id, r.text]), [[calls[0]!.id, '(result not recorded in ui_messages.json)']]);
  assert.equal(session.recordedContext, 650 + 900 + 400);
});

test('hand-made log: two calls answered by one request get one "[tool] Result:" part each', async (t) => {
  const dir = path.join(tmpDir(t), 'tasks', '1790000000000');
  fs.mkdirSync(dir, { recursive: true });
  const say = (ts: number, kind: string, text: string) => ({ ts, type: 'say', say: kind, text });
  const req = (ts: number, request: string) => say(ts, 'api_req_started', JSON.stringify({ request, tokensIn: 10, tokensOut: 5, cacheReads: 0, cacheWrites: 0, cost: 0 }));
  fs.writeFileSync(path.join(dir, 'ui_messages.json'), JSON.stringify([
    say(1, 'task', 'read a.ts and b.ts'), req(2, '<task>\nread a.ts and b.ts\n</task>\n\n<environment_details>\nenv\n</environment_details>'),
    say(3, 'tool', JSON.stringify({ tool: 'readFile', path: 'a.ts', content: '/w/a.ts' })),
    say(4, 'tool', JSON.stringify({ tool: 'readFile', path: 'b.ts', content: '/w/b.ts' })),
    req(5, "[read_file for 'a.ts'] Result:\nA body\n\n[read_file for 'b.ts'] Result:\nB body\n\n<environment_details>\nenv\n</environment_details>"),
    say(6, 'completion_result', 'done'),
  ]));
  const { session } = await readTranscriptFile(dir);
  const results = blocksOf(session.messages, 'tool_result') as Extract<Block, { type: 'tool_result' }>[];
  assert.deepEqual(results.map((r) => r.text), ["[read_file for 'a.ts'] Result:\nA body", "[read_file for 'b.ts'] Result:\nB body"]);
  assert.deepEqual(session.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  assert.equal(blocksOf(session.messages, 'meta').length, 2);
});
