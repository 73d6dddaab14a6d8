// The identifier memo a compaction scans under gives, text for text, the same identifiers as a fresh scan, with and
// without error lines, and in the same order (records list them in it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractIdentifiers, identifierText, withIdentifierMemo } from '../../../src/core/cleanup/identifiers';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';

const ids = (text: string, errorLines: boolean): string[] => {
  const out = new Set<string>();
  extractIdentifiers(text, out, { errorLines });
  return [...out];
};

test('memoized identifiers equal fresh ones on every long text of the real sessions, both flags, in order', async () => {
  const texts: string[] = [];
  for (const { file } of realTranscripts()) {
    const { session } = await readTranscriptFile(file);
    for (const m of session.messages) for (const b of m.blocks) if (identifierText(b).length >= 16_384) texts.push(identifierText(b));
  }
  assert.ok(texts.length >= 10, `${texts.length} long texts`);
  const fresh = texts.map((t) => [ids(t, false), ids(t, true)]);
  // An error line is an identifier only with the flag: some text must tell the two apart, or the check below is idle.
  assert.ok(fresh.some(([a, b]) => a!.length !== b!.length), 'a text whose error lines count');
  withIdentifierMemo(() => {
    for (let round = 0; round < 2; round++) {
      texts.forEach((t, i) => {
        // Flags in both orders over the rounds: a memo that ignored the flag would answer the other one's set.
        const flags = round === 0 ? [true, false] : [false, true];
        for (const f of flags) assert.deepEqual(ids(t, f), fresh[i]![f ? 1 : 0]);
      });
    }
  });
});
