// `context-compactor export FILE --markdown [--out PATH]`: any supported transcript as a readable Markdown document.
import { renderReadable } from '../core/compact/renderReadable';
import { agentModule } from '../core/formats/registry';
import { OutputError, writeFileAtomic } from '../node/atomicWrite';
import { sessionFiles } from '../node/write/sessionFiles';
import { readTranscriptFile, TranscriptError } from '../node/readTranscriptFile';
import { parseArgs } from './args';
import { USAGES } from './help';
import type { CliIo } from './io';

const USAGE = USAGES.export;

export async function runExport(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, { markdown: 'flag', out: 'value' });
  const fail = (msg: string): number => { io.stderr(`context-compactor export: ${msg}\n${USAGE}\n`); return 2; };
  if (!parsed.ok) return fail(parsed.error);
  if (parsed.positional.length !== 1) return fail('expected exactly one FILE');
  if (!parsed.flags.markdown) return fail('say which format: --markdown');
  try {
    const { session } = await readTranscriptFile(parsed.positional[0]!);
    const title = `${agentModule(session.format).label} session ${session.id}${session.title ? ` — ${session.title}` : ''}`;
    const markdown = renderReadable(session, title, Number.MAX_SAFE_INTEGER);
    if (parsed.values.out) await writeFileAtomic(parsed.values.out, [markdown], { protect: sessionFiles(parsed.positional[0]!) });
    // For a pipe or a file, the document byte for byte (as --out writes it); on a terminal, with its controls inert.
    else (process.stdout.isTTY ? io : (io.raw ?? io)).stdout(markdown);
    return 0;
  } catch (e) {
    if (e instanceof TranscriptError || e instanceof OutputError) { io.stderr(`context-compactor: ${e.message.split('\n')[0]}\n`); return 2; }
    throw e;
  }
}
