// The real Claude Code CLI, offline against a loopback Messages API, compacts a session with our SessionStart hook
// installed (by our own `hook install`): the first request after its compaction carries the facts the hook found.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../src/cli/main';
import { storePath } from '../../src/node/agentStores';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import type { FakeServer } from '../support/fakeHttp';
import { CLAUDE_SAMPLE } from '../support/fixtures';
import { agentBin, agentEnv, allStrings, describeRun, freshDir, jsonl, runAgent } from './harness';
import { KEY } from './resumeSuite';

const MARK = 'copied from its transcript by context-compactor';
/** The agent's summary, as the loopback model writes it: it names none of the facts checked below. */
const SUMMARY = 'Summary: the user asked for two investigation tasks about npm workspaces; notes were written.';
let fake: FakeServer;
before(async () => { fake = await startFakeAnthropic(KEY); fake.fallback = { kind: 'ok', text: SUMMARY }; });
after(async () => { await fake.close(); });

const texts = (body: unknown): string => allStrings(body).join('\n');

/** A throwaway Claude Code home with the sample session in its store and our hook installed by `hook install`. */
async function prepared(label: string, extra: Record<string, string> = {}): Promise<{ env: NodeJS.ProcessEnv; cwd: string; stored: string; sessionId: string }> {
  assert.ok(fs.existsSync(path.resolve(__dirname, '..', '..', 'dist', 'cli.js')), 'run npm run build first: the hook entry names dist/cli.js');
  const root = freshDir(label);
  const cwd = path.join(root, 'work');
  fs.mkdirSync(cwd);
  const config = path.join(root, 'home', '.claude');
  const env = agentEnv(path.join(root, 'home'), { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CONFIG_DIR: config, ...extra });
  const sessionId = jsonl(CLAUDE_SAMPLE).find((r) => typeof r.sessionId === 'string')!.sessionId as string;
  const stored = storePath('claude-code', sessionId, cwd, new Date(), env);
  fs.mkdirSync(path.dirname(stored), { recursive: true });
  fs.copyFileSync(CLAUDE_SAMPLE, stored);
  let out = '', err = '';
  const code = await main(['hook', 'install', 'claude-code'], { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, env });
  assert.equal(code, 0, err);
  assert.match(out, /installed the compaction guard in .*settings\.json/);
  return { env, cwd, stored, sessionId };
}

/** Facts of the compacted history the loopback summary does not state: the failing command's error, a file written, a request. */
const FACTS = ["Error: Cannot find module './lib/workspace-missing.js'", 'NOTES-2.md: created', 'Task 2: investigate how npm handles "workspace"'];

function assertCarried(sent: string): void {
  assert.ok(sent.includes(SUMMARY), 'the agent\'s own summary is there');
  assert.ok(sent.includes(MARK), 'and so is our context');
  for (const fact of FACTS) {
    assert.ok(!SUMMARY.includes(fact));
    assert.ok(sent.includes(fact), `the request after compaction carries: ${fact}`);
  }
}

test('claude -p /compact with `hook install claude-code`: the next model request holds the hook\'s facts', async () => {
  const { env, cwd, stored, sessionId } = await prepared('hook');
  const bin = agentBin('claude');
  const compacted = await runAgent(bin, ['-p', '--resume', sessionId, '--', '/compact'], cwd, env);
  assert.equal(compacted.code, 0, describeRun(compacted));
  const records = jsonl(stored);
  const boundary = records.findIndex((r) => r.type === 'system' && r.subtype === 'compact_boundary');
  assert.ok(boundary > 0, 'Claude Code compacted the session');
  // Claude Code records what the hook gave it right after the boundary.
  const added = records.slice(boundary).find((r) => (r.attachment as { type?: string } | undefined)?.type === 'hook_additional_context');
  assert.ok(added, 'the SessionStart:compact hook ran and its context was taken');
  assert.match(texts(added), new RegExp(MARK));

  const from = fake.requests.length;
  const next = await runAgent(bin, ['-p', '--resume', sessionId, '--', 'Go on with the next step.'], cwd, env);
  assert.equal(next.code, 0, describeRun(next));
  const first = fake.requests.slice(from).find((r) => r.path === '/v1/messages' && texts(r.body).includes('Go on with the next step.'));
  assert.ok(first, 'the model was asked to go on');
  assertCarried(texts(first.body));
});

test('past its auto-compact threshold (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=1) Claude Code compacts by itself: the same request carries the facts', async () => {
  const { env, cwd, stored, sessionId } = await prepared('hook-auto', { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '1' });
  const from = fake.requests.length;
  const run = await runAgent(agentBin('claude'), ['-p', '--resume', sessionId, '--', 'Go on with the next step.'], cwd, env);
  assert.equal(run.code, 0, describeRun(run));
  assert.ok(jsonl(stored).some((r) => r.type === 'system' && r.subtype === 'compact_boundary'), 'Claude Code compacted on its own');
  const asked = fake.requests.slice(from).filter((r) => r.path === '/v1/messages' && texts(r.body).includes('Go on with the next step.'));
  // The first request that asks the model to go on after the summary was written.
  const first = asked.find((r) => texts(r.body).includes(SUMMARY));
  assert.ok(first, 'the model was asked to go on after the compaction');
  assertCarried(texts(first.body));
});
