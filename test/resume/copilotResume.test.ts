// Resume proof with the real GitHub Copilot CLI (pinned, offline with its own-key settings against a loopback Chat
// Completions API, no GitHub sign-in): the session folder we write is loaded by `copilot --resume=<id>`, whose first
// request carries the history — the latest prompt verbatim, every tool call answered — before the new prompt; the
// original log is left as it was.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CompactReport } from '../../src/core/compact/report';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import { startFakeOpenAI } from '../support/fakeOpenAI';
import { FIXTURES } from '../support/fixtures';
import { assertNoLarger, assertResumedHistory, isChatTurn } from './chatWire';
import { agentBin, agentEnv, compactWithCli, freshDir, jsonl, NEW_PROMPT, resumeAndRecord, sha256, type AgentRun } from './harness';

const KEY = 'sk-loopback';
const DIR = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102');
const SESSION = fs.readdirSync(DIR).find((f) => /^[0-9a-f-]{36}$/.test(f))!;
const FIXTURE = path.join(DIR, SESSION, 'events.jsonl');
type Obj = Record<string, any>;

describe('copilot --resume (Copilot CLI 1.0.102 session, real CLI, own-key mode)', { timeout: 300_000 }, () => {
  let fake: FakeServer;
  let report: CompactReport;
  let stored = '';
  const runs = {} as Record<'compacted' | 'original', { run: AgentRun; turn?: RecordedRequest }>;
  const hashes: Record<string, string> = {};

  before(async () => {
    const bin = agentBin('copilot');
    fake = await startFakeOpenAI(KEY);
    const root = freshDir('copilot');
    const home = path.join(root, 'home');
    const cwd = path.join(root, 'work');
    fs.mkdirSync(cwd);
    // The fixture's project folder was a temporary one: its events are moved to this test's folder, as a whole.
    const recorded = (jsonl(FIXTURE)[0] as Obj).data.context.cwd as string;
    const folder = path.join(home, '.copilot', 'session-state', SESSION);
    fs.mkdirSync(folder, { recursive: true });
    stored = path.join(folder, 'events.jsonl');
    fs.writeFileSync(stored, fs.readFileSync(FIXTURE, 'utf8').split(recorded).join(cwd));
    hashes.fixture = sha256(FIXTURE);
    hashes.stored = sha256(stored);
    report = await compactWithCli(stored);
    hashes.afterCompact = sha256(stored);
    // The CLI unpacks its bundle on first run: once, beside the installed binary, not into every test home.
    const cache = process.env.COPILOT_CACHE_HOME ?? path.join(path.dirname(bin), '..', '..', 'copilot-cache');
    const env = agentEnv(home, {
      COPILOT_OFFLINE: '1', COPILOT_PROVIDER_BASE_URL: `${fake.url}/v1`, COPILOT_PROVIDER_TYPE: 'openai', COPILOT_PROVIDER_API_KEY: KEY,
      COPILOT_MODEL: 'gpt-4.1', COPILOT_CACHE_HOME: cache,
    });
    const resume = async (id: string) => {
      const r = await resumeAndRecord(fake.requests, bin, [`--resume=${id}`, '-p', NEW_PROMPT, '--allow-all-tools'], cwd, env);
      return { run: r.run, turn: r.requests.find(isChatTurn) };
    };
    runs.compacted = await resume(report.sessionId);
    hashes.afterCompactedResume = sha256(stored);
    runs.original = await resume(SESSION);
  });
  after(async () => { await fake?.close(); });

  it('writes a new session folder into the CLI\'s session-state and leaves the original untouched', () => {
    assert.equal(report.output, path.join(path.dirname(path.dirname(stored)), report.sessionId));
    assert.ok(fs.statSync(path.join(report.output!, 'events.jsonl')).isFile());
    assert.equal(hashes.afterCompact, hashes.stored);
    assert.equal(hashes.afterCompactedResume, hashes.stored, 'resuming the compacted session changed the original log');
    assert.equal(sha256(FIXTURE), hashes.fixture);
  });

  it('is resumed by the real CLI, whose first request carries the latest prompt verbatim before the new one', () => {
    const latest = (jsonl(FIXTURE) as Obj[]).filter((e) => e.type === 'user.message').at(-1)!.data.content as string;
    const newest = (jsonl(stored) as Obj[]).filter((e) => e.type === 'tool.execution_complete' && e.data.success).at(-1)!.data.result.content as string;
    assertResumedHistory(runs.compacted, latest, newest);
    assert.ok(JSON.stringify(jsonl(path.join(report.output!, 'events.jsonl'))).includes(NEW_PROMPT), 'the resumed turn was not recorded in the compacted session');
  });

  it('sends no more than the original session does on resume', () => assertNoLarger('copilot', runs.original, runs.compacted));
});
