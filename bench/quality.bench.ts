// What compaction does to real sessions beside the generated ones, defaults, same run: history and request cut,
// identifier recall, pairs, cleanup only and with one summary call (a loopback model whose snapshot is short and
// generic), and the resume byte ratios the last `npm run test:resume` measured with the real CLIs.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { CompactReport } from '../src/core/compact/report';
import { compactFile } from '../src/node/compactFile';
import { realTranscripts } from '../test/support/corpus';
import { startFakeAnthropic } from '../test/support/fakeAnthropic';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../test/support/fixtures';
import { benchFile } from './data';
import type { Bench } from './lib/harness';

const KEY = 'sk-ant-bench';
const SNAPSHOT = '## Goal\n- Continue the work in this repository.\n## Decisions\n- Keep the current approach.\n## Constraints\n- none stated\n## Evidence\n- see recent turns\n## Open errors\n- none known\n## Completed work\n- earlier steps done\n## Next actions\n- continue with the last request';

interface Row { file: string; group: 'generated' | 'real'; cleanup: CompactReport; summary: CompactReport }

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN; };
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

export function resumeRatios(): { claude?: number; codex?: number } {
  const read = (agent: string): number | undefined => {
    const f = join(__dirname, '..', 'test-results', `resume-corpus-${agent}.json`);
    return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as { median?: number }).median : undefined;
  };
  return { claude: read('claude-code'), codex: read('codex') };
}

export const bench: Bench = {
  name: 'quality',
  description: 'compaction of generated vs real transcripts (history cut, recall, pairs; cleanup only and with a summary)',
  async run() {
    const fake = await startFakeAnthropic(KEY);
    fake.fallback = { kind: 'ok', text: SNAPSHOT };
    const dir = mkdtempSync(join(tmpdir(), 'cc-quality-'));
    const rows: Row[] = [];
    try {
      const generated = [CLAUDE_SAMPLE, CODEX_SAMPLE, await benchFile('claude-8mb.jsonl'), await benchFile('codex-4mb.jsonl')];
      const inputs = [...generated.map((file) => ({ file, group: 'generated' as const })), ...realTranscripts().map((c) => ({ file: c.file, group: 'real' as const }))];
      for (const { file, group } of inputs) {
        const out = (k: string): string => join(dir, `${k}-${basename(file)}`);
        const cleanup = await compactFile(file, { cleanup: { keepRecentTurns: 6 }, out: out('c') });
        const summary = await compactFile(file, {
          cleanup: { keepRecentTurns: 6 }, out: out('s'),
          summary: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: fake.url, apiKey: KEY, timeoutSeconds: 60, maxOutputTokens: 2000, maxInputTokens: 150_000 },
        });
        rows.push({ file: basename(file), group, cleanup, summary });
        process.stderr.write('.');
      }
    } finally {
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const table: string[] = ['| measure (defaults) | generated | real: all | real: shared corpus only |', '| --- | ---: | ---: | ---: |'];
    const groups = { generated: rows.filter((r) => r.group === 'generated'), real: rows.filter((r) => r.group === 'real'), shared: rows.filter((r) => r.group === 'real' && !r.file.match(/^(brainflow|cival|idaho|jtowe|tpos|vibelife|volcano|brainbuddy|golfiq|ocodex|shellws)-/)) };
    const line = (label: string, f: (rs: Row[]) => string): void => { table.push(`| ${label} | ${f(groups.generated)} | ${f(groups.real)} | ${f(groups.shared)} |`); };
    const sized = (rs: Row[]): Row[] => rs.filter((r) => !r.cleanup.tooSmallToCompact);
    line('files (too small to compact)', (rs) => `${rs.length} (${rs.length - sized(rs).length})`);
    line('request cut, cleanup: median', (rs) => pct(median(sized(rs).map((r) => r.cleanup.reduction))));
    line('history cut, cleanup: median / worst', (rs) => `${pct(median(sized(rs).map((r) => r.cleanup.historyReduction)))} / ${pct(Math.min(...sized(rs).map((r) => r.cleanup.historyReduction)))}`);
    line('identifier recall, cleanup: median / worst', (rs) => `${median(rs.map((r) => r.cleanup.identifierRecall)).toFixed(3)} / ${Math.min(...rs.map((r) => r.cleanup.identifierRecall)).toFixed(3)}`);
    line('pairs intact, cleanup', (rs) => `${rs.filter((r) => r.cleanup.pairsIntact).length}/${rs.length}`);
    line('history cut, with summary: median / worst', (rs) => `${pct(median(sized(rs).map((r) => r.summary.historyReduction)))} / ${pct(Math.min(...sized(rs).map((r) => r.summary.historyReduction)))}`);
    line('identifier recall, with summary: median / worst', (rs) => `${median(rs.map((r) => r.summary.identifierRecall)).toFixed(3)} / ${Math.min(...rs.map((r) => r.summary.identifierRecall)).toFixed(3)}`);
    line('pairs intact, with summary', (rs) => `${rs.filter((r) => r.summary.pairsIntact).length}/${rs.length}`);
    const resume = resumeRatios();
    const perFile = rows.map((r) => `| ${r.group} | ${r.file} | ${r.cleanup.before.historyTokens} | ${pct(r.cleanup.historyReduction)}${r.cleanup.tooSmallToCompact ? ' (small)' : ''} | ${pct(r.summary.historyReduction)} | ${r.cleanup.identifierRecall.toFixed(3)} / ${r.summary.identifierRecall.toFixed(3)} | ${r.cleanup.pairsIntact && r.summary.pairsIntact ? 'yes' : 'NO'} |`);
    const text = [
      ...table, '',
      `real-CLI resume, history bytes sent vs the original (median, last test:resume run): claude ${resume.claude === undefined ? 'not run' : pct(resume.claude)}, codex ${resume.codex === undefined ? 'not run' : pct(resume.codex)}`, '',
      '| group | file | history before | history cut (cleanup) | history cut (summary) | recall cleanup / summary | pairs |', '| --- | --- | ---: | ---: | ---: | ---: | --- |', ...perFile,
    ].join('\n');
    return { text, data: { rows: rows.map((r) => ({ file: r.file, group: r.group, cleanup: pick(r.cleanup), summary: pick(r.summary) })), resume } };
  },
};

const pick = (r: CompactReport): object => ({
  historyBefore: r.before.historyTokens, historyAfter: r.after.historyTokens, harness: r.harnessTokens, reduction: r.reduction,
  historyReduction: r.historyReduction, recall: r.identifierRecall, pairsIntact: r.pairsIntact, tooSmall: r.tooSmallToCompact, modelCalls: r.modelCalls,
});
