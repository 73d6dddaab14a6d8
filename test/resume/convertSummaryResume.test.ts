// compact --to from a session the source agent compacted itself (the real Qwen Code 0.24.4 session compressed by
// `/compress`, test/fixtures/qwen-code/README.md): every real target CLI resumes it with Qwen's summary in its own
// compaction form, and its turn request carries the summary and the typed prompt after it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FakeServer, RecordedRequest } from '../support/fakeHttp';
import { FIXTURES } from '../support/fixtures';
import { convertWithCli, TARGETS, type Target } from './convertSuite';
import { agentBin, describeRun, freshDir, resumeAndRecord, runAgent, type AgentRun } from './harness';
import { KEY } from './resumeSuite';

const QWEN = path.join(FIXTURES, 'qwen-code', 'session-0.24.4-compress', 'ad299598-9801-4fd9-83b1-30df3767f542.jsonl');

for (const to of Object.keys(TARGETS) as Target[]) {
  describe(`Qwen Code (compressed) → ${to}: the real ${to} CLI resumes the agent's summary in its own form`, { timeout: 240_000 }, () => {
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
      const report = await convertWithCli(QWEN, to, cwd, env);
      const id = side.importFirst ? await side.importFirst(report, (args) => runAgent(bin, args, cwd, env)) : report.sessionId;
      const resumed = await resumeAndRecord(fake.requests, bin, side.resumeArgs(id), cwd, env);
      run = resumed.run;
      turn = resumed.requests.find(side.isTurn);
    });
    after(async () => {
      await fake?.close();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });
    it('sends the summary (its facts) and the prompt typed after it', () => {
      assert.equal(run.code, 0, describeRun(run));
      assert.ok(turn, `no turn request (${describeRun(run)})`);
      const body = JSON.stringify(turn.body);
      assert.match(body, /TAX-4417/, 'the summary');
      assert.match(body, /Which rate does price.js apply now\?/, 'the typed prompt after it');
    });
  });
}
