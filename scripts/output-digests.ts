// Digests of what compaction and inspect produce on every session of test/fixtures and the bench's files, so a speed
// change can show its outputs unchanged: run it before and after, then diff the two files.
//   npx tsx scripts/output-digests.ts OUT.json [FOLDER...]   (more folders of sessions, e.g. /work/shared/corpus)
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { benchFile } from '../bench/data';
import { compactSession } from '../src/core/compact/compactSession';
import { buildInspectReport } from '../src/core/inspect/inspectReport';
import { stringifySafe } from '../src/core/read/safeJson';
import { serializeLines } from '../src/core/write/serialize';
import { readTranscriptFile } from '../src/node/readTranscriptFile';
import { sessionFiles } from './lib/sessionFiles';

const digest = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** The inspect report, and for two protected sizes the written session and its figures (fixed ids and time). */
async function digestsOf(file: string, name: string): Promise<Record<string, string>> {
  const { session, bytes } = await readTranscriptFile(file, { keepRaw: true });
  const row: Record<string, string> = { inspect: digest(JSON.stringify(buildInspectReport((await readTranscriptFile(file)).session, { path: name, bytes }))) };
  for (const keep of [2, 6]) {
    let n = 0;
    const o = compactSession(session, { keepRecentTurns: keep }, { newId: () => `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`, now: () => new Date(0) });
    const w = o.written;
    row[`written${keep}`] = digest(w.kind === 'lines' ? [...serializeLines(w.lines)].join('') : w.kind === 'handoff' ? w.markdown : JSON.stringify(w.files));
    row[`figures${keep}`] = digest(stringifySafe(o.figures));
  }
  return row;
}

async function main(out: string | undefined, folders: readonly string[]): Promise<void> {
  if (!out) throw new Error('usage: npx tsx scripts/output-digests.ts OUT.json [FOLDER...]');
  const fixtures = join(__dirname, '..', 'test', 'fixtures');
  const files = [...sessionFiles(fixtures).sort(), await benchFile('claude-8mb.jsonl'), await benchFile('codex-4mb.jsonl')];
  const extra = folders.flatMap((d) => sessionFiles(d).sort().map((f) => ({ f, name: `${basename(d)}/${relative(d, f)}` })));
  const rows: Record<string, unknown> = {};
  // Named from where they are kept (the report and the errors too), so two checkouts' files compare.
  for (const { f, name } of [...files.map((f) => ({ f, name: f.startsWith(fixtures) ? relative(fixtures, f) : `bench/${basename(f)}` })), ...extra]) {
    // A file that is no session (a request log, a store's member) is listed with its one-line error: that must not change either.
    rows[name] = await digestsOf(f, name).catch((e: unknown) => ({ error: (e as Error).message.split('\n')[0]!.split(f).join(name) }));
  }
  writeFileSync(out, `${JSON.stringify(rows, null, 1)}\n`);
  const failed = Object.values(rows).filter((r) => 'error' in (r as object)).length;
  const count = files.length + extra.length;
  process.stdout.write(`${count} files, ${count - failed} sessions digested → ${out}\n`);
}

main(process.argv[2], process.argv.slice(3)).catch((e: unknown) => { process.stderr.write(`${(e as Error).message}\n`); process.exit(2); });
