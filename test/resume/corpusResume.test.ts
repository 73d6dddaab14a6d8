// Every real transcript of the corpus, compacted by our CLI, is resumed by the real agent CLI (claude 2.1.328,
// codex 0.169) against a loopback API: it sends the new prompt, every tool call paired as its API demands, and the
// history bytes it sends are measured against resuming the original (when the current CLI still resumes that).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isTurnRequest, prepareAgentHome, resumeArgs as agentResumeArgs } from '../../src/node/resume/agentHome';
import type { ResumableAgent } from '../../src/node/resume/agentRun';
import * as os from 'node:os';
import { realTranscripts, type CorpusFile } from '../support/corpus';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../support/fixtures';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import { startFakeCodexResponses } from '../support/fakeCodexResponses';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import type { CompactReport } from '../../src/core/compact/report';
import { agentBin, compactWithCli, describeRun, freshDir, resumeAndRecord } from './harness';
import { KEY } from './resumeSuite';
import { assertClaudePairs, assertCodexPairs, inputOf, messagesOf } from './wire';

interface Outcome {
  readonly label: string;
  /** History bytes each resume sent: the original, cleanup only, and with a summary. */
  readonly historyBytes: { original?: number; compacted: number; summarized: number };
  readonly pairs: number;
  readonly warnings: string[];
}

/** The one summary call of the summarized variant goes to its own loopback Messages API. */
const SNAPSHOT = '## Goal\n- continue\n## Decisions\n## Constraints\n## Evidence\n## Open errors\n## Completed work\n## Next actions\n- continue';

/**
 * Hand-made (no real file has one): the shipped sample with one tool result removed mid-session, so the input
 * holds an orphan call. We write it as it is; the agent repairs it on resume as it does its own files.
 */
function orphanVariant(agent: CorpusFile['agent']): CorpusFile {
  const src = agent === 'claude-code' ? CLAUDE_SAMPLE : CODEX_SAMPLE;
  const lines = fs.readFileSync(src, 'utf8').split('\n');
  const results = lines.flatMap((l, i) => (agent === 'claude-code' ? l.includes('"type":"tool_result"') : l.includes('"type":"function_call_output"')) ? [i] : []);
  const drop = results[Math.floor(results.length / 3)]!;
  if (agent === 'claude-code') {
    // Keep the parentUuid chain whole: the dropped record's child hangs off the dropped record's parent.
    const gone = JSON.parse(lines[drop]!) as { uuid: string; parentUuid: string | null };
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.includes(`"parentUuid":"${gone.uuid}"`)) continue;
      const o = JSON.parse(lines[i]!) as Record<string, unknown>;
      o.parentUuid = gone.parentUuid;
      lines[i] = JSON.stringify(o);
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-orphan-'));
  const file = path.join(dir, path.basename(src));
  fs.writeFileSync(file, lines.filter((_, i) => i !== drop).join('\n'));
  return { file, agent, label: `hand-made/${agent}/sample-with-an-orphan-call` };
}

const isTurn = (agent: CorpusFile['agent']) => (r: RecordedRequest): boolean => isTurnRequest(agent as ResumableAgent, r);
/** The history part of a request (what compaction acts on), as bytes of JSON. */
const historyBytes = (agent: CorpusFile['agent'], r: RecordedRequest): number => Buffer.byteLength(JSON.stringify(agent === 'claude-code' ? messagesOf(r) : inputOf(r)));

/** Puts FILE where its agent looks, in a fresh home pointed at FAKE (the product's resume-check setup). */
async function prepare(c: CorpusFile, root: string, fake: FakeServer): Promise<{ env: NodeJS.ProcessEnv; cwd: string; stored: string; id: string }> {
  const home = await prepareAgentHome(c.agent as ResumableAgent, c.file, root, fake.url, KEY);
  return { ...home, id: home.sessionId };
}

const resumeArgs = (agent: CorpusFile['agent'], id: string): string[] => agentResumeArgs(agent as ResumableAgent, id);

async function resumeOne(c: CorpusFile, fake: FakeServer, summarizer: FakeServer): Promise<Outcome> {
  const root = freshDir(c.agent);
  try {
    const { env, cwd, stored, id } = await prepare(c, root, fake);
    const bin = agentBin(c.agent === 'claude-code' ? 'claude' : 'codex');
    // Cleanup only, and with a summary: each written beside the original, each resumed by the agent.
    const resumed = async (summary: boolean): Promise<{ report: CompactReport; turn: RecordedRequest; pairs: number }> => {
      const report = await compactWithCli(stored, summary ? { baseUrl: summarizer.url, key: KEY } : undefined);
      // One call at most: none when nothing is older than the recent part.
      if (summary) assert.ok(report.modelCalls <= 1 && report.fallback === null, `${c.label}: one summary call at most, no fallback (${report.modelCalls}, ${report.fallback})`);
      const run = await resumeAndRecord(fake.requests, bin, resumeArgs(c.agent, report.sessionId), cwd, env);
      const turn = run.requests.find(isTurn(c.agent));
      assert.ok(turn, `${c.label}${summary ? ' (summarized)' : ''}: the compacted session sent no turn request (${describeRun(run.run)})`);
      return { report, turn, pairs: c.agent === 'claude-code' ? assertClaudePairs(messagesOf(turn)) : assertCodexPairs(inputOf(turn)) };
    };
    const { report, turn, pairs } = await resumed(false);
    const summarized = await resumed(true);
    // The original, for the byte ratio: an agent of today may no longer resume a file of an old version.
    const original = await resumeAndRecord(fake.requests, bin, resumeArgs(c.agent, id), cwd, env);
    const first = original.requests.find(isTurn(c.agent));
    return {
      label: c.label, pairs, warnings: report.warnings,
      historyBytes: { compacted: historyBytes(c.agent, turn), summarized: historyBytes(c.agent, summarized.turn), original: first ? historyBytes(c.agent, first) : undefined },
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

for (const agent of ['claude-code', 'codex'] as const) {
  describe(`the real ${agent} CLI resumes every compacted real transcript`, { timeout: 1_800_000 }, () => {
    let fake: FakeServer;
    let summarizer: FakeServer;
    const outcomes: Outcome[] = [];
    before(async () => {
      fake = agent === 'claude-code' ? await startFakeAnthropic(KEY) : await startFakeCodexResponses(KEY);
      summarizer = await startFakeAnthropic(KEY);
      summarizer.fallback = { kind: 'ok', text: SNAPSHOT };
    });
    after(async () => {
      await fake.close();
      await summarizer.close();
      const ratios = outcomes.flatMap((o) => (o.historyBytes.original ? [o.historyBytes.compacted / o.historyBytes.original] : [])).sort((a, b) => a - b);
      const withSummary = outcomes.flatMap((o) => (o.historyBytes.original ? [o.historyBytes.summarized / o.historyBytes.original] : [])).sort((a, b) => a - b);
      const out = path.resolve(__dirname, '..', '..', 'test-results');
      fs.mkdirSync(out, { recursive: true });
      fs.writeFileSync(path.join(out, `resume-corpus-${agent}.json`), JSON.stringify({ median: ratios[Math.floor((ratios.length - 1) / 2)], medianWithSummary: withSummary[Math.floor((withSummary.length - 1) / 2)], outcomes }, null, 1));
    });
    it(`hand-made/${agent}: an orphan call in the input is reported, written as it is, and the agent repairs it on resume`, async () => {
      const variant = orphanVariant(agent);
      const o = await resumeOne(variant, fake, summarizer).finally(() => fs.rmSync(path.dirname(variant.file), { recursive: true, force: true }));
      assert.ok(o.warnings.some((w) => /no result/.test(w)), `the orphan is reported: ${o.warnings.join(' | ')}`);
    });
    for (const c of realTranscripts().filter((x) => x.agent === agent)) {
      it(c.label, async (t) => {
        const o = await resumeOne(c, fake, summarizer);
        outcomes.push(o);
        const b = o.historyBytes;
        const r = (x: number): string => (b.original ? `${((x / b.original) * 100).toFixed(1)} %` : 'original not resumable by this CLI');
        t.diagnostic(`${c.label}: history bytes sent ${b.original ?? '—'} → cleanup ${b.compacted} (${r(b.compacted)}), summary ${b.summarized} (${r(b.summarized)}); ${o.pairs} tool pairs`);
      });
    }
  });
}
