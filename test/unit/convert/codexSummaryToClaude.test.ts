// compact --to claude from a Codex session holding Codex's own compaction: the real Codex 0.40 rollout golfiq
// (test/fixtures/real/SOURCES.tsv), trimmed to its first 1,830 lines so the compaction (line 1,813: its summary kept
// after the one typed prompt) is in the kept part. Claude Code loads a session from its compact_boundary on and puts
// what its compaction keeps after the summary (test/resume/convertCodexSummaryResume.test.ts runs the real claude).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { claudeSummaryOrder, claudeSummaryText } from '../../support/converted';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const GOLFIQ = path.join(FIXTURES, 'real', 'codex', 'golfiq-0.40.0-compacted-no-replacement-history.jsonl');

test('the prompt typed before Codex\'s summary comes after the compact_boundary and the summary, not before them', async (t) => {
  const dir = tmpDir(t);
  const trimmed = path.join(dir, 'golfiq-1830.jsonl'), out = path.join(dir, 'out.jsonl');
  fs.writeFileSync(trimmed, fs.readFileSync(GOLFIQ, 'utf8').split('\n').slice(0, 1830).join('\n') + '\n');
  let err = '';
  const code = await main(['compact', trimmed, '--no-summary', '--to', 'claude', '--cwd', dir, '--out', out, '--json'], { stdout: () => {}, stderr: (s) => { err += s; }, env: { HOME: dir } });
  assert.equal(code, 0, err);
  assert.deepEqual(claudeSummaryOrder(out, (said) => said.includes('Create or update the project constitution')), [0, 1, 2]);
  assert.match(claudeSummaryText(out), /Delivered the full CaddieCore service/);
});
