// The Markdown report fits a preview beside the code: narrow tables, details folded, sessions by title with a link
// to their file, and a chart with no white box and colours that read on a light and a dark theme.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { summarizeByStrategy } from '../../../src/core/eval/aggregate';
import { scatterSvg } from '../../../src/core/eval/chart';
import { renderEvalMarkdown, sessionName } from '../../../src/core/eval/render';
import type { EvalReport } from '../../../src/core/eval/types';
import { evalFile } from '../../../src/node/eval/strategies';
import { writeEvalMarkdown } from '../../../src/node/eval/writeReport';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(__dirname, '..', '..', 'fixtures', 'real');
const FILES = [path.join(REAL, 'claude-code', 'jtowe-1.0.59-windows.jsonl'), path.join(REAL, 'codex', fs.readdirSync(path.join(REAL, 'codex')).find((f) => f.endsWith('.jsonl'))!)];

let cached: EvalReport | undefined;
/** A real report: every strategy over a Claude Code and a Codex session (model strategies skipped: no provider). */
async function realReport(): Promise<EvalReport> {
  if (cached) return cached;
  const strategies = ['cleanup', 'summary', 'cleanup+summary', 'rolling', 'server'] as const;
  const config = { strategies, cleanup: { keepRecentTurns: 6 }, threshold: 30_000 };
  const rows = (await Promise.all(FILES.map((f) => evalFile(f, config, new AbortController().signal)))).flat();
  cached = { strategies, threshold: 30_000, files: FILES.length, interrupted: false, durationMs: 1, rows, summary: summarizeByStrategy(rows, strategies), warnings: [] };
  return cached;
}

/** Cells of every table row of the Markdown (escaped pipes are not separators). */
const tableWidths = (md: string): number[] => md.split('\n').filter((l) => l.startsWith('| ')).map((l) => l.split(/(?<!\\)\|/).length - 2);

test('no table is wider than six columns (the seed\'s table had fourteen), and the details are folded', async () => {
  const md = renderEvalMarkdown(await realReport(), { chart: 'eval.svg' });
  const widths = tableWidths(md);
  assert.ok(widths.length > 10, 'tables are there');
  assert.ok(Math.max(...widths) <= 6, `widest table: ${Math.max(...widths)} columns`);
  // The main table: strategy, accepted, history cut, probes kept, model calls · cost.
  assert.match(md, /^\| strategy \| accepted \| history cut \| probes kept \| model calls · cost \|$/m);
  assert.match(md, /^\| cleanup \| 2\/2 \| [\d.]+\s% \| [\d.]+\s% \| 0 \|$/m);
  // Each strategy's sessions fold (the first open); all figures and probes by kind fold too.
  assert.equal((md.match(/^<details( open)?>$/gm) ?? []).length, 5 + 2);
  assert.equal((md.match(/^<details open>$/gm) ?? []).length, 1);
  assert.match(md, /<summary>All figures per strategy<\/summary>\n\n\| figure \| cleanup \| summary \| cleanup\+summary \| rolling \| server \|\n/);
  assert.match(md, /<summary>Probes kept by kind<\/summary>\n\n\| kind \| cleanup/);
  // Blank lines inside <details>: markdown-it renders the table as Markdown, not as HTML text.
  for (const m of md.matchAll(/<\/summary>\n(.)/g)) assert.equal(m[1], '\n');
  // History and harness are defined where they appear.
  assert.match(md, /harness = system prompt \+ tool definitions \(and the initial context an agent re-sends\), re-sent every request; compaction cannot cut it/);
});

test('sessions are named by their title, linked to their file, never by a UUID file name', async (t) => {
  const report = await realReport();
  const dir = tmpDir(t);
  const out = await writeEvalMarkdown(report, path.join(dir, 'sub', 'eval.md'), FILES, { createDir: true });
  const md = fs.readFileSync(out.markdown, 'utf8');
  for (const f of FILES) {
    const row = report.rows.find((r) => r.file === f)!;
    assert.ok(row.title && row.title.length > 3, `the eval read a title for ${path.basename(f)}`);
    const link = path.relative(path.join(dir, 'sub'), f).split(path.sep).map(encodeURIComponent).join('/');
    assert.ok(md.includes(`](<${link}>)`), `a relative link to ${path.basename(f)}`);
    // The link resolves to the session from the report's folder.
    assert.equal(path.resolve(path.join(dir, 'sub'), decodeURIComponent(link)), f);
  }
  assert.doesNotMatch(md, /[0-9a-f]{8}\\-[0-9a-f]{4}\\-/, 'no escaped UUID');
  assert.doesNotMatch(md, /\[rollout-[^\]]*\]/, 'no file name as a link text');
  // The caller's titles (the Sessions view's) win; a long one is cut.
  const titles = new Map([[FILES[0]!, `Fix the login flow ${'x'.repeat(80)}`]]);
  assert.match(renderEvalMarkdown(report, { titles }), /^\| Fix the login flow x+… \| /m);
  assert.equal(sessionName({ file: '/a/b/1fb5e404-604d-4c1e.jsonl' }), '1fb5e404-604d-4c1e.jsonl');
  // The SVG names dots by title too.
  assert.ok(fs.readFileSync(out.chart, 'utf8').includes(`cleanup · ${sessionName(report.rows[0]!)}`.replace(/&/g, '&#38;')));
});

test('the chart has no white box and takes the theme\'s text colour inline; its file is a grey that reads on both', async () => {
  const rows = (await realReport()).rows;
  const file = scatterSvg(rows, ['cleanup', 'rolling']);
  const inline = scatterSvg(rows, ['cleanup', 'rolling'], { inherit: true });
  for (const svg of [file, inline]) {
    assert.doesNotMatch(svg, /#fff(fff)?\b|white/i, 'nothing white');
    assert.doesNotMatch(svg, /<rect [^>]*fill="#/, 'no background rectangle');
    // Words and lines are the current colour (the root's fill), never a fixed dark grey that vanishes on a dark theme.
    assert.match(svg, /^<svg [^>]*fill="currentColor"/);
    for (const m of svg.matchAll(/<(text|line)\b[^>]*>/g)) assert.doesNotMatch(m[0], /(fill|stroke)="#(?!3aa361)/, m[0]);
  }
  assert.match(file, /^<svg [^>]* color="#808080"/);
  assert.doesNotMatch(inline, /^<svg [^>]* color=/);
  // Inline, it fits the column: no fixed width, its own as a maximum.
  assert.match(inline, /^<svg [^>]*width="100%" style="max-width:560px" viewBox="0 0 560 444"/);
  // Inline in the Markdown: one HTML block (no blank line), in place of the image link.
  const md = renderEvalMarkdown(await realReport(), { chart: 'eval.svg', inlineChart: inline });
  assert.ok(md.includes(inline.trimEnd()));
  assert.doesNotMatch(md, /!\[History cut/);
});

test('Save as writes the report anew for its place: links relative to the new folder, the chart beside it', async (t) => {
  const report = await realReport();
  const dir = tmpDir(t);
  const first = await writeEvalMarkdown(report, path.join(dir, 'a', 'eval.md'), FILES, { createDir: true, inlineChart: true });
  fs.mkdirSync(path.join(dir, 'b', 'c'), { recursive: true });
  const saved = await writeEvalMarkdown(report, path.join(dir, 'b', 'c', 'mine.md'), FILES, { inlineChart: true });
  assert.equal(saved.chart, path.join(dir, 'b', 'c', 'mine.svg'));
  assert.ok(fs.existsSync(saved.chart));
  for (const out of [first, saved]) {
    const md = fs.readFileSync(out.markdown, 'utf8');
    const links = [...md.matchAll(/\]\(<([^>]+)>\)/g)].map((m) => path.resolve(path.dirname(out.markdown), decodeURIComponent(m[1]!)));
    assert.deepEqual([...new Set(links)].sort(), [...FILES].sort(), out.markdown);
    assert.match(md, /^<svg [^>]*width="100%"/m, 'the chart inline');
  }
  // Never over a session it read, and nothing written beside it either. (A copy: a failure must not touch the fixtures.)
  const copy = path.join(dir, path.basename(FILES[0]!));
  fs.copyFileSync(FILES[0]!, copy);
  await assert.rejects(writeEvalMarkdown(report, copy, [copy]));
  assert.deepEqual(fs.readdirSync(dir).sort(), ['a', 'b', path.basename(copy)].sort());
});
