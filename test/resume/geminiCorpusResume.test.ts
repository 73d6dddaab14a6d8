// Every real Gemini CLI chat of the corpus (legacy JSON and JSONL), compacted by our CLI with and without a summary,
// is resumed by the real Gemini CLI 0.61.0 against the loopback Gemini API: it sends the old history with the new
// prompt last and every functionCall answered; the bytes it sends are measured against resuming the original.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { realTranscripts } from '../support/corpus';
import { startFakeAnthropic } from '../support/fakeAnthropic';
import { isGeminiTurn, startFakeGemini } from '../support/fakeGemini';
import type { FakeServer } from '../support/fakeHttp';
import { GEMINI_MODEL, geminiProject } from '../support/geminiRun';
import { agentBin, compactWithCli, describeRun, freshDir, mentions, NEW_PROMPT, resumeAndRecord } from './harness';
import { assertGeminiPairs, contentsOf } from './geminiWire';
import { KEY } from './resumeSuite';

const SNAPSHOT = '## Goal\n- continue\n## Decisions\n## Constraints\n## Evidence\n## Open errors\n## Completed work\n## Next actions\n- continue';

describe('the real Gemini CLI resumes every compacted real Gemini CLI chat', { timeout: 900_000 }, () => {
  let fake: FakeServer;
  let summarizer: FakeServer;
  before(async () => {
    fake = await startFakeGemini(KEY);
    summarizer = await startFakeAnthropic(KEY);
    summarizer.fallback = { kind: 'ok', text: SNAPSHOT };
  });
  after(async () => { await fake.close(); await summarizer.close(); });

  // A subagent's chat (`"kind": "subagent"`, stored under its parent's chats/<parent>/ folder) is not a session the
  // CLI resumes: its id is not a session id (`gemini --resume tl63m8`: "Invalid session identifier", exit 42, the
  // original as much as our copy); its compaction and write-back are tested in geminiSubagentContext.test.ts.
  const subagent = (file: string): boolean => /"kind"\s*:\s*"subagent"/.test(fs.readFileSync(file, 'utf8').slice(0, 1 << 20));
  for (const c of realTranscripts().filter((x) => x.agent === 'gemini-cli' && !subagent(x.file))) {
    it(c.label, async (t) => {
      const root = freshDir('gemini-corpus');
      try {
        const { project, env, chats } = geminiProject(root, fake.url, KEY);
        // Under the name the CLI gave it (it lists `session-*` files only), in this project's chats folder.
        const text = fs.readFileSync(c.file, 'utf8');
        const id = (/"sessionId"\s*:\s*"([^"]+)"/.exec(text) ?? [])[1]!;
        const stored = path.join(chats, `session-2026-01-01T00-00-${id.slice(0, 8)}${path.extname(c.file)}`);
        fs.writeFileSync(stored, text);
        const cleanup = await compactWithCli(stored);
        const summarized = await compactWithCli(stored, { baseUrl: summarizer.url, key: KEY });
        const bin = agentBin('gemini');
        const resume = async (sessionId: string): Promise<{ bytes: number; pairs: number; contents: number; summary: boolean }> => {
          const { run, requests } = await resumeAndRecord(fake.requests, bin, ['-m', GEMINI_MODEL, '--yolo', '--resume', sessionId, '-p', NEW_PROMPT], project, env);
          assert.equal(run.code, 0, describeRun(run));
          const turn = requests.find((r) => isGeminiTurn(r) && mentions(contentsOf(r).at(-1), NEW_PROMPT));
          assert.ok(turn, `no turn request with the new prompt last (${describeRun(run)})`);
          const contents = contentsOf(turn);
          return { bytes: turn.bytes, pairs: assertGeminiPairs(contents), contents: contents.length, summary: JSON.stringify(contents).includes('## Next actions') };
        };
        const a = await resume(cleanup.sessionId);
        const b = await resume(summarized.sessionId);
        assert.ok(a.contents > 3 && a.pairs > 0, `the cleaned history was resumed (${a.contents} contents, ${a.pairs} pairs)`);
        // The summary and the latest prompt may be all that is left before the new prompt: the CLI then sends them in
        // one user content with it (it joins consecutive user messages), so what is checked is that the summary is sent.
        assert.ok(b.summary, `the summarized history was resumed (${b.contents} contents)`);
        assert.ok(fs.readFileSync(summarized.output!, 'utf8').includes('## Next actions'), 'the summary is in the summarized chat');
        // Last: resuming the original rewrites it (a legacy .json becomes .jsonl beside it).
        const o = await resume(id);
        assert.ok(a.bytes < o.bytes && b.bytes <= a.bytes, `bytes sent: original ${o.bytes}, cleanup ${a.bytes}, summary ${b.bytes}`);
        t.diagnostic(`${c.label}: request bytes original ${o.bytes} → cleanup ${a.bytes} (${((a.bytes / o.bytes) * 100).toFixed(1)} %), summary ${b.bytes} (${((b.bytes / o.bytes) * 100).toFixed(1)} %); ${a.pairs} pairs`);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
