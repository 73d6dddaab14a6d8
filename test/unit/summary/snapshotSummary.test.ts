// With a summary, the state snapshot (built by code) carries the facts whatever the model writes: a junk answer
// still leaves identifier recall ≥ 0.9 on real sessions, and the snapshot is the same for any answer.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { SNAPSHOT_HEADER } from '../../../src/core/snapshot';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const KEY = 'sk-ant-test-SECRET-0987654321';
const JUNK = ['lorem ipsum dolor sit amet', '## Goal\nsomething\n## Next actions\n- nothing at all, really'];

async function cli(...args: string[]): Promise<{ code: number; stderr: string; json: Record<string, unknown> }> {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: { ANTHROPIC_API_KEY: KEY } });
  return { code, stderr, json: code === 0 ? JSON.parse(stdout) : {} };
}

for (const rel of ['claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl', 'codex/idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl', 'codex/shellws-0.105.0-compacted-websearch.jsonl', 'gemini-cli/ticketing-nover-jsonl-format-windows.jsonl']) {
  test(`${rel}: a junk summary still carries the identifiers (recall ≥ 0.9); the snapshot does not depend on the answer`, async (t) => {
    const fake = await startFakeAnthropic(KEY);
    t.after(() => fake.close());
    const dir = tmpDir(t);
    const snapshots: string[] = [];
    for (const [k, junk] of JUNK.entries()) {
      fake.fallback = { kind: 'ok', text: junk };
      const out = path.join(dir, `s${k}${path.extname(rel)}`);
      const r = await cli('compact', path.join(FIXTURES, 'real', rel), '--out', out, '--json', '--provider', 'anthropic', '--model', 'claude-test', '--base-url', fake.url);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.fallback, null, JSON.stringify(r.json.warnings));
      assert.ok((r.json.identifierRecall as number) >= 0.9, `recall ${r.json.identifierRecall}`);
      assert.equal(r.json.pairsIntact, true);
      const { session } = await readTranscriptFile(out);
      const summary = session.messages.flatMap((m) => m.blocks).find((b) => b.type === 'summary');
      assert.ok(summary && summary.type === 'summary');
      const at = summary.text.indexOf(SNAPSHOT_HEADER);
      assert.ok(at > summary.text.indexOf(junk.split('\n')[0]!), 'the prose first, then the snapshot');
      snapshots.push(summary.text.slice(at));
    }
    assert.equal(snapshots[0], snapshots[1]);
    assert.match(snapshots[0]!, /^## Identifiers$/m);
  });
}
