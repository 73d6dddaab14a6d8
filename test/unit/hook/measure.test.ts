// The hook's worth, measured like eval's vendor row: on every real compaction, the facts of the history before the
// boundary (eval's independent probes, read from the segment eval's vendor row cuts) found in the agent's summary alone, and in the summary plus the hook's context.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import * as os from 'node:os';
import { checkProbes, outputText } from '../../../src/core/probes/check';
import { extractProbes } from '../../../src/core/probes/extract';
import { estimateTokens } from '../../../src/core/tokens/estimate';
import { guardContext } from '../../../src/node/hooks/compactedStretch';
import { readRawSource } from '../../../src/node/eval/rawSource';
import { agentCompactions } from '../../../src/node/eval/segments';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const REAL = path.join(FIXTURES, 'real', 'claude-code');
const FILES = fs.readdirSync(REAL).filter((f) => /compactions|compacted/.test(f)).map((f) => path.join(REAL, f));

test('every real compaction: summary + hook context keeps ≥ 85 % of the probes (mean), never fewer than the summary alone', async () => {
  const rows: string[] = [];
  let alone = 0, pair = 0, n = 0;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-hook-measure-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  for (const file of FILES) {
    const found = await agentCompactions(file);
    for (let k = 0; ; k++) {
      const r = await guardContext(file, undefined, k).catch((e: Error) => (/no compaction/.test(e.message) ? undefined : Promise.reject(e)));
      if (!r) break;
      assert.ok(r.stretch.summary, `${path.basename(file)} #${k + 1} has its summary`);
      // The same segment eval's vendor row measures (a compaction with nothing before it in this file has none).
      const at = found.compactions.findIndex((c) => c.start === r.stretch.boundaryLine);
      if (at < 0) continue;
      const seg = (await found.write(at, path.join(tmp, `${n}`))).segment;
      const probes = extractProbes(readRawSource(seg, (await readTranscriptFile(seg)).session));
      if (probes.length === 0) continue;
      const a = checkProbes(probes, outputText({ messages: [] }, [r.stretch.summary])).kept!;
      const p = checkProbes(probes, outputText({ messages: [] }, [r.stretch.summary, r.context])).kept!;
      assert.ok(p >= a, `${path.basename(file)} #${k + 1}: ${p} < ${a}`);
      assert.ok(estimateTokens(r.context) <= Math.min(2_000, estimateTokens(r.stretch.summary)));
      rows.push(`${path.basename(file).slice(0, 36).padEnd(36)} #${k + 1}  probes ${String(probes.length).padStart(2)}  summary alone ${(a * 100).toFixed(0).padStart(3)} %  + hook ${(p * 100).toFixed(0).padStart(3)} %  (summary ${estimateTokens(r.stretch.summary)} tok, hook ${estimateTokens(r.context)} tok)`);
      alone += a; pair += p; n++;
    }
  }
  rows.push(`mean over ${n} compactions: summary alone ${(alone / n * 100).toFixed(1)} %, summary + hook ${(pair / n * 100).toFixed(1)} %`);
  console.log(rows.join('\n'));
  assert.ok(n >= 10, `${n} compactions measured`);
  assert.ok(pair / n >= 0.85, rows[rows.length - 1]);
});
