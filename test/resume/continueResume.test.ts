// The real Continue CLI (npm @continuedev/cli, `cn`), offline against a loopback Chat Completions API, continues our
// compacted Continue session with `cn --fork <id>`: its first request carries the new prompt verbatim after the
// compacted history, every tool message answers a call of that history, and it is smaller than the original's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeOpenAI } from '../support/fakeOpenAI';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import { FIXTURES } from '../support/fixtures';
import { agentEnv, byteFigures, compactWithCli, describeRun, freshDir, NEW_PROMPT, runAgent, sha256 } from './harness';

const REPO = path.resolve(__dirname, '..', '..');
const DIR = path.join(FIXTURES, 'continue', 'cn-1.5.47-long', 'sessions');
const ORIGINAL = fs.readdirSync(DIR).find((n) => n !== 'sessions.json')!;
const KEY = 'sk-loopback-continue';
type Obj = Record<string, any>;

/** `cn`: CN_BIN, else the pinned CLI `scripts/install-npm-cli.sh continue` puts in .cache/continue. */
function cnBin(): string {
  if (process.env.CN_BIN) return process.env.CN_BIN;
  const printed = execFileSync(path.join(REPO, 'scripts', 'install-npm-cli.sh'), ['continue'], { stdio: ['ignore', 'pipe', 'inherit'], timeout: 180_000, encoding: 'utf8' });
  return printed.trim().replace(/^.* at /, '');
}

let fake: FakeServer;
before(async () => { fake = await startFakeOpenAI(KEY); });
after(async () => { await fake.close(); });

test('Continue forks and continues a compacted session (real CLI, loopback API)', async () => {
  const bin = cnBin();
  const root = freshDir('continue');
  const home = path.join(root, 'home');
  const store = path.join(home, '.continue', 'sessions');
  const work = path.join(root, 'work');
  fs.mkdirSync(store, { recursive: true });
  fs.mkdirSync(work);
  for (const f of fs.readdirSync(DIR)) fs.copyFileSync(path.join(DIR, f), path.join(store, f));
  const config = path.join(root, 'config.yaml');
  fs.writeFileSync(config, ['name: loopback', 'version: 1.0.0', 'schema: v1', 'models:', '  - name: loopback', '    provider: openai',
    '    model: gpt-4o-mini', `    apiBase: ${fake.url}/v1`, `    apiKey: ${KEY}`, '    roles: [chat]', ''].join('\n'));
  const env = agentEnv(home, { CONTINUE_GLOBAL_DIR: path.join(home, '.continue') });
  const stored = path.join(store, ORIGINAL);
  const hash = sha256(stored);

  const report = await compactWithCli(stored);
  assert.equal(report.format, 'continue');
  assert.equal(path.dirname(report.output!), store, 'the copy is written beside the original, where cn looks');
  assert.ok(report.after.historyTokens < report.before.historyTokens * 0.6, `history ${report.before.historyTokens} → ${report.after.historyTokens}`);
  assert.equal(sha256(stored), hash, 'the original is unchanged');

  const resume = async (id: string): Promise<RecordedRequest> => {
    const from = fake.requests.length;
    const run = await runAgent(bin, ['-p', '--auto', '--config', config, '--fork', id, NEW_PROMPT], work, env);
    assert.equal(run.code, 0, describeRun(run));
    const mine = fake.requests.slice(from).filter((r) => r.path === '/v1/chat/completions');
    assert.ok(mine.length >= 1, `cn sent no chat request: ${describeRun(run)}`);
    return mine[0]!;
  };
  const original = await resume(path.basename(ORIGINAL, '.json'));
  const compacted = await resume(report.sessionId);

  const messages = (compacted.body as Obj).messages as Obj[];
  const last = messages[messages.length - 1]!;
  assert.equal(last.role, 'user');
  assert.equal(typeof last.content === 'string' ? last.content : last.content.map((p: Obj) => p.text ?? '').join(''), NEW_PROMPT, 'the new prompt, verbatim, last');
  // Every tool message answers a call the history holds before it.
  const calls = new Set<string>();
  let results = 0;
  for (const m of messages) {
    for (const c of (m.tool_calls ?? []) as Obj[]) calls.add(c.id);
    if (m.role === 'tool') { results++; assert.ok(calls.has(m.tool_call_id), `tool result ${m.tool_call_id} answers no call before it`); }
  }
  assert.ok(results > 0, 'the compacted history still carries tool results');
  const text = JSON.stringify(messages);
  // The latest reply and the first request survive; the big outputs of the older turns do not.
  assert.ok(text.includes('big.txt has 400 TIMEOUT lines; seq printed 5000 to 8000.'), 'the latest reply is carried verbatim');
  assert.ok(text.includes('Read notes.txt, list the folder and count its lines'), 'the first request is carried');
  const figures = byteFigures({ original, compacted });
  assert.ok(figures.ratio < 0.75, figures.line);
  console.log(`continue: ${figures.line}`);
});
