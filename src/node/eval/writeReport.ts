// Writes the eval's Markdown report and its SVG chart beside it, atomically, never over a transcript it read.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { scatterSvg } from '../../core/eval/chart';
import { renderEvalMarkdown, sessionName } from '../../core/eval/render';
import type { EvalReport, EvalRow } from '../../core/eval/types';
import { writeFileAtomic } from '../atomicWrite';
import { checkTarget } from '../write/outputTarget';
import { sessionsFiles } from '../write/sessionFiles';

/** `report.md` → `report.svg` (a name without .md gets .svg appended). */
export const chartPathFor = (markdown: string): string => (/\.md$/i.test(markdown) ? markdown.replace(/\.md$/i, '.svg') : `${markdown}.svg`);

/**
 * A link from the report to a session file that exists (a database session, `store.db#id`, has none): relative, so
 * the report moved with the sessions or opened on another machine's clone still works, with forward slashes and
 * percent-encoded; an absolute file URL when no relative path exists (another Windows drive).
 */
export function linkFrom(markdown: string): (file: string) => string | undefined {
  const dir = path.dirname(path.resolve(markdown));
  return (file) => {
    if (!existsSync(file)) return undefined;
    const rel = path.relative(dir, file);
    if (path.isAbsolute(rel)) return `file:///${file.replace(/\\/g, '/').split('/').map(encodeURIComponent).join('/').replace(/^\/+/, '')}`;
    return rel.split(path.sep).map(encodeURIComponent).join('/');
  };
}

export interface ReportOptions {
  /** Titles by file (the Sessions view's), preferred over those the eval read. */
  readonly titles?: ReadonlyMap<string, string>;
  readonly createDir?: boolean;
  /** The chart inside the Markdown (VS Code's preview, theme colours) as well as in its file beside. */
  readonly inlineChart?: boolean;
}

/**
 * Refuses, before the run, a report or chart name that is a file of a session the eval reads (writeEvalMarkdown
 * checks again when it writes): a long eval does not end in a refusal it could have given at the start.
 */
export async function checkEvalTargets(markdown: string, inputs: readonly string[]): Promise<void> {
  const protect = sessionsFiles(inputs);
  for (const t of [markdown, chartPathFor(markdown)]) await checkTarget(t, protect);
}

export async function writeEvalMarkdown(report: EvalReport, markdown: string, protect: readonly string[], options: ReportOptions = {}): Promise<{ markdown: string; chart: string }> {
  const chart = chartPathFor(markdown);
  // Every file of every session read (a store's database and companions, a task's members), not just the paths given.
  const write = { protect: sessionsFiles(protect), createDir: options.createDir ?? false };
  const titles = options.titles;
  const nameOf = (r: EvalRow): string => sessionName(r, titles);
  const inline = options.inlineChart ? { inlineChart: scatterSvg(report.rows, report.strategies, { nameOf, inherit: true }) } : {};
  // The report first: a name that is refused (a transcript read) leaves nothing behind, not a stray chart beside it.
  await writeFileAtomic(markdown, [renderEvalMarkdown(report, { chart: path.basename(chart), titles, href: linkFrom(markdown), ...inline })], write);
  await writeFileAtomic(chart, [scatterSvg(report.rows, report.strategies, { nameOf })], write);
  return { markdown, chart };
}
