// The eval report as the seed's table (terminal) and as Markdown that fits a preview: a narrow table, sessions by title, details folded.
import { TERMS_LINE } from '../inspect/terms';
import { escapeMarkdown, escapeProse } from '../text/markdown';
import { pctText, worstRows } from './aggregate';
import { MODEL_STRATEGIES, PROBE_KINDS, type EvalReport, type EvalRow, type ProbeKind, type StrategyId, type StrategySummary, type Tally } from './types';
import { SEGMENT_HEAD, segmentCells, segmentKindCells, segmentLabel, segmentsLine } from './vendorSummary';

const n = (x: number | null): string => (x === null ? '–' : Math.round(x).toLocaleString('en-US'));
const sec = (ms: number | null): string => (ms === null ? '–' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
const usd = (x: number | null): string => (x === null ? '–' : `$${x.toFixed(4)}`);

const HEAD = ['strategy', 'accepted', 'failed', 'skipped', 'median time', 'p95 time', 'median input tok', 'model calls', 'cost', 'median reduction', 'worst reduction', 'median history cut', 'median recall', 'median probes kept'];

function cells(id: StrategyId, s: StrategySummary): string[] {
  const ran = s.files - s.skipped;
  return [
    id, `${s.accepted}/${ran}`, String(s.failed), String(s.skipped), sec(s.medianDurationMs), sec(s.p95DurationMs), n(s.medianModelInputTokens),
    String(s.modelCalls), usd(s.costUsd), pctText(s.medianReduction), pctText(s.worstReduction), pctText(s.medianHistoryReduction), pctText(s.medianRecall), pctText(s.medianProbesKept),
  ];
}

function tallyCell(byKind: Partial<Record<ProbeKind, Tally>>, k: ProbeKind): string {
  const t = byKind[k];
  return t && t.total > 0 ? `${Math.round((t.kept / t.total) * 100)} % (${t.kept}/${t.total})` : '–';
}
const kindCell = (s: StrategySummary, k: ProbeKind): string => tallyCell(s.probes, k);

const ROUND_HEAD = ['round', 'history cut', 'probes kept', ...PROBE_KINDS];
/** --rounds: per strategy that ran them, one row per round (median cut and share kept, tallies by kind). */
function roundTables(r: EvalReport): { id: StrategyId; head: string[]; rows: string[][] }[] {
  return ids(r).filter((id) => r.summary[id]!.rounds?.length).map((id) => ({
    id, head: ROUND_HEAD,
    rows: r.summary[id]!.rounds!.map((x) => [String(x.round), pctText(x.historyCut), pctText(x.probesKept), ...PROBE_KINDS.map((k) => tallyCell(x.byKind, k))]),
  }));
}
const roundsTitle = (id: StrategyId, n: number): string => `${id}: its own output compacted again as the session grows, ${n} rounds`;

const ids = (r: EvalReport): StrategyId[] => r.strategies.filter((s) => r.summary[s]);

function aligned(rows: string[][]): string {
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [line(rows[0]!), w.map((x) => '─'.repeat(x)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** Rolling only acts past its threshold: say how many transcripts got there, so a 0 % median reads right. */
function rollingNote(r: EvalReport): string | undefined {
  const c = r.summary.rolling?.compacted;
  if (!c) return undefined;
  const ran = r.summary.rolling!.files - r.summary.rolling!.skipped - r.summary.rolling!.failed;
  return `rolling: ${c.files} of ${ran} sessions passed ${r.threshold.toLocaleString('en-US')} tokens of context (${c.compactions} compactions in all); the others never compacted and are unchanged (the threshold: --threshold in the CLI, Context Threshold in VS Code settings).`;
}

function header(r: EvalReport): string {
  return `${r.files} session(s) · ${r.provider ? `provider ${r.provider.id} / ${r.provider.model}` : `rules only: no model called${r.strategies.some((s) => MODEL_STRATEGIES.has(s)) ? ' (the summary and server strategies skipped)' : ''}`} · ${sec(r.durationMs)}${r.interrupted ? ' · INTERRUPTED: rows hold what finished' : ''}`;
}

/** --resume-check: what the real agent sent resuming each strategy's output, against the original. */
function resumeNote(r: EvalReport): string | undefined {
  if (!r.resumeCheck) return undefined;
  const parts = ids(r).flatMap((s) => (r.summary[s]!.medianResumeBytesRatio !== undefined ? [`${s} ${pctText(r.summary[s]!.medianResumeBytesRatio ?? null)}`] : []));
  const checked = r.rows.filter((x) => typeof x.resumeBytesRatio === 'number').length;
  return `resume check: median request bytes the real agent CLI sent resuming the output, of those for the original — ${parts.length ? parts.join(', ') : 'none'} (${checked} outputs resumed; Claude Code and Codex files).`;
}

/** What `eval` prints without --json: the seed's table and the probes kept per kind. */
export function renderEvalText(r: EvalReport): string {
  const main = aligned([HEAD, ...ids(r).map((s) => cells(s, r.summary[s]!))]);
  const kinds = aligned([['probes kept', ...PROBE_KINDS], ...ids(r).map((s) => [s, ...PROBE_KINDS.map((k) => kindCell(r.summary[s]!, k))])]);
  const warn = r.warnings.length ? `\n\nwarnings:\n${r.warnings.map((w) => `  ${w}`).join('\n')}` : '';
  const notes = [rollingNote(r), resumeNote(r)].filter(Boolean).map((x) => `${x}\n`).join('');
  const rounds = roundTables(r).map((t) => `\n\n${roundsTitle(t.id, t.rows.length)}\n${aligned([t.head, ...t.rows])}`).join('');
  const parts = [ids(r).length ? `${main}\n${notes}\n${kinds}${rounds}` : '', segmentsText(r)].filter(Boolean);
  return `${header(r)}\n\n${parts.join('\n\n')}${failedText(r)}${warn}\n`;
}

const FAILED_SHOWN = 20;
/** Each failed row's reason under the table (a count of failures alone says nothing of why); the first 20, then how many more. */
function failedText(r: EvalReport): string {
  const failed = r.rows.filter((x) => x.status === 'failed');
  if (!failed.length) return '';
  const lines = failed.slice(0, FAILED_SHOWN).map((x) => `  ${sessionName(x)} · ${x.strategy}: ${(x.failure ?? 'unknown error').split('\n')[0]}`);
  if (failed.length > FAILED_SHOWN) lines.push(`  … and ${failed.length - FAILED_SHOWN} more (--json has every row)`);
  return `\n\nfailed:\n${lines.join('\n')}`;
}

/** Every row that ran failed (none ok): `eval` then exits 1, its table listing why. */
export const everyRowFailed = (r: EvalReport): boolean => r.rows.some((x) => x.status === 'failed') && !r.rows.some((x) => x.status === 'ok');

const SEGMENTS_TITLE = "On the agent's own compaction segments";
/** Why the section is empty: no session held one of its agent's compactions. */
const noSegments = (r: EvalReport): string => `none of the ${r.files} session(s) holds a compaction by its agent (Claude Code compact_boundary / isCompactSummary, Codex compacted)`;

/** vendor: what the agent kept against what ours keep, on the same segments. */
function segmentsText(r: EvalReport): string {
  const s = r.segments;
  if (!s) return '';
  if (s.compactions === 0) return `${SEGMENTS_TITLE}: ${noSegments(r)}.`;
  const kinds = segmentKindCells(s);
  const byKind = kinds.length ? `\n\n${aligned([['probes kept by kind', ...s.strategies.map(segmentLabel)], ...kinds])}` : '';
  return `${SEGMENTS_TITLE}: ${segmentsLine(s)}\n\n${aligned([SEGMENT_HEAD, ...segmentCells(s)])}${byKind}`;
}

const mdRow = (c: readonly string[]): string => `| ${c.join(' | ')} |`;
/** First column left, figures right; `leftLast`: the last column is words (left too). */
const mdTable = (head: string[], rows: string[][], leftLast = false): string[] =>
  [mdRow(head), mdRow(head.map((_, i) => (i === 0 || (leftLast && i === head.length - 1) ? '---' : '---:'))), ...rows.map(mdRow)];
/** A figure that never wraps between its number and its unit in a narrow column. */
const pctCell = (x: number | null): string => pctText(x).replace(' ', '\u00a0');

/** Why a row is where it is, without the figures beside it: what failed or was lost. */
function whyCell(w: EvalRow): string {
  if (w.status === 'failed') return escapeMarkdown(`failed: ${w.failure ?? 'unknown error'}`);
  const parts: string[] = [];
  if (!w.accepted) parts.push(w.pairsIntact === false ? 'tool pairs broken' : w.fallback ? 'summary fell back to cleanup' : 'output not smaller');
  if (w.lost.length) parts.push(`lost ${w.lost.slice(0, 3).join('; ')}${w.lost.length > 3 ? '…' : ''}`);
  if (w.tooSmallToCompact) parts.push('too small to compact');
  return parts.length ? escapeMarkdown(parts.join(' · ')) : '–';
}

/** How the Markdown names and links sessions: titles the caller knows (the Sessions view's), links it can open. */
export interface MarkdownOptions {
  /** The SVG chart's file name relative to the Markdown file. */
  readonly chart?: string;
  /** The chart's SVG itself, shown inline instead (VS Code's preview: it then takes the theme's text colour). */
  readonly inlineChart?: string;
  /** Titles by file, preferred over the row's own (the title the Sessions view shows). */
  readonly titles?: ReadonlyMap<string, string>;
  /** A link to the session's file from the report (relative, URL-encoded), or undefined for none. */
  readonly href?: (file: string) => string | undefined;
}


const TITLE_MAX = 60;
/** The session's name for people: the caller's title, the row's, else the file's name (never a bare path). */
export function sessionName(row: Pick<EvalRow, 'file' | 'title' | 'segment'>, titles?: ReadonlyMap<string, string>): string {
  const t = (titles?.get(row.file) ?? row.title ?? base(row.file)).replace(/\s+/g, ' ').trim() || base(row.file);
  const name = t.length > TITLE_MAX ? `${t.slice(0, TITLE_MAX - 1)}…` : t;
  return row.segment ? `${name} @ compaction ${row.segment.index}/${row.segment.of}` : name;
}

function sessionCell(row: EvalRow, o: MarkdownOptions): string {
  const name = escapeProse(sessionName(row, o.titles));
  const href = o.href?.(row.file);
  // The destination is the caller's URL-encoded path in angle brackets: no space, bracket or pipe of a file name reaches it raw.
  return href ? `[${name}](<${href.replace(/[<>|\s]/g, encodeURIComponent)}>)` : name;
}

const check = (x: boolean | null): string => (x === null ? '–' : x ? 'yes' : '**no**');
const costCell = (s: StrategySummary): string => (s.modelCalls === 0 ? '0' : `${s.modelCalls} · ${s.costUsd === null ? 'cost unknown' : `$${s.costUsd.toFixed(2)}`}`);

/** Per strategy, the figures a reader compares first: five columns that fit a preview beside the code. */
function mainTable(r: EvalReport): string[] {
  return mdTable(['strategy', 'accepted', 'history cut', 'probes kept', 'model calls · cost'], ids(r).map((id) => {
    const s = r.summary[id]!;
    return [id, s.files === s.skipped ? 'skipped' : `${s.accepted}/${s.files - s.skipped}`, pctCell(s.medianHistoryReduction), pctCell(s.medianProbesKept), costCell(s)];
  }));
}

/** Every figure of the seed's table, one row per figure and one column per strategy (at most six columns). */
function figuresTable(r: EvalReport): string[] {
  const list = ids(r);
  const all = list.map((id) => cells(id, r.summary[id]!));
  return mdTable(['figure', ...list], HEAD.slice(1).map((h, i) => [h, ...all.map((c) => c[i + 1]!)]));
}

/** One strategy's sessions, worst first: title (a link to the file), cut, probes kept, tool pairs, why. */
function sessionsBlock(r: EvalReport, id: StrategyId, o: MarkdownOptions, open: boolean, segments = false): string[] {
  // Whole-file rows, or (vendor) the rows on the segments before the agents' compactions; a skipped vendor row is whole-file.
  const mine = r.rows.filter((x) => x.strategy === id && (segments ? !!x.segment || x.status === 'skipped' : !x.segment));
  const rows = worstRows(mine, Infinity);
  const skipped = mine.filter((x) => x.status === 'skipped');
  const what = segments ? 'compaction' : 'session';
  const summary = `<summary><b>${id}</b> — ${rows.length} ${what}${rows.length === 1 ? '' : 's'}, worst first${skipped.length ? ` (${skipped.length} skipped)` : ''}</summary>`;
  const body = rows.length === 0
    ? [`No session ran: ${escapeMarkdown(skipped[0]?.skipped ?? 'all skipped')}.`]
    : mdTable(['session', 'history cut', 'probes kept', 'pairs ok', 'why'], rows.map((w) => [sessionCell(w, o), pctCell(w.historyReduction), pctCell(w.probesKept), check(w.pairsIntact), whyCell(w)]), true);
  // Blank lines around the Markdown inside: the preview (markdown-it) parses it as Markdown, not as HTML.
  return [open ? '<details open>' : '<details>', summary, '', ...body, '', '</details>', ''];
}

/** The Markdown report: the main table, the chart, each strategy's sessions and the details folded. */
export function renderEvalMarkdown(r: EvalReport, options: MarkdownOptions | string = {}): string {
  const o: MarkdownOptions = typeof options === 'string' ? { chart: options } : options;
  const lines: string[] = ['# Compaction evaluation', '', escapeMarkdown(header(r)), '', TERMS_LINE, ''];
  lines.push(...mainTable(r), '');
  for (const note of [rollingNote(r), resumeNote(r)]) if (note) lines.push(escapeMarkdown(note), '');
  lines.push('**accepted**: finished, tool pairs intact, not larger than the input, no fallback. **history cut**: 1 − after/before of the history. **probes kept**: facts a continuation needs — files modified, error lines (and whether a later run fixed them), commands, the requests the user typed, stated constraints, identifiers (hash, URL, issue/PR, version, number with unit) — read from the original file by a probe set that shares no code with the compactor, and found in the output without a model.', '');
  // Inline SVG is one HTML block: it must hold no blank line, or Markdown would resume inside it.
  if (o.inlineChart) lines.push(o.inlineChart.replace(/\n\s*\n/g, '\n').trimEnd(), '');
  else if (o.chart) lines.push(`![History cut against probes kept, one dot per session and strategy](${encodeURI(o.chart)})`, '');
  lines.push(...segmentsMarkdown(r, o));
  lines.push('## Sessions', '');
  ids(r).forEach((id, i) => lines.push(...sessionsBlock(r, id, o, i === 0)));
  lines.push('## Details', '', '<details>', '<summary>All figures per strategy</summary>', '', ...figuresTable(r), '', '</details>', '');
  lines.push('<details>', '<summary>Probes kept by kind</summary>', '', ...mdTable(['kind', ...ids(r)], PROBE_KINDS.map((k) => [k, ...ids(r).map((s) => kindCell(r.summary[s]!, k))])), '', '</details>', '');
  for (const t of roundTables(r)) lines.push('<details>', `<summary>${roundsTitle(t.id, t.rows.length)}</summary>`, '', ...mdTable(t.head, t.rows), '', '</details>', '');
  if (r.warnings.length) lines.push('## Warnings', '', ...r.warnings.map((w) => `- ${escapeMarkdown(w)}`), '');
  return lines.join('\n');
}

/** vendor: the comparison table, probes by kind (folded), and what each of the agent's compactions lost, worst first. */
function segmentsMarkdown(r: EvalReport, o: MarkdownOptions): string[] {
  const s = r.segments;
  if (!s) return [];
  const lines = [`## ${SEGMENTS_TITLE}`, ''];
  if (s.compactions === 0) return [...lines, `${escapeMarkdown(noSegments(r))}.`, ''];
  lines.push(escapeMarkdown(segmentsLine(s)), '', ...mdTable(SEGMENT_HEAD, segmentCells(s, pctCell).map((c) => [escapeMarkdown(c[0]!), ...c.slice(1)])), '');
  const kinds = segmentKindCells(s);
  if (kinds.length) lines.push('<details>', '<summary>Probes kept by kind on these segments</summary>', '', ...mdTable(['kind', ...s.strategies.map((x) => escapeMarkdown(segmentLabel(x)))], kinds), '', '</details>', '');
  return [...lines, ...sessionsBlock(r, 'vendor', o, false, true)];
}

const base = (f: string): string => f.replace(/^.*[\\/]/, '');
