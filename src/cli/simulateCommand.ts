// `context-compactor simulate FILE --threshold N --keep-recent N [--summary-tokens N] [--no-summary] [--json]`.
import { DEFAULT_POLICY, simulate, type Simulation } from '../core/simulate/simulate';
import { jsonText } from '../core/text/terminal';
import { readTranscriptFile, TranscriptError } from '../node/readTranscriptFile';
import { parseArgs } from './args';
import { USAGES } from './help';
import type { CliIo } from './io';

const USAGE = USAGES.simulate;

export async function runSimulate(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, { threshold: 'value', 'keep-recent': 'value', 'summary-tokens': 'value', 'no-summary': 'flag', json: 'flag' });
  const fail = (m: string): number => { io.stderr(`context-compactor simulate: ${m}\n${USAGE}\n`); return 2; };
  if (!parsed.ok) return fail(parsed.error);
  if (parsed.positional.length !== 1) return fail('expected exactly one FILE');
  const num = (k: string, d: number): number | undefined => (parsed.values[k] === undefined ? d : /^\d+$/.test(parsed.values[k]!) ? Number(parsed.values[k]) : undefined);
  const threshold = num('threshold', DEFAULT_POLICY.threshold), keep = num('keep-recent', DEFAULT_POLICY.keepRecentTurns), st = num('summary-tokens', DEFAULT_POLICY.summaryTokens);
  if (threshold === undefined || keep === undefined || st === undefined || threshold === 0) return fail('numeric options take a whole number (threshold > 0)');
  try {
    const { session } = await readTranscriptFile(parsed.positional[0]!);
    const sim = simulate(session, { threshold, keepRecentTurns: keep, summaryTokens: st, summary: !parsed.flags['no-summary'] });
    io.stdout(parsed.flags.json ? `${jsonText(sim)}\n` : renderSimulation(sim));
    return 0;
  } catch (e) {
    if (e instanceof TranscriptError) { io.stderr(`context-compactor: ${e.message}\n`); return 2; }
    throw e;
  }
}

function renderSimulation(s: Simulation): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const t = s.totals;
  const saved = t.billedInputWithout > 0 ? (1 - t.billedInputWith / t.billedInputWithout) * 100 : 0;
  const lines = [
    `Rolling compaction at ${n(s.threshold)} tokens: ${t.compactions} compaction(s) over ${s.turns.length} requests`,
    `billed input: ${n(t.billedInputWithout)} without → ${n(t.billedInputWith)} with (${saved.toFixed(1)} % less); peak context ${n(t.peakWithout)} → ${n(t.peakWith)}`,
    '', 'turn   context  with policy',
  ];
  const step = Math.max(1, Math.ceil(s.turns.length / 40));
  s.turns.forEach((x, i) => { if (i % step === 0 || x.compacted || i === s.turns.length - 1) lines.push(`${String(x.index).padStart(4)} ${n(x.contextTokens).padStart(9)} ${n(x.contextTokensWithPolicy).padStart(12)}${x.compacted ? '  ← compacted' : ''}`); });
  return lines.join('\n') + '\n';
}
