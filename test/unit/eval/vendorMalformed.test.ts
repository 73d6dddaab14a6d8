// The vendor row on a file whose compaction records are damaged: a failed row with its reason, never a 0 %-kept row.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { agentCompactions } from '../../../src/node/eval/segments';
import { vendorRow } from '../../../src/node/eval/vendorStrategy';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real', 'claude-code', 'tpos-2.0.57-4compactions.jsonl');

async function firstVendorRow(file: string, dir: string) {
  const found = await agentCompactions(file);
  assert.ok(found.compactions.length > 0);
  const seg = await found.write(0, dir);
  const { session } = await readTranscriptFile(seg.segment);
  return vendorRow(seg, session, [], 0);
}

test('a Claude Code summary record with no readable text: the vendor row fails with the reason', async (t) => {
  const dir = tmpDir(t);
  const broken = path.join(dir, 'broken.jsonl');
  const lines = fs.readFileSync(REAL, 'utf8').split('\n').map((l) => {
    if (!l.includes('"isCompactSummary":true')) return l;
    const o = JSON.parse(l) as Record<string, unknown>;
    return JSON.stringify({ ...o, message: null });
  });
  fs.writeFileSync(broken, lines.join('\n'));
  const row = await firstVendorRow(broken, path.join(dir, 'segs'));
  assert.equal(row.status, 'failed');
  assert.match(row.failure ?? '', /summary record holds no readable text/);
});

test('the intact file: the same compaction gives an ok vendor row', async (t) => {
  const row = await firstVendorRow(REAL, tmpDir(t));
  assert.equal(row.status, 'ok');
});
