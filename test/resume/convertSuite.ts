// The resume proof of `compact --to`: a real session of one agent is converted by our CLI into another agent's store,
// and the REAL target CLI resumes it offline against a loopback model; its turn request must carry the session's
// latest request verbatim, the state snapshot, and the recent tool calls as the target's own tools, each answered.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/cli/main';
import type { CompactReport } from '../../src/core/compact/report';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import { startFakeCodexResponses } from '../support/fakeCodexResponses';
import { isGeminiTurn, startFakeGemini } from '../support/fakeGemini';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import { GEMINI_MODEL, geminiProject } from '../support/geminiRun';
import { agentBin, agentEnv, COMPACTOR_MARK, describeRun, freshDir, jsonl, mentions, NEW_PROMPT, resumeAndRecord, runAgent, sha256, codexLoopbackHome, gooseLoopbackHome, opencodeLoopbackHome, type AgentRun } from './harness';
import { assertGeminiPairs, chatMessages, contentsOf } from './geminiWire';
import { KEY } from './resumeSuite';
import { assertCodexPairs, inputOf, isUserMessage, messagesApi, type CodexItem, type ResponsesBody } from './wire';

export type Target = 'claude' | 'codex' | 'gemini' | 'opencode' | 'goose';

/** The latest typed request of a source fixture, read from its raw records (not through our reader). */
export function latestRequest(file: string): string {
  if (file.includes(`${path.sep}gemini-cli${path.sep}`)) {
    const texts = chatMessages(file).filter((m) => m.type === 'user' && Array.isArray(m.content))
      .map((m) => (m.content as { text?: string }[]).map((p) => p.text ?? '').join('')).filter((t) => t && !t.startsWith('<session_context>'));
    return texts.at(-1)!;
  }
  const records = jsonl(file);
  if (records[0]?.type === 'session_meta') {
    const texts = records.filter((r) => r.type === 'response_item' && isUserMessage(r.payload as CodexItem))
      .map((r) => ((r.payload as CodexItem).content ?? []).map((c) => c.text ?? '').join('')).filter((t) => !t.startsWith('<'));
    return texts.at(-1)!;
  }
  const texts = records.filter((r) => r.type === 'user' && !r.isMeta && typeof (r.message as { content: unknown }).content === 'string')
    .map((r) => (r.message as { content: string }).content).filter((t) => !t.startsWith('<'));
  return texts.at(-1)!;
}

interface TargetSide {
  readonly start: (key: string) => Promise<FakeServer>;
  /** The target's home and the folder it runs in; returns the environment. */
  readonly prepare: (root: string, fake: FakeServer) => { env: NodeJS.ProcessEnv; cwd: string };
  readonly resumeArgs: (id: string) => string[];
  readonly isTurn: (r: RecordedRequest) => boolean;
  readonly lastUser: (r: RecordedRequest) => unknown;
  /** The tool names the request's history calls, in order. */
  readonly calledTools: (r: RecordedRequest) => string[];
  readonly assertPairs: (r: RecordedRequest) => number;
  /** The agent's own tool names our conversion maps to. */
  readonly tools: readonly string[];
  /** An agent that imports a file first (OpenCode, Goose): runs the import, returns the id to resume. */
  readonly importFirst?: (report: CompactReport, run: (args: string[]) => Promise<AgentRun>) => Promise<string>;
}

/** OpenCode and Goose speak the Messages API to the fake, as Claude Code does. */
const messagesSide = {
  start: startFakeAnthropic,
  isTurn: messagesApi.isTurnRequest,
  lastUser: messagesApi.lastUserTurn,
  calledTools: (r: RecordedRequest): string[] => messagesApi.history(r).flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).filter((b) => b.type === 'tool_use').map((b) => (b as { name?: string }).name ?? ''),
  assertPairs: messagesApi.assertToolPairs,
};

const codexInput = (r: RecordedRequest): CodexItem[] => inputOf(r);

export const TARGETS: Record<Target, TargetSide> = {
  claude: {
    ...messagesSide,
    prepare: (root, fake) => {
      const cwd = path.join(root, 'work');
      fs.mkdirSync(cwd);
      return { cwd, env: agentEnv(path.join(root, 'home'), { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' }) };
    },
    resumeArgs: (id) => ['-p', '--resume', id, '--', NEW_PROMPT],
    tools: ['Bash', 'Read', 'Write', 'Edit', 'Grep', 'Glob'],
  },
  codex: {
    start: startFakeCodexResponses,
    prepare: (root, fake) => codexLoopbackHome(root, fake.url, KEY),
    resumeArgs: (id) => ['exec', '--skip-git-repo-check', 'resume', id, '--', NEW_PROMPT],
    isTurn: (r) => {
      const b = r.body as Partial<ResponsesBody> | undefined;
      return r.path === '/v1/responses' && (b?.tools?.length ?? 0) > 0 && (b?.input ?? []).some((i) => isUserMessage(i) && mentions(i, NEW_PROMPT));
    },
    lastUser: (r) => codexInput(r).filter(isUserMessage).at(-1),
    calledTools: (r) => codexInput(r).filter((i) => i.type === 'function_call' || i.type === 'custom_tool_call').map((i) => (i as { name?: string }).name ?? ''),
    assertPairs: (r) => assertCodexPairs(codexInput(r)),
    tools: ['exec_command', 'apply_patch'],
  },
  gemini: {
    start: (key) => startFakeGemini(key),
    prepare: (root, fake) => {
      const { project, env } = geminiProject(root, fake.url, KEY);
      return { cwd: project, env };
    },
    resumeArgs: (id) => ['-m', GEMINI_MODEL, '--yolo', '--resume', id, '-p', NEW_PROMPT],
    isTurn: (r) => isGeminiTurn(r) && JSON.stringify(contentsOf(r).at(-1) ?? {}).includes(NEW_PROMPT),
    lastUser: (r) => contentsOf(r).filter((c) => c.role === 'user').at(-1),
    calledTools: (r) => contentsOf(r).flatMap((c) => c.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall.name ?? ''] : [])),
    assertPairs: (r) => assertGeminiPairs(contentsOf(r)),
    tools: ['run_shell_command', 'read_file', 'write_file', 'replace', 'list_directory', 'grep_search', 'glob'],
  },
  opencode: {
    ...messagesSide,
    prepare: (root, fake) => opencodeLoopbackHome(root, fake.url, KEY),
    importFirst: async (report, run) => {
      assert.match(report.resumeCommand, /^opencode import .+ && opencode --session ses_/);
      const imported = await run(['import', report.output!]);
      assert.equal(imported.code, 0, describeRun(imported));
      return report.sessionId;
    },
    resumeArgs: (id) => ['run', '--session', id, '--', NEW_PROMPT],
    tools: ['bash', 'read', 'write', 'edit', 'list', 'grep', 'glob'],
  },
  goose: {
    ...messagesSide,
    prepare: (root, fake) => gooseLoopbackHome(root, fake.url, KEY),
    importFirst: async (report, run) => {
      assert.match(report.resumeCommand, /^goose session import .+ && goose session --resume$/);
      const imported = await run(['session', 'import', report.output!]);
      assert.equal(imported.code, 0, describeRun(imported));
      const id = /^Session imported:\s*\n(\S+) - /m.exec(imported.stdout)?.[1];
      assert.ok(id, `import named no new session: ${imported.stdout}`);
      return id;
    },
    resumeArgs: (id) => ['run', '--with-builtin', 'developer', '--resume', '--session-id', id, '-t', NEW_PROMPT],
    tools: ['shell', 'write', 'edit', 'tree'],
  },
};

/** `context-compactor compact FILE --to TARGET --cwd CWD --json` through the real CLI entry point. */
export async function convertWithCli(file: string, to: Target, cwd: string, env: NodeJS.ProcessEnv): Promise<CompactReport> {
  let out = '', err = '';
  const code = await main(['compact', file, '--no-summary', '--to', to, '--cwd', cwd, '--json'], { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, env });
  if (code !== 0) throw new Error(`compact --to ${to} exited ${code}: ${err}`);
  return JSON.parse(out) as CompactReport;
}

export function convertSuite(source: string, to: Target, label: string): void {
  describe(`${label} → ${to}: the real ${to} CLI resumes the converted session (loopback model)`, { timeout: 240_000 }, () => {
    const side = TARGETS[to];
    let fake: FakeServer | undefined;
    let root = '';
    let report: CompactReport;
    let run: AgentRun;
    let turn: RecordedRequest | undefined;
    let hashes: { before: string; after: string };

    before(async () => {
      const bin = agentBin(to);
      fake = await side.start(KEY);
      root = freshDir(`to-${to}`);
      const { env, cwd } = side.prepare(root, fake);
      const before = sha256(source);
      report = await convertWithCli(source, to, cwd, env);
      const id = side.importFirst ? await side.importFirst(report, (args) => runAgent(bin, args, cwd, env)) : report.sessionId;
      const resumed = await resumeAndRecord(fake.requests, bin, side.resumeArgs(id), cwd, env);
      run = resumed.run;
      turn = resumed.requests.find(side.isTurn);
      hashes = { before, after: sha256(source) };
    });

    after(async () => {
      await fake?.close();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    it('(a) is written into the target\'s store with its resume command, and the CLI resumes it (exit 0, the new prompt last)', () => {
      assert.ok(report.from && report.from !== report.format, 'the report does not say it was converted');
      assert.ok(report.resumeCommand.includes(report.sessionId), `no resume command in the report: ${JSON.stringify(report.resumeCommand)}`);
      assert.equal(run.code, 0, describeRun(run));
      assert.ok(turn, `the resumed session sent no turn request (${describeRun(run)})`);
      assert.ok(mentions(side.lastUser(turn), NEW_PROMPT), 'the new prompt is not the last user turn');
    });

    it('(b) its first turn request carries the latest request verbatim and the state snapshot', () => {
      assert.ok(turn);
      const latest = latestRequest(source);
      assert.ok(latest.length > 20);
      assert.ok(mentions(turn.body, latest), `the latest request is not in the request: ${latest.slice(0, 100)}`);
      assert.ok(mentions(turn.body, 'state snapshot of the earlier part of this session'), 'the state snapshot is not in the request');
      assert.ok(mentions(turn.body, COMPACTOR_MARK));
    });

    it('(c) the recent tool calls are the target\'s own tools, each answered by its result', (t) => {
      assert.ok(turn);
      const names = side.calledTools(turn);
      assert.ok(names.length > 0, 'no tool call was carried over');
      for (const n of names) assert.ok(side.tools.includes(n), `tool ${n} is not one of ${to}'s`);
      const pairs = side.assertPairs(turn);
      t.diagnostic(`${label} → ${to}: ${pairs} call/result pairs (${[...new Set(names)].join(', ')}); not carried: ${(report.notCarried ?? []).join('; ') || 'nothing'}`);
    });

    it('(d) leaves the source session untouched', () => {
      assert.equal(hashes.after, hashes.before);
    });
  });
}

/**
 * `compact --to TO` of `file` (made by `prepareSource` in the run's folder), resumed by the real TO CLI against its
 * loopback model; `check` gets the turn request it sent.
 */
export function summaryResumeSuite(label: string, to: Target, prepareSource: (root: string) => string, check: (turn: RecordedRequest) => void): void {
  describe(`${label} → ${to}: the real ${to} CLI resumes the agent's summary in its own form`, { timeout: 240_000 }, () => {
    const side = TARGETS[to];
    let fake: FakeServer | undefined;
    let root = '';
    let run: AgentRun;
    let turn: RecordedRequest | undefined;
    before(async () => {
      const bin = agentBin(to);
      fake = await side.start(KEY);
      root = freshDir(`summary-to-${to}`);
      const { env, cwd } = side.prepare(root, fake);
      const report = await convertWithCli(prepareSource(root), to, cwd, env);
      const id = side.importFirst ? await side.importFirst(report, (args) => runAgent(bin, args, cwd, env)) : report.sessionId;
      const resumed = await resumeAndRecord(fake.requests, bin, side.resumeArgs(id), cwd, env);
      run = resumed.run;
      turn = resumed.requests.find(side.isTurn);
    });
    after(async () => {
      await fake?.close();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });
    it('sends the summary where the agent itself would, and the prompts around it', () => {
      assert.equal(run.code, 0, describeRun(run));
      assert.ok(turn, `no turn request (${describeRun(run)})`);
      check(turn);
    });
  });
}
