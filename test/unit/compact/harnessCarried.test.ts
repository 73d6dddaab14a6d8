// The compaction report's harness is what the written copy carries: on a real Codex rollout holding its developer
// instructions twice (re-injected after its compaction and on resume) the old-context rule shrinks the older copy, and
// the report said "harness 73,153 … sent as is" over a copy of 63,351 tokens in all.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { harnessMessageTokens } from '../../../src/core/compact/measure';
import { renderCompactMarkdown } from '../../../src/core/compact/report';
import { calibrate } from '../../../src/core/tokens/calibrate';
import { compactFile } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

// LAF-US/IDAHO-VAULT, Codex 0.117.0, trimmed (see real/SOURCES.tsv).
const ROLLOUT = path.join(FIXTURES, 'real', 'codex', 'idaho-0.117.0-resumed-context-shrank-trimmed.jsonl');

test('the harness figure is the written copy\'s, and the words say what was shrunk', async (t) => {
  const out = path.join(tmpDir(t), 'out.jsonl');
  const r = await compactFile(ROLLOUT, { cleanup: { keepRecentTurns: 1 }, out });
  const original = (await readTranscriptFile(ROLLOUT)).session;
  const copy = (await readTranscriptFile(out)).session;
  const cal = calibrate(original);
  const carried = Math.round(cal.overhead + harnessMessageTokens(copy, cal.scale));
  assert.equal(r.harnessAfterTokens, carried, 'the harness the copy holds, read back from it');
  assert.ok(r.harnessAfterTokens < r.harnessTokens, `the older instructions were shrunk: ${r.harnessTokens} → ${r.harnessAfterTokens}`);
  assert.equal(r.after.tokens, r.harnessAfterTokens + r.after.historyTokens, 'harness + history = the copy\'s request');
  const md = renderCompactMarkdown(r);
  assert.match(md, new RegExp(`harness ${r.harnessTokens.toLocaleString('en-US')} → ${r.harnessAfterTokens.toLocaleString('en-US')}\\)`));
  assert.doesNotMatch(md, /of every request and is sent as is/);
  assert.match(md, new RegExp(`the copy carries ${r.harnessAfterTokens.toLocaleString('en-US')} of it: ${(r.harnessTokens - r.harnessAfterTokens).toLocaleString('en-US')} tokens of old injected context`));
  // Nothing shrunk (the default keeps the recent part whole here): one figure, "sent as is".
  const whole = await compactFile(ROLLOUT, { cleanup: { keepRecentTurns: 6 }, out: path.join(tmpDir(t), 'whole.jsonl') });
  assert.equal(whole.harnessAfterTokens, whole.harnessTokens);
  assert.match(renderCompactMarkdown(whole), /of every request and is sent as is/);
});
