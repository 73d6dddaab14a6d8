// Resume proof with the real Qwen Code CLI (pinned, offline against a loopback Chat Completions API): the session we
// write is found and loaded by `qwen --resume <id>`, whose first request carries the history — the latest prompt
// verbatim, every tool call answered — before the new prompt; the original file is left as it was.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CompactReport } from '../../src/core/compact/report';
import { qwenProjectSlug } from '../../src/core/formats/qwen-code/agent';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import { assertNoLarger, assertResumedHistory, isChatTurn } from './chatWire';
import { startFakeOpenAI } from '../support/fakeOpenAI';
import { agentBin, agentEnv, compactWithCli, freshDir, jsonl, NEW_PROMPT, resumeAndRecord, sha256, type AgentRun } from './harness';

const KEY = 'sk-loopback';
const DIR = path.resolve(__dirname, '..', 'fixtures', 'qwen-code', 'session-0.24.4');
const FIXTURE = path.join(DIR, fs.readdirSync(DIR).find((f) => f.endsWith('.jsonl'))!);

/** The typed prompts of the fixture, read from its raw records (not through our reader). */
const prompts = (): string[] => jsonl(FIXTURE).filter((r) => r.type === 'user' && r.subtype === undefined)
  .map((r) => ((r.message as { parts: { text?: string }[] }).parts.map((p) => p.text ?? '').join('')));

describe('qwen --resume (Qwen Code 0.24.4 session, real CLI)', { timeout: 240_000 }, () => {
  let fake: FakeServer;
  let report: CompactReport;
  let stored = '';
  const runs: Record<'compacted' | 'original', { run: AgentRun; turn?: RecordedRequest }> = {} as never;
  const hashes: Record<string, string> = {};

  before(async () => {
    const bin = agentBin('qwen');
    fake = await startFakeOpenAI(KEY);
    const root = freshDir('qwen');
    const home = path.join(root, 'home');
    const cwd = path.join(root, 'work');
    fs.mkdirSync(cwd);
    // The fixture's project folder was a temporary one: its records are moved to this test's folder, as a whole.
    const recorded = jsonl(FIXTURE)[0]!.cwd as string;
    const chats = path.join(home, '.qwen', 'projects', qwenProjectSlug(cwd, process.platform), 'chats');
    fs.mkdirSync(chats, { recursive: true });
    stored = path.join(chats, path.basename(FIXTURE));
    fs.writeFileSync(stored, fs.readFileSync(FIXTURE, 'utf8').split(recorded).join(cwd));
    hashes.fixture = sha256(FIXTURE);
    hashes.stored = sha256(stored);
    report = await compactWithCli(stored);
    hashes.afterCompact = sha256(stored);
    const env = agentEnv(home, { OPENAI_BASE_URL: `${fake.url}/v1`, OPENAI_API_KEY: KEY, OPENAI_MODEL: 'qwen3-coder-plus', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' });
    const resume = async (id: string) => {
      const r = await resumeAndRecord(fake.requests, bin, ['--auth-type', 'openai', '--yolo', '--resume', id, '-p', NEW_PROMPT], cwd, env);
      return { run: r.run, turn: r.requests.find(isChatTurn) };
    };
    runs.compacted = await resume(report.sessionId);
    hashes.afterCompactedResume = sha256(stored);
    runs.original = await resume(jsonl(FIXTURE)[0]!.sessionId as string);
  });
  after(async () => { await fake?.close(); });

  it('writes the new session into Qwen Code\'s store and leaves the original untouched', () => {
    assert.equal(path.dirname(report.output!), path.dirname(stored));
    assert.equal(path.basename(report.output!), `${report.sessionId}.jsonl`);
    assert.equal(hashes.afterCompact, hashes.stored);
    assert.equal(hashes.afterCompactedResume, hashes.stored, 'resuming the compacted session changed the original file');
    assert.equal(sha256(FIXTURE), hashes.fixture);
  });

  it('is resumed by the real CLI, whose first request carries the latest prompt verbatim before the new one', () => {
    // The newest result (the edit's confirmation) is sent as it was recorded.
    const edit = jsonl(stored).filter((r) => r.type === 'tool_result').map((r) => JSON.stringify(r.message)).find((t) => t.includes('"name":"edit"'))!;
    const output = (JSON.parse(edit) as { parts: { functionResponse: { response: { output: string } } }[] }).parts[0]!.functionResponse.response.output;
    assertResumedHistory(runs.compacted, prompts().at(-1)!, output.slice(0, 60));
    // The CLI appended the resumed turn to our file.
    assert.ok(JSON.stringify(jsonl(report.output!)).includes(NEW_PROMPT), 'the resumed turn was not recorded in the compacted session');
  });

  it('sends no more than the original session does on resume', () => assertNoLarger('qwen', runs.original, runs.compacted));
});
