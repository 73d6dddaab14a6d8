// `context-compactor inspect FILE [--json]`.
import { renderInspect } from '../core/inspect/renderText';
import { jsonText } from '../core/text/terminal';
import { inspectReport } from '../node/inspectFile';
import { TranscriptError } from '../node/readTranscriptFile';
import { parseArgs } from './args';
import { USAGES } from './help';
import type { CliIo } from './io';

export async function runInspect(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, { json: 'flag' });
  if (!parsed.ok || parsed.positional.length !== 1) {
    io.stderr(`context-compactor inspect: ${parsed.ok ? 'expected exactly one FILE' : parsed.error}\n${USAGES.inspect}\n`);
    return 2;
  }
  try {
    const report = await inspectReport(parsed.positional[0]!);
    io.stdout(parsed.flags.json ? `${jsonText(report)}\n` : renderInspect(report, false));
    return 0;
  } catch (e) {
    if (e instanceof TranscriptError) {
      io.stderr(`context-compactor: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
