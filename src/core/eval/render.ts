// The eval report as the seed's table (terminal) and as Markdown: table, probes per kind, worst files with why, chart.
import { codeSpan, escapeMarkdown } from '../text/markdown';
import { pctText, whyBad, worstRows } from './aggregate';
import { PROBE_KINDS, type EvalReport, type StrategyId, type StrategySummary } from './types';

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

function kindCell(s: StrategySummary, k: (typeof PROBE_KINDS)[number]): string {
  const t = s.probes[k];
  return t && t.total > 0 ? `${Math.round((t.kept / t.total) * 100)} % (${t.kept}/${t.total})` : '–';
}

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
  return `rolling: ${c.files} of ${ran} transcripts passed ${r.threshold.toLocaleString('en-US')} tokens of context (${c.compactions} compactions in all); the others never compacted and are unchanged (--threshold N).`;
}

function header(r: EvalReport): string {
  return `${r.files} transcript(s) · ${r.provider ? `provider ${r.provider.id} / ${r.provider.model}` : 'no provider (model strategies skipped)'} · ${sec(r.durationMs)}${r.interrupted ? ' · INTERRUPTED: rows hold what finished' : ''}`;
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
  return `${header(r)}\n\n${main}\n${notes}\n${kinds}${warn}\n`;
}

const mdRow = (c: readonly string[]): string => `| ${c.join(' | ')} |`;
const mdTable = (head: string[], rows: string[][]): string[] => [mdRow(head), mdRow(head.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(mdRow)];

/** The Markdown report; `chart` is the SVG file's name relative to the Markdown file. */
export function renderEvalMarkdown(r: EvalReport, chart?: string): string {
  const lines: string[] = ['# Compaction evaluation', '', escapeMarkdown(header(r)), ''];
  lines.push(...mdTable(HEAD, ids(r).map((s) => cells(s, r.summary[s]!))), '');
  for (const note of [rollingNote(r), resumeNote(r)]) if (note) lines.push(escapeMarkdown(note), '');
  lines.push('**accepted**: finished, tool pairs intact, not larger than the input, no fallback. **history cut**: 1 − after/before of the history (what compaction acts on). **probes kept**: facts a continuation needs — files modified, the last error (and its fix), the latest request, commands, ids and hashes, open todos, stated constraints, instruction-file rules — found in the output, found without a model.', '');
  if (chart) lines.push(`![History reduction vs probes kept, one dot per transcript and strategy](${encodeURI(chart)})`, '');
  lines.push('## Probes kept by kind', '', ...mdTable(['strategy', ...PROBE_KINDS], ids(r).map((s) => [s, ...PROBE_KINDS.map((k) => kindCell(r.summary[s]!, k))])), '');
  lines.push('## Worst files per strategy', '');
  for (const s of ids(r)) {
    const worst = worstRows(r.rows.filter((x) => x.strategy === s));
    lines.push(`### ${s}`, '');
    if (worst.length === 0) { lines.push('No rows ran (all skipped).', ''); continue; }
    lines.push(...mdTable(['file', 'history cut', 'probes kept', 'why'], worst.map((w) => [codeCell(base(w.file)), pctText(w.historyReduction), pctText(w.probesKept), escapeMarkdown(whyBad(w))])), '');
  }
  const skipped = r.rows.find((x) => x.status === 'skipped');
  if (skipped) lines.push(`Skipped rows: ${escapeMarkdown(skipped.skipped ?? '')}.`, '');
  if (r.warnings.length) lines.push('## Warnings', '', ...r.warnings.map((w) => `- ${escapeMarkdown(w)}`), '');
  return lines.join('\n');
}

const base = (f: string): string => f.replace(/^.*[\\/]/, '');
// A code span cannot hold a pipe inside a table cell; file names rarely have one, but they come from disk.
const codeCell = (s: string): string => (s.includes('|') ? escapeMarkdown(s) : codeSpan(s));
