// The real Claude Code CLI, offline against a loopback Messages API, resumes our compacted transcript.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { storePath } from '../../src/node/agentStores';
import type { CompactReport } from '../../src/core/compact/report';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import { CLAUDE_SAMPLE } from '../support/fixtures';
import {
  agentBin, agentEnv, byteFigures, COMPACTOR_MARK, compactWithCli, describeRun, freshDir, jsonl, mentions,
  NEW_PROMPT, resumeAndRecord, sha256, type AgentRun,
} from './harness';

const KEY = 'sk-loopback';

interface Block { type: string; id?: string; tool_use_id?: string; text?: string; content?: unknown }
interface Message { role: string; content: string | Block[] }
interface MessagesBody { messages: Message[]; tools?: unknown[] }

const blocksOf = (m: Message): Block[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);
/** A tool_result's text: the API allows a string or a list of text blocks. */
const resultText = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? (content as Block[]).map((b) => b.text ?? '').join('') : '';

/** What the test expects, read from the raw fixture JSON, independently of our own parser. */
function fixtureFacts(file: string): { sessionId: string; prompts: string[]; recent: { id: string; text: string }; old: { id: string; text: string } } {
  const records = jsonl(file);
  const sessionId = records.find((r) => typeof r.sessionId === 'string')?.sessionId as string;
  const prompts: { at: number; text: string }[] = [];
  const results: { at: number; id: string; text: string }[] = [];
  records.forEach((r, at) => {
    if (r.type !== 'user' || r.isMeta) return;
    const content = (r.message as Message).content;
    // A typed prompt: plain text that is not a harness tag such as <command-name> or <local-command-stdout>.
    if (typeof content === 'string') { if (!content.startsWith('<')) prompts.push({ at, text: content }); return; }
    for (const b of content) if (b.type === 'tool_result') results.push({ at, id: b.tool_use_id!, text: resultText(b.content) });
  });
  const lastPrompt = prompts.at(-1)!;
  // The last sizeable result sits in the protected recent turns; the largest result of an earlier task is old.
  const recent = results.filter((x) => x.at > lastPrompt.at && x.text.length >= 500).at(-1)!;
  const old = results.filter((x) => x.at < lastPrompt.at).reduce((a, b) => (b.text.length > a.text.length ? b : a));
  return { sessionId, prompts: prompts.map((p) => p.text), recent, old };
}

/** The main turn request of a run: it carries tools and the new prompt (side requests such as titles do not). */
function mainRequest(requests: RecordedRequest[]): RecordedRequest | undefined {
  return requests.find((r) => {
    const b = r.body as Partial<MessagesBody> | undefined;
    return r.path === '/v1/messages' && (b?.tools?.length ?? 0) > 0 && (b?.messages ?? []).some((m) => m.role === 'user' && mentions(m, NEW_PROMPT));
  });
}

const messagesOf = (r: RecordedRequest): Message[] => (r.body as MessagesBody).messages;

function toolResultOf(r: RecordedRequest, id: string): string | undefined {
  for (const m of messagesOf(r)) for (const b of blocksOf(m)) if (b.type === 'tool_result' && b.tool_use_id === id) return resultText(b.content);
  return undefined;
}

/**
 * The Messages API rule a resumed history must obey, or the real API answers 400: every tool_use is
 * answered by a tool_result in the very next (user) message, and every tool_result answers a tool_use of
 * the message right before it. Returns the number of pairs.
 */
function assertToolPairs(messages: Message[]): number {
  let pairs = 0;
  const seen = new Set<string>();
  messages.forEach((m, i) => {
    const uses = blocksOf(m).filter((b) => b.type === 'tool_use').map((b) => b.id!);
    const answers = blocksOf(m).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id!);
    for (const id of uses) {
      assert.ok(!seen.has(id), `tool_use ${id} appears twice`);
      seen.add(id);
      const next = messages[i + 1];
      assert.ok(next && next.role === 'user' && blocksOf(next).some((b) => b.type === 'tool_result' && b.tool_use_id === id), `tool_use ${id} (message ${i}) has no tool_result in the next message`);
      pairs += 1;
    }
    const prev = messages[i - 1];
    for (const id of answers) {
      assert.ok(prev && blocksOf(prev).some((b) => b.type === 'tool_use' && b.id === id), `tool_result ${id} (message ${i}) answers no tool_use of the message before`);
    }
  });
  return pairs;
}

interface Outcome {
  facts: ReturnType<typeof fixtureFacts>;
  report: CompactReport;
  runs: { original: AgentRun; compacted: AgentRun };
  requests: { original?: RecordedRequest; compacted?: RecordedRequest };
  hashes: { fixture: string; fixtureAfter: string; storeAfterCompact: string; storeAfterCompactedResume: string };
}

describe('Claude Code resumes a compacted transcript (real CLI, loopback API)', { timeout: 240_000 }, () => {
  let fake: FakeServer | undefined;
  let root = '';
  let o: Outcome;

  before(async () => {
    const bin = agentBin('claude');
    fake = await startFakeAnthropic(KEY);
    root = freshDir('claude');
    const cwd = path.join(root, 'work');
    fs.mkdirSync(cwd);
    const env = agentEnv(path.join(root, 'home'), {
      ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
    });
    const facts = fixtureFacts(CLAUDE_SAMPLE);
    const fixture = sha256(CLAUDE_SAMPLE);
    // The original goes where Claude Code keeps this cwd's sessions; our CLI writes the new one beside it.
    const stored = storePath('claude-code', facts.sessionId, cwd, new Date(), env);
    fs.mkdirSync(path.dirname(stored), { recursive: true });
    fs.copyFileSync(CLAUDE_SAMPLE, stored);
    const report = await compactWithCli(stored);
    const storeAfterCompact = sha256(stored);
    const resume = (id: string) => resumeAndRecord(fake!.requests, bin, ['-p', '--resume', id, '--', NEW_PROMPT], cwd, env);
    // The compacted session first: resuming the original appends to its file, which (f) checks is untouched until then.
    const compacted = await resume(report.sessionId);
    const storeAfterCompactedResume = sha256(stored);
    const original = await resume(facts.sessionId);
    o = {
      facts, report,
      runs: { original: original.run, compacted: compacted.run },
      requests: { original: mainRequest(original.requests), compacted: mainRequest(compacted.requests) },
      hashes: { fixture, fixtureAfter: sha256(CLAUDE_SAMPLE), storeAfterCompact, storeAfterCompactedResume },
    };
  });

  after(async () => {
    await fake?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const both = (): { original: RecordedRequest; compacted: RecordedRequest } => {
    assert.ok(o.requests.original, `the original session sent no main request (${describeRun(o.runs.original)})`);
    assert.ok(o.requests.compacted, `the compacted session sent no main request (${describeRun(o.runs.compacted)})`);
    return { original: o.requests.original, compacted: o.requests.compacted };
  };

  it('(a) resumes the compacted session: exit 0, and its request carries the new prompt after the old history', () => {
    assert.equal(o.report.output, path.join(path.dirname(o.report.input), `${o.report.sessionId}.jsonl`));
    assert.equal(o.runs.compacted.code, 0, describeRun(o.runs.compacted));
    assert.equal(o.runs.original.code, 0, describeRun(o.runs.original));
    const { compacted } = both();
    const messages = messagesOf(compacted);
    // The last user turn; Claude Code may add a trailing "Environment update" note since the cwd is not the recorded one.
    assert.ok(mentions(messages.filter((m) => m.role === 'user').at(-1), NEW_PROMPT), 'the new prompt is the last user message');
    // A fresh session would also send the prompt; the resumed one sends the earlier conversation before it.
    assert.ok(messages.length > 10, `only ${messages.length} messages: the history was not resumed`);
  });

  it('(b) sends the recent prompts and the protected recent tool results verbatim', () => {
    const { compacted } = both();
    for (const prompt of o.facts.prompts) assert.ok(mentions(compacted.body, prompt), `prompt missing: ${prompt.slice(0, 80)}`);
    assert.equal(toolResultOf(compacted, o.facts.recent.id), o.facts.recent.text, `recent tool result ${o.facts.recent.id} is not verbatim`);
  });

  it('(c) sends old tool results compacted', () => {
    const { original, compacted } = both();
    assert.ok(mentions(compacted.body, COMPACTOR_MARK), 'no [context-compactor: marker in the compacted request');
    assert.ok(!mentions(original.body, COMPACTOR_MARK));
    // The old result is really there when the original resumes, so its absence below means something.
    assert.equal(toolResultOf(original, o.facts.old.id), o.facts.old.text);
    assert.ok(o.facts.old.text.length > 10_000, 'the fixture should have a large old result');
    assert.ok(!mentions(compacted.body, o.facts.old.text), `old result ${o.facts.old.id} (${o.facts.old.text.length} chars) is still sent whole`);
    assert.ok(toolResultOf(compacted, o.facts.old.id) !== undefined, 'the old call and its (shortened) result are kept');
  });

  it('(d) the compacted resume request is at most half the bytes of the original one', (t) => {
    const pair = both();
    const { line, ratio } = byteFigures(pair);
    t.diagnostic(`claude: ${line}; messages ${messagesOf(pair.original).length} → ${messagesOf(pair.compacted).length}`);
    assert.ok(ratio <= 0.5, line);
  });

  it('(e) every tool_use in the request has its tool_result', (t) => {
    const { original, compacted } = both();
    const pairs = assertToolPairs(messagesOf(compacted));
    assert.ok(pairs > 0, 'the resumed history should contain tool calls');
    t.diagnostic(`claude: ${pairs} tool_use/tool_result pairs (original request: ${assertToolPairs(messagesOf(original))})`);
  });

  it('(f) leaves the original transcript untouched', () => {
    assert.equal(o.hashes.fixtureAfter, o.hashes.fixture, 'the fixture changed');
    assert.equal(o.hashes.storeAfterCompact, o.hashes.fixture, 'compaction changed the original');
    assert.equal(o.hashes.storeAfterCompactedResume, o.hashes.fixture, 'resuming the compacted session changed the original');
  });
});
