// What a session read from whole lines is, to compare a read that leaves an unread field out (node/unreadField.ts).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { compactSession } from '../../src/core/compact/compactSession';
import { FORMAT_READERS } from '../../src/core/formats/registry';
import type { Session } from '../../src/core/model/transcript';
import { createTranscriptReader } from '../../src/core/read/transcriptReader';
import { serializeLines } from '../../src/core/write/serialize';

/** The session the whole lines give: the core reader fed every line as it is, nothing cut. */
export function wholeLines(path: string): Session {
  const text = fs.readFileSync(path, 'utf8');
  const reader = createTranscriptReader(FORMAT_READERS, { keepRaw: false, path });
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  for (const l of lines) reader.push(l);
  const out = reader.end(endsWithNewline);
  assert.ok(out.ok, out.ok ? '' : out.error);
  return out.session;
}

/** What a reader's caller sees of a session. */
export const seen = (s: Session): unknown => ({ messages: s.messages, turns: s.turns, warnings: s.warnings, title: s.title, id: s.id, cwd: s.cwd, models: s.models, extra: s.extra, recordedContext: s.recordedContext, contextWindow: s.contextWindow });

/** The bytes compactSession writes for `session`, with fixed ids and clock. */
export function compacted(session: Session): string {
  let k = 0;
  const outcome = compactSession(session, { keepRecentTurns: 1 }, { newId: () => `00000000-0000-4000-8000-${String(k++).padStart(12, '0')}`, now: () => new Date(0) });
  const w = outcome.written;
  return w.kind === 'lines' ? [...serializeLines(w.lines)].join('') : JSON.stringify(w);
}
