// inspect's JSON report on every committed real session (each agent's fixtures and the bench's two files) is what it
// was before the read path was made faster: digests recorded from the earlier code, and the CLI's lean read (tool
// output kept only as far as a preview needs) gives the very report a full read gives.
//   Re-record after an intended change of the report: UPDATE_INSPECT_DIGESTS=1 TZ=UTC node --import tsx --test THIS_FILE
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { test } from 'node:test';
import { benchFile } from '../../../bench/data';
import { sessionFiles } from '../../../scripts/lib/sessionFiles';
import { buildInspectReport, type InspectReport } from '../../../src/core/inspect/inspectReport';
import { inspectReport } from '../../../src/node/inspectFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const DIGESTS = join(__dirname, 'inspect-digests.json');

/** The report as JSON with the file named from where it is kept, so any checkout compares. */
const asJson = (r: InspectReport, name: string): string => JSON.stringify({ ...r, file: name });
const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** The full read (every text whole), as compaction and the extension's views read a session. */
async function fullReport(file: string): Promise<InspectReport> {
  const { session, bytes } = await readTranscriptFile(file);
  return buildInspectReport(session, { path: file, bytes });
}

test('inspect reports: unchanged on every fixture session and the bench files; the lean read equals the full read', async () => {
  const files = [...sessionFiles(FIXTURES), await benchFile('claude-8mb.jsonl'), await benchFile('codex-4mb.jsonl')];
  const now: Record<string, string> = {};
  let compared = 0;
  for (const file of files) {
    const name = file.startsWith(FIXTURES) ? relative(FIXTURES, file) : `bench/${basename(file)}`;
    const full = await fullReport(file).catch((e: unknown) => (e as Error).message.split(file).join(name));
    const lean = await inspectReport(file).catch((e: unknown) => (e as Error).message.split(file).join(name));
    if (typeof full === 'string' || typeof lean === 'string') {
      // A file that is no session (a request log, a store's member): the same one-line error both ways (recorded
      // without its text, which lists every supported agent and grows with them).
      assert.equal(lean, full, name);
      now[name] = 'error';
      continue;
    }
    assert.equal(asJson(lean, name), asJson(full, name), `${name}: the CLI's lean read gives the full read's report`);
    now[name] = digest(asJson(full, name));
    compared++;
  }
  if (process.env.UPDATE_INSPECT_DIGESTS) writeFileSync(DIGESTS, `${JSON.stringify(now, null, 1)}\n`);
  const recorded = JSON.parse(readFileSync(DIGESTS, 'utf8')) as Record<string, string>;
  assert.ok(compared >= 40, `many real sessions compared (${compared})`);
  assert.deepEqual(now, recorded, 'inspect reports as recorded before the read path changed');
});
