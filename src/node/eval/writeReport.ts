// Writes the eval's Markdown report and its SVG chart beside it, atomically, never over a transcript it read.
import * as path from 'node:path';
import { scatterSvg } from '../../core/eval/chart';
import { renderEvalMarkdown } from '../../core/eval/render';
import type { EvalReport } from '../../core/eval/types';
import { writeFileAtomic } from '../atomicWrite';

/** `report.md` → `report.svg` (a name without .md gets .svg appended). */
export const chartPathFor = (markdown: string): string => (/\.md$/i.test(markdown) ? markdown.replace(/\.md$/i, '.svg') : `${markdown}.svg`);

export async function writeEvalMarkdown(report: EvalReport, markdown: string, protect: readonly string[], createDir = false): Promise<{ markdown: string; chart: string }> {
  const chart = chartPathFor(markdown);
  const options = { protect: [...protect], createDir };
  await writeFileAtomic(chart, [scatterSvg(report.rows, report.strategies)], options);
  await writeFileAtomic(markdown, [renderEvalMarkdown(report, path.basename(chart))], options);
  return { markdown, chart };
}
