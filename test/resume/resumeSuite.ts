// The resume proof both agents go through: compact in the agent's store, resume original and copy, compare requests.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { CompactReport } from '../../src/core/compact/report';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import {
  agentBin, byteFigures, COMPACTOR_MARK, compactWithCli, FOLD_MARK, describeRun, freshDir, mentions, NEW_PROMPT,
  resumeAndRecord, runAgent, sha256, type AgentRun, type ResumePair,
} from './harness';

/** The loopback key the fakes accept; a request that does not carry it gets a 401. */
export const KEY = 'sk-loopback';

export interface ToolResultFact { readonly id: string; readonly text: string }

/** What the test expects, read from the raw fixture JSON, independently of our own parser. */
export interface Facts {
  readonly sessionId: string;
  /** The typed prompts, in order; the last one is the recent task. */
  readonly prompts: readonly string[];
  /** The newest result after the last prompt: the first the recent part keeps verbatim. */
  readonly recent: ToolResultFact;
  /** The largest result before the last prompt: old, so it must be compacted. */
  readonly old: ToolResultFact;
}

export interface Located { readonly at: number; readonly text: string }

export function pickFacts(sessionId: string, prompts: readonly Located[], results: readonly (Located & { id: string })[]): Facts {
  const lastPrompt = prompts.at(-1);
  assert.ok(lastPrompt, 'the fixture has no typed prompt');
  // Small enough for the recent part's tool budget (4,000 tokens), which the newest results use first.
  const recent = results.filter((x) => x.at > lastPrompt.at && x.text.length >= 200 && x.text.length <= 4000).at(-1);
  const old = results.filter((x) => x.at < lastPrompt.at).reduce<(typeof results)[number] | undefined>((a, b) => (!a || b.text.length > a.text.length ? b : a), undefined);
  assert.ok(recent && old, 'the fixture needs tool results before and after its last prompt');
  return { sessionId, prompts: prompts.map((p) => p.text), recent, old };
}

export interface Prepared { readonly env: NodeJS.ProcessEnv; readonly cwd: string; readonly stored: string }

/** The agent-specific half: its store, its CLI arguments and its wire format. */
export interface AgentSpec {
  readonly agent: 'claude' | 'codex' | 'gemini' | 'opencode' | 'goose' | 'droid' | 'kilo';
  readonly title: string;
  readonly fixture: string;
  /** What the history in a request is made of, for the figures line ("messages", "input items"). */
  readonly unit: string;
  readonly startFake: (key: string) => Promise<FakeServer>;
  readonly facts: (fixture: string) => Facts;
  /** Sets up the agent's home under ROOT and copies the fixture into its store; returns where it went. */
  readonly prepare: (root: string, fake: FakeServer, facts: Facts, bin: string) => Prepared | Promise<Prepared>;
  /** Where our CLI must have written the compacted session for the agent to find it. */
  readonly expectedOutput: (report: CompactReport) => string;
  readonly resumeArgs: (sessionId: string) => string[];
  /** The request that carries the resumed turn (tools and the new prompt), not a title or side request. */
  readonly isTurnRequest: (r: RecordedRequest) => boolean;
  readonly history: (r: RecordedRequest) => unknown[];
  readonly lastUserTurn: (r: RecordedRequest) => unknown;
  /** Every tool result in the request by call id, as text. */
  readonly toolResults: (r: RecordedRequest) => Map<string, string>;
  /** The ids of the tool calls in the request, in order. */
  readonly toolCalls: (r: RecordedRequest) => string[];
  /** The ids of the tool calls and of the tool results that a transcript file holds. */
  readonly fileToolIds: (file: string) => { calls: string[]; results: string[] };
  /** Asserts the wire format's call/result pairing rule; returns the number of pairs. */
  readonly assertToolPairs: (r: RecordedRequest) => number;
  /** More checks of a successful resume, run in (a). */
  readonly afterResume?: (report: CompactReport) => void;
  /**
   * Runs before the compacted session is resumed (OpenCode and Goose import the written file first); returns the id
   * the agent gave the imported session when it is not ours (Goose numbers sessions itself).
   */
  readonly beforeResume?: (report: CompactReport, run: (args: string[]) => Promise<AgentRun>) => Promise<string | void>;
  /**
   * What must stay unchanged of the original (default: the file's SHA-256). A database the agent writes other
   * sessions into is compared by the original session's own records.
   */
  readonly fingerprint?: (file: string) => string;
}

interface Outcome {
  facts: Facts;
  report: CompactReport;
  runs: { original: AgentRun; compacted: AgentRun };
  requests: { original?: RecordedRequest; compacted?: RecordedRequest };
  hashes: { fixture: string; fixtureAfter: string; storeAfterCompact: string; storeAfterCompactedResume: string };
  /** Tool ids of the compacted file as we wrote it (before the agent appended its resumed turn). */
  written: { calls: string[]; results: string[] };
}

export function resumeSuite(spec: AgentSpec): void {
  // Two CLI runs of at most 120 s each, plus setup: the file stays within 4 minutes.
  describe(spec.title, { timeout: 240_000 }, () => {
    let fake: FakeServer | undefined;
    let root = '';
    let o: Outcome;

    before(async () => {
      const bin = agentBin(spec.agent);
      fake = await spec.startFake(KEY);
      root = freshDir(spec.agent);
      const facts = spec.facts(spec.fixture);
      const hash = spec.fingerprint ?? sha256;
      const fixture = hash(spec.fixture);
      const { env, cwd, stored } = await spec.prepare(root, fake, facts, bin);
      const report = await compactWithCli(stored);
      const storeAfterCompact = hash(stored);
      const written = spec.fileToolIds(report.output!);
      const resume = (id: string) => resumeAndRecord(fake!.requests, bin, spec.resumeArgs(id), cwd, env);
      const importedAs = await spec.beforeResume?.(report, (args) => runAgent(bin, args, cwd, env));
      // The compacted session first: resuming the original appends to its file, which (f) checks is untouched until then.
      const compacted = await resume(importedAs || report.sessionId);
      const storeAfterCompactedResume = hash(stored);
      const original = await resume(facts.sessionId);
      o = {
        facts, report, written,
        runs: { original: original.run, compacted: compacted.run },
        requests: { original: original.requests.find(spec.isTurnRequest), compacted: compacted.requests.find(spec.isTurnRequest) },
        hashes: { fixture, fixtureAfter: hash(spec.fixture), storeAfterCompact, storeAfterCompactedResume },
      };
    });

    after(async () => {
      await fake?.close();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    const both = (): ResumePair => {
      assert.ok(o.requests.original, `the original session sent no turn request (${describeRun(o.runs.original)})`);
      assert.ok(o.requests.compacted, `the compacted session sent no turn request (${describeRun(o.runs.compacted)})`);
      return { original: o.requests.original, compacted: o.requests.compacted };
    };

    it('(a) resumes the compacted session: exit 0, and its request carries the new prompt after the old history', () => {
      assert.equal(o.report.output, spec.expectedOutput(o.report), 'the compacted session is not where the agent looks');
      assert.equal(o.runs.compacted.code, 0, describeRun(o.runs.compacted));
      assert.equal(o.runs.original.code, 0, describeRun(o.runs.original));
      const { compacted } = both();
      assert.ok(mentions(spec.lastUserTurn(compacted), NEW_PROMPT), 'the new prompt is not the last user turn');
      // A fresh session would also send the prompt; a resumed one sends the earlier conversation before it.
      const n = spec.history(compacted).length;
      assert.ok(n > 10, `only ${n} ${spec.unit}: the history was not resumed`);
      spec.afterResume?.(o.report);
    });

    it('(b) sends the recent prompts and the protected recent tool results verbatim', () => {
      const { compacted } = both();
      for (const prompt of o.facts.prompts) assert.ok(mentions(compacted.body, prompt), `prompt missing: ${prompt.slice(0, 80)}`);
      assert.equal(spec.toolResults(compacted).get(o.facts.recent.id), o.facts.recent.text, `recent tool result ${o.facts.recent.id} is not verbatim`);
    });

    it('(c) sends old tool results compacted', () => {
      const { original, compacted } = both();
      assert.ok(mentions(compacted.body, COMPACTOR_MARK), `no ${COMPACTOR_MARK} marker in the compacted request`);
      assert.ok(!mentions(original.body, COMPACTOR_MARK));
      // The old result really is sent when the original resumes, so its absence below means something.
      assert.equal(spec.toolResults(original).get(o.facts.old.id), o.facts.old.text);
      assert.ok(o.facts.old.text.length > 10_000, 'the fixture should have a large old result');
      assert.ok(!mentions(compacted.body, o.facts.old.text), `old result ${o.facts.old.id} (${o.facts.old.text.length} chars) is still sent whole`);
      // Kept as a (shortened) pair, or folded together into one line of the agent's message: never one without the other.
      assert.equal(spec.toolCalls(compacted).includes(o.facts.old.id), spec.toolResults(compacted).has(o.facts.old.id), 'the old call and its result go together');
      assert.ok(spec.toolResults(compacted).has(o.facts.old.id) || mentions(compacted.body, FOLD_MARK), 'the old pair is a record or a folded line');
    });

    it('(d) the compacted resume request is at most half the bytes of the original one', (t) => {
      const pair = both();
      const { line, ratio } = byteFigures(pair);
      t.diagnostic(`${spec.agent}: ${line}; ${spec.unit} ${spec.history(pair.original).length} → ${spec.history(pair.compacted).length}`);
      assert.ok(ratio <= 0.5, line);
    });

    it('(e) every tool call in the request has its result', (t) => {
      const { original, compacted } = both();
      const pairs = spec.assertToolPairs(compacted);
      assert.ok(pairs > 0, 'the resumed history should contain tool calls');
      // Both agents repair a broken history before sending it (Claude Code drops a tool_use whose result
      // is missing, Codex answers it with "aborted"), so pairing in the request alone would hide a writer
      // that lost a result. The agent must send exactly the calls and results we wrote...
      const sorted = (ids: Iterable<string>): string[] => [...ids].sort();
      assert.deepEqual(sorted(spec.toolCalls(compacted)), sorted(o.written.calls), 'the agent dropped or added tool calls of our file');
      assert.deepEqual(sorted(spec.toolResults(compacted).keys()), sorted(o.written.results), 'the agent dropped or added tool results of our file');
      // ...and each result must be the original one or our marked shortening of it.
      const before = spec.toolResults(original);
      for (const [id, text] of spec.toolResults(compacted)) {
        assert.ok(text === before.get(id) || text.includes(COMPACTOR_MARK), `result ${id} is neither the original nor compacted by us: ${text.slice(0, 120)}`);
      }
      t.diagnostic(`${spec.agent}: ${pairs} call/result pairs (original request: ${spec.assertToolPairs(original)})`);
    });

    it('(f) leaves the original transcript untouched', () => {
      assert.equal(o.hashes.fixtureAfter, o.hashes.fixture, 'the fixture changed');
      assert.equal(o.hashes.storeAfterCompact, o.hashes.fixture, 'compaction changed the original');
      assert.equal(o.hashes.storeAfterCompactedResume, o.hashes.fixture, 'resuming the compacted session changed the original');
    });
  });
}
