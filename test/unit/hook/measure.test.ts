// The hook's worth, measured like eval's vendor row: on every real compaction (Claude Code and Codex), the facts of the
// history before the boundary (eval's independent probes, read from the segment eval's vendor row cuts) found in what
// the agent kept alone (its summary; Codex: and its replacement history), and in that plus the hook's context.
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

const FILES = ['claude-code', 'codex'].flatMap((agent) => {
  const dir = path.join(FIXTURES, 'real', agent);
  return fs.readdirSync(dir).filter((f) => /compactions|compacted/.test(f)).map((f) => path.join(dir, f));
});

test('every real compaction, Claude Code and Codex: summary + hook context keeps ≥ 85 % of the probes (mean), never fewer than the summary alone', async () => {
  const rows: string[] = [];
  let alone = 0, pair = 0, n = 0;
  const kinds: Record<string, { kept: number; total: number }> = {};
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-hook-measure-'));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  for (const file of FILES) {
    const found = await agentCompactions(file);
    for (let k = 0; ; k++) {
      const r = await guardContext(file, undefined, k).catch((e: Error) => (/no compaction/.test(e.message) ? undefined : Promise.reject(e)));
      if (!r) break;
      // A Codex remote compaction has no summary on disk to read (it is encrypted): what it keeps is its replacement history.
      const summary = r.stretch.summary ?? '';
      assert.ok(summary || r.stretch.kept, `${path.basename(file)} #${k + 1} has its summary or kept history`);
      // The same segment eval's vendor row measures (a compaction with nothing before it in this file has none).
      const at = found.compactions.findIndex((c) => c.start === r.stretch.boundaryLine);
      if (at < 0) continue;
      const seg = (await found.write(at, path.join(tmp, `${n}`))).segment;
      const probes = extractProbes(readRawSource(seg, (await readTranscriptFile(seg)).session));
      if (probes.length === 0) continue;
      const a = checkProbes(probes, outputText({ messages: [] }, [summary, r.stretch.kept ?? ''])).kept!;
      const both = checkProbes(probes, outputText({ messages: [] }, [summary, r.stretch.kept ?? '', r.context]));
      const p = both.kept!;
      for (const [kind, t] of Object.entries(both.byKind)) { const x = (kinds[kind] ??= { kept: 0, total: 0 }); x.kept += t.kept; x.total += t.total; }
      assert.ok(p >= a, `${path.basename(file)} #${k + 1}: ${p} < ${a}`);
      assert.ok(estimateTokens(r.context) <= Math.min(2_000, r.stretch.summary === undefined ? 2_000 : estimateTokens(summary)));
      rows.push(`${path.basename(file).slice(0, 36).padEnd(36)} #${k + 1}  probes ${String(probes.length).padStart(2)}  summary alone ${(a * 100).toFixed(0).padStart(3)} %  + hook ${(p * 100).toFixed(0).padStart(3)} %  (summary ${estimateTokens(summary)} tok, hook ${estimateTokens(r.context)} tok)`);
      alone += a; pair += p; n++;
    }
  }
  rows.push(`mean over ${n} compactions: summary alone ${(alone / n * 100).toFixed(1)} %, summary + hook ${(pair / n * 100).toFixed(1)} %`);
  rows.push(`summary + hook, by kind: ${Object.entries(kinds).map(([k, t]) => `${k} ${t.kept}/${t.total}`).join(', ')}`);
  console.log(rows.join('\n'));
  assert.ok(n >= 19, `${n} compactions measured (12 Claude Code, 7 Codex)`);
  assert.ok(pair / n >= 0.85, rows[rows.length - 2]);
});
