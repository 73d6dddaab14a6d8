// `context-compactor compact FILE [--out PATH] [--keep-recent N] [--keep-recent-tokens N] [--no-summary] [--json]`.
import { renderCompactMarkdown } from '../core/compact/report';
import { compactFile } from '../node/compactFile';
import { TranscriptError } from '../node/readTranscriptFile';
import { parseArgs } from './args';
import type { CliIo } from './io';

const USAGE = 'usage: context-compactor compact FILE [--out PATH] [--keep-recent N] [--keep-recent-tokens N] [--no-summary] [--json]';

export async function runCompact(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, { out: 'value', 'keep-recent': 'value', 'keep-recent-tokens': 'value', 'no-summary': 'flag', json: 'flag' });
  if (!parsed.ok || parsed.positional.length !== 1) {
    io.stderr(`context-compactor compact: ${parsed.ok ? 'expected exactly one FILE' : parsed.error}\n${USAGE}\n`);
    return 2;
  }
  const keep = intOption(parsed.values['keep-recent'], 6);
  const keepTokens = intOption(parsed.values['keep-recent-tokens'], 0);
  if (keep === undefined || keepTokens === undefined) {
    io.stderr(`context-compactor compact: --keep-recent and --keep-recent-tokens take a whole number ≥ 0\n${USAGE}\n`);
    return 2;
  }
  try {
    const report = await compactFile(parsed.positional[0]!, { out: parsed.values.out, cleanup: { keepRecentTurns: keep, keepRecentTokens: keepTokens } });
    io.stdout(parsed.flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderCompactMarkdown(report));
    return 0;
  } catch (e) {
    if (e instanceof TranscriptError || (e instanceof Error && 'code' in e)) {
      io.stderr(`context-compactor: ${e.message.split('\n')[0]}\n`);
      return 2;
    }
    throw e;
  }
}

function intOption(v: string | undefined, dflt: number): number | undefined {
  if (v === undefined) return dflt;
  return /^\d+$/.test(v) ? Number(v) : undefined;
}
