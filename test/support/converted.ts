// A session compacted --to another agent, as the tests of the conversion read it back: the target's own reading of the
// written file, or (Claude Code) where its compact_boundary, summary and a prompt sit among the written records.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentId } from '../../src/core/model/ids';
import type { Session } from '../../src/core/model/transcript';
import { compactTranscript, writeCompaction } from '../../src/node/compactFile';
import { readTranscriptFile } from '../../src/node/readTranscriptFile';
import { tmpDir } from './tmp';

/** `source` compacted (six recent turns kept) for `to`, written under a fresh home, then read as `to`'s session. */
export async function convertedSession(t: Parameters<typeof tmpDir>[0], source: string, to: AgentId): Promise<Session> {
  const dir = tmpDir(t);
  const p = await compactTranscript(source, { cleanup: { keepRecentTurns: 6 }, to, env: { HOME: dir } });
  const out = path.join(dir, 'chats', path.basename(p.defaultOut));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await writeCompaction(p, out);
  return (await readTranscriptFile(out)).session;
}

/** In a written Claude Code file: the indexes of the compact_boundary, the compact summary and the first prompt `typed` accepts. */
export function claudeSummaryOrder(file: string, typed: (said: string) => boolean): [number, number, number] {
  const records = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; subtype?: string; isCompactSummary?: boolean; message?: { content?: unknown } });
  const said = (r: (typeof records)[number]): string => (typeof r.message?.content === 'string' ? r.message.content : '');
  return [
    records.findIndex((r) => r.subtype === 'compact_boundary'),
    records.findIndex((r) => r.isCompactSummary === true),
    records.findIndex((r) => r.type === 'user' && !r.isCompactSummary && typed(said(r))),
  ];
}

/** The compact summary's words in a written Claude Code file. */
export function claudeSummaryText(file: string): string {
  const rec = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { isCompactSummary?: boolean; message?: { content?: unknown } }).find((r) => r.isCompactSummary === true);
  return typeof rec?.message?.content === 'string' ? rec.message.content : '';
}
