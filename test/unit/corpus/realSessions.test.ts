// Every real transcript: inspect without errors; compact without and with a summary (a loopback provider whose
// snapshot says nothing useful); the output reads back with the same reader, every call paired as the input had
// it, identifier recall ≥ 0.9 (through code, whatever the model wrote), and figures that match the file written.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pairsIntact } from '../../../src/core/compact/fidelity';
import { agentModule } from '../../../src/core/formats/registry';
import { calibrate } from '../../../src/core/tokens/calibrate';
import { compose } from '../../../src/core/tokens/composition';
import { compactTranscript, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { inspectReport } from '../../../src/node/inspectFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import type { FakeServer } from '../../support/fakeHttp';
import * as fs from 'node:fs';
import * as os from 'node:os';

const KEY = 'sk-ant-corpus-test';
/** A model that answers with a bare outline: nothing a continuation needs comes from it. */
const USELESS = '## Goal\n- continue\n## Decisions\n## Constraints\n## Evidence\n## Open errors\n## Completed work\n## Next actions\n- continue';

describe('real sessions', () => {
  let fake: FakeServer;
  let dir: string;
  before(async () => { fake = await startFakeAnthropic(KEY); fake.fallback = { kind: 'ok', text: USELESS }; dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-corpus-')); });
  after(async () => { await fake.close(); fs.rmSync(dir, { recursive: true, force: true }); });

  for (const { file, label, agent } of realTranscripts()) {
    it(`${label}: inspect, compact (cleanup; summary), read back`, async () => {
      const inspected = await inspectReport(file);
      assert.ok(inspected.messages > 0 && inspected.tokens.total > 0, 'inspect measures the live context');
      const { session: original } = await readTranscriptFile(file);
      const base = path.join(dir, label.replace(/\//g, '_'));
      for (const summary of [false, true]) {
        // The extension the agent's own copies have (OpenCode and Goose import JSON documents; a handoff is Markdown).
        const out = `${base}.${summary ? 'summary' : 'cleanup'}${agentModule(agent).handoff ? '.md' : path.extname(agentModule(agent).fileName('x', new Date(0)))}`;
        const prepared = await compactTranscript(file, {
          cleanup: { keepRecentTurns: 6 },
          summary: summary ? { provider: 'anthropic', model: 'claude-test', baseUrl: fake.url, apiKey: KEY, timeoutSeconds: 30, maxOutputTokens: 2000, maxInputTokens: 150_000 } : undefined,
        });
        await writeCompaction(prepared, out);
        const report = reportOf(prepared, out);
        const what = `${label} (${summary ? 'summary' : 'cleanup'})`;
        assert.equal(report.pairsIntact, true, `${what}: pairs`);
        assert.ok(report.identifierRecall >= 0.9, `${what}: recall ${report.identifierRecall}, missing ${report.identifiers.missing.slice(0, 5).join(' | ')}`);
        assert.ok(report.after.tokens <= report.before.tokens, `${what}: not larger`);
        if (report.handoff) {
          // An agent that cannot continue from a file gets a handoff: every text kept is in it, the latest prompt whole.
          const handoff = fs.readFileSync(out, 'utf8');
          assert.match(handoff, /^# Handoff: continue this /, `${what}: a handoff`);
          assert.equal(report.resumeCommand, '', `${what}: no resume command`);
          for (const m of prepared.outcome.result.messages) {
            for (const b of m.blocks) if (b.type === 'text' || b.type === 'summary') assert.ok(handoff.includes(b.text), `${what}: kept text in the handoff: ${b.text.slice(0, 80)}`);
          }
          continue;
        }
        const { session: back } = await readTranscriptFile(out);
        assert.equal(back.format, original.format);
        assert.ok(pairsIntact(back.messages, original.messages), `${what}: the written file pairs every call`);
        // The figures describe the file written: its context, measured on the original's scale, is what the report says.
        const written = compose(back, 0, calibrate(original)).total;
        assert.ok(Math.abs(written - report.after.tokens) <= Math.max(200, report.after.tokens * 0.05), `${what}: written ${written} vs reported ${report.after.tokens}`);
      }
    });
  }
});
