// The real Cline CLI (npm `cline` 2.18.0, Cline core 3.82), offline against a loopback Anthropic API, lists and
// resumes the task folder our `compact` wrote: the request it sends holds the compacted history (our records,
// Cline's own truncation baked in), every tool_use answered, far fewer bytes than resuming the original.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it, after, afterEach, before } from 'node:test';
import { MARK } from '../../src/core/cleanup/records';
import { CLINE_4TURNS, CLINE_REAL, CLINE_TRUNCATED } from '../support/clineFixtures';
import { startFakeServer, startSse, type FakeServer, type RecordedRequest } from '../support/fakeHttp';
import { agentEnv, compactWithCli, describeRun, freshDir, NEW_PROMPT, runAgent } from './harness';
import { assertClaudePairs, blocksOf, messagesOf } from './wire';
import { generous } from '../support/waits';

const REPO = path.resolve(__dirname, '..', '..');
const KEY = 'sk-ant-cline-resume';

/** The pinned CLI's entry point: CLINE_BIN, else installed into .cache/agents/cline by scripts/install-cline.sh. */
function clineEntry(): string {
  if (process.env.CLINE_BIN) return process.env.CLINE_BIN;
  let line: string;
  try {
    line = execFileSync(path.join(REPO, 'scripts', 'install-cline.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 }).trim();
  } catch {
    throw new Error('the pinned Cline CLI is missing and could not be installed: run scripts/install-cline.sh (or set CLINE_BIN)');
  }
  return line.slice(line.lastIndexOf(' at ') + 4);
}

/** Answers every request with an attempt_completion call, as a model that is done would. */
function startFake(): Promise<FakeServer> {
  let n = 0;
  return startFakeServer((req, _fault, res) => {
    if (req.auth !== KEY) { res.writeHead(401); res.end('{}'); return; }
    n++;
    const send = startSse(res);
    const model = (req.body as { model?: string }).model ?? 'claude-sonnet-4-5-20250929';
    send({ type: 'message_start', message: { id: `msg_resume${n}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }, 'message_start');
    send({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_resume${n}`, name: 'attempt_completion', input: {} } }, 'content_block_start');
    send({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"result":"Resumed and done."}' } }, 'content_block_delta');
    send({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
    send({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 12 } }, 'message_delta');
    send({ type: 'message_stop' }, 'message_stop');
    res.end();
  });
}

/** A Cline CLI home whose data folder holds the fixture's task (and its index), pointed at the fake. */
function clineHome(task: string, fake: FakeServer, label: string): { root: string; env: NodeJS.ProcessEnv; data: string; input: string; cwd: string } {
  // No dots in the folder name: Cline's rotating log writer drops every ".1" from its log path, so a home under
  // "…cli-2.18.0…" also gets its log written to a sibling "…cli-28.0…" folder that nobody would remove.
  const root = freshDir(`cline-${label.replace(/\./g, '_')}`);
  const data = path.join(root, 'home', '.cline', 'data');
  const id = taskIdOf(task);
  fs.mkdirSync(path.join(data, 'state'), { recursive: true });
  fs.cpSync(task, path.join(data, 'tasks', id), { recursive: true });
  const index = path.join(task, '..', '..', 'state', 'taskHistory.json');
  // The public VS Code task came without its index: an entry like the one Cline keeps for it.
  fs.writeFileSync(path.join(data, 'state', 'taskHistory.json'), fs.existsSync(index) ? fs.readFileSync(index) : JSON.stringify([{ id, ts: Number(fs.statSync(task).mtimeMs.toFixed(0)), task: 'public task', tokensIn: 0, tokensOut: 0, totalCost: 0 }]));
  fs.writeFileSync(path.join(data, 'globalState.json'), JSON.stringify({
    actModeApiProvider: 'anthropic', planModeApiProvider: 'anthropic', actModeApiModelId: 'claude-sonnet-4-5-20250929',
    planModeApiModelId: 'claude-sonnet-4-5-20250929', anthropicBaseUrl: fake.url, welcomeViewCompleted: true, telemetrySetting: 'disabled',
  }));
  fs.writeFileSync(path.join(data, 'secrets.json'), JSON.stringify({ apiKey: KEY }));
  const cwd = path.join(root, 'work');
  fs.mkdirSync(cwd);
  return { root, env: agentEnv(path.join(root, 'home'), { CLINE_NO_AUTO_UPDATE: '1' }), data, input: path.join(data, 'tasks', id), cwd };
}

/** A task's id: its folder name, or (the public task was committed under another name) the id its focus-chain file names. */
function taskIdOf(task: string): string {
  const name = path.basename(task);
  if (/^\d+$/.test(name)) return name;
  const focus = fs.readdirSync(task).map((f) => /^focus_chain_taskid_(\d+)\.md$/.exec(f)?.[1]).find(Boolean);
  assert.ok(focus, `no task id for ${task}`);
  return focus;
}

const mentions = (r: RecordedRequest, text: string): boolean => JSON.stringify(r.body).includes(text);

/**
 * `cline history` is an interactive picker that waits for a key forever: what it lists, read until `want` shows up
 * (or 60 s pass), then the picker is closed.
 */
function listHistory(entry: string, home: ReturnType<typeof clineHome>, want: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, 'history', '-n', '50'], { cwd: home.cwd, env: home.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const stop = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); if (out.includes(want)) child.kill('SIGKILL'); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', () => { clearTimeout(stop); resolve(out); });
  });
}

/**
 * Resumes task `id` with the new prompt. Cline CLI 2.18.0 has a start-up race that makes a resumed task wait forever
 * before its first request (every start under CI load); scripts/install-cline.sh fixes it in the pinned copy. A
 * CLINE_BIN of the user's may not have the fix: a start that sent nothing in 60 s is retried, at most twice. A run
 * that reached the model and then failed is not retried.
 */
async function resume(entry: string, fake: FakeServer, id: string, home: ReturnType<typeof clineHome>): Promise<RecordedRequest> {
  let from = fake.requests.length;
  const start = () => runAgent(process.execPath, [entry, '-T', id, '-y', '-c', home.cwd, NEW_PROMPT], home.cwd, home.env, AbortSignal.timeout(generous(60_000)));
  let run = await start();
  for (let retry = 0; retry < 2 && run.code === null && fake.requests.length === from; retry++) {
    from = fake.requests.length;
    run = await start();
  }
  assert.equal(run.code, 0, `${describeRun(run)}; requests: ${JSON.stringify(fake.requests.slice(from).map((r) => [r.path, r.auth]))}`);
  const turn = fake.requests.slice(from).find((r) => r.path === '/v1/messages' && mentions(r, NEW_PROMPT));
  assert.ok(turn, `cline sent no request with the new prompt; ${describeRun(run)}`);
  return turn;
}

describe('Cline resumes a compacted task folder (real CLI, loopback API)', () => {
  let entry: string;
  let fake: FakeServer;
  /** Every task home a test made: removed after each test, so CI runs do not pile them up in the temp folder. */
  const homes: string[] = [];
  const leftHomes = (): string[] => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('cc-resume-cline-')).map((f) => path.join(os.tmpdir(), f));
  let before0: Set<string>;
  before(async () => { before0 = new Set(leftHomes()); entry = clineEntry(); fake = await startFake(); });
  afterEach(() => { for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true }); });
  after(async () => { await fake.close(); });

  for (const task of [CLINE_4TURNS, CLINE_TRUNCATED, CLINE_REAL]) {
    const label = path.basename(path.dirname(path.dirname(task))) === 'real' ? 'real-vscode-3.51' : path.basename(path.dirname(path.dirname(task)));
    it(`${label}: listed by \`cline history\`, resumed with the compacted history`, { timeout: 480_000 }, async () => {
      const original = clineHome(task, fake, `${label}-orig`);
      homes.push(original.root);
      const whole = await resume(entry, fake, taskIdOf(task), original);

      const home = clineHome(task, fake, label);
      homes.push(home.root);
      const report = await compactWithCli(home.input);
      assert.equal(report.output, path.join(home.data, 'tasks', report.sessionId));
      const history = await listHistory(entry, home, report.sessionId);
      assert.ok(history.includes(report.sessionId), `cline history lists the new task: ${history.slice(-1500)}`);

      const turn = await resume(entry, fake, report.sessionId, home);
      const messages = messagesOf(turn);
      assert.ok(assertClaudePairs(messages) > 0, 'every tool_use is answered in the next message');
      assert.match(JSON.stringify(messages[0]), /<task>/);
      assert.ok(mentions(turn, MARK), 'our cleanup records reach the model');
      // What the new task sends is the compacted history, not Cline's own view of the original.
      const bytes = (r: RecordedRequest) => Buffer.byteLength(JSON.stringify(messagesOf(r)));
      assert.ok(bytes(turn) < bytes(whole) * 0.75, `compacted ${bytes(turn)} bytes vs original ${bytes(whole)}`);
      const results = messages.flatMap(blocksOf).filter((b) => b.type === 'tool_result').length;
      assert.ok(results > 0);
      // Cline kept the new task in its index after resuming it (it rewrites the file on every save).
      const index = JSON.parse(fs.readFileSync(path.join(home.data, 'state', 'taskHistory.json'), 'utf8')) as { id: string }[];
      assert.ok(index.some((i) => i.id === report.sessionId));
      assert.ok(index.some((i) => i.id === taskIdOf(task)), 'the original task is still listed');
    });
  }

  // Declared last, so it runs after every resume above (node:test keeps declaration order within a suite).
  it('leaves no task home behind in the temp folder', () => {
    assert.deepEqual(leftHomes().filter((h) => !before0.has(h)), []);
  });
});
