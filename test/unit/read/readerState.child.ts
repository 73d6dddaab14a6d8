// Child of readerState.test.ts: digests of the reads named in argv (each "MODE PATH"), in order, one JSON line each.
import { createHash } from 'node:crypto';
import { buildInspectReport } from '../../../src/core/inspect/inspectReport';
import { readTranscriptFile, type ReadFileOptions } from '../../../src/node/readTranscriptFile';

/** What a read gives, as text: the session (its kept line texts included) and, for inspect's read, the report. */
export async function readDigest(mode: string, path: string): Promise<string> {
  const options: ReadFileOptions = mode === 'raw' ? { keepRaw: true } : mode === 'lean' ? { previewTexts: true } : {};
  const { session, bytes } = await readTranscriptFile(path, options);
  const lines = session.records.map((_r, i) => session.rawLines?.text(i));
  const { rawLines: _kept, ...rest } = session;
  const text = JSON.stringify({ ...rest, lines, report: mode === 'lean' ? buildInspectReport(session, { path, bytes }) : undefined },
    (_k, v: unknown) => (v instanceof Set ? [...v as Set<unknown>] : v instanceof Map ? [...v as Map<unknown, unknown>] : v));
  return createHash('sha256').update(text).digest('hex');
}

async function main(): Promise<void> {
  for (const arg of process.argv.slice(2)) {
    const space = arg.indexOf(' ');
    process.stdout.write(`${JSON.stringify({ arg, digest: await readDigest(arg.slice(0, space), arg.slice(space + 1)) })}\n`);
  }
}

if (process.argv[1]?.endsWith('readerState.child.ts')) void main();
