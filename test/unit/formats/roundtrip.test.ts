// read → write without changes reproduces each real file byte for byte.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { serializeLines, unchangedLines } from '../../../src/core/write/serialize';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

for (const file of [CLAUDE_SAMPLE, CODEX_SAMPLE]) {
  // Line texts kept as the file's bytes (the default) or as one string per line.
  for (const [how, lineStore] of [['bytes', 'bytes'], ['strings', 'strings']] as const) {
    test(`round trip is byte-exact (${how}): ${file.split('/').slice(-2).join('/')}`, async () => {
      const { session } = await readTranscriptFile(file, { keepRaw: true, lineStore });
      assert.equal(session.rawLines === undefined, how === 'strings');
      assert.equal(session.records.some((r) => r.raw !== undefined), how === 'strings');
      const out = [...serializeLines(unchangedLines(session), session.endsWithNewline)].join('');
      assert.ok(Buffer.from(out).equals(fs.readFileSync(file)));
    });
  }
}

test('round trip keeps a missing final newline and CRLF line endings', async (t) => {
  const file = `${tmpDir(t)}/crlf.jsonl`;
  const original = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').trimEnd().split('\n').slice(0, 30).join('\r\n');
  fs.writeFileSync(file, original);
  const { session } = await readTranscriptFile(file, { keepRaw: true });
  assert.equal([...serializeLines(unchangedLines(session), session.endsWithNewline)].join(''), original);
});
