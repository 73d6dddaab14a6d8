// KeptLines gives the same lines as the streaming splitter and decodes any one of them again on demand.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { forEachLine, KeptLines } from '../../../src/node/jsonlLines';
import { tmpDir } from '../../support/tmp';

// Lines over 1 MB cross the 1 MB read chunks; the multi-byte characters make a chunk end mid-character.
const long = `{"big":"${'é✓😀x'.repeat(200_000)}"}`;
const cases: Record<string, string> = {
  'final newline': '{"a":1}\n{"b":"é ✓ 😀"}\n',
  'no final newline': '{"a":1}\n{"b":2}',
  'CRLF and empty lines': '{"a":1}\r\n\r\n\n{"b":2}\r\n',
  'one line, no newline': '{"only":true}',
  'lines spanning read chunks': `{"a":1}\n${long}\n{"b":2}\n${long}${long}\n${long}`,
};

for (const [name, text] of Object.entries(cases)) {
  test(`KeptLines matches forEachLine: ${name}`, async (t) => {
    const file = `${tmpDir(t)}/f.jsonl`;
    fs.writeFileSync(file, text);
    const streamed: string[] = [];
    const s = await forEachLine(file, (l) => streamed.push(l));
    const seen: string[] = [];
    const { lines, endsWithNewline } = await KeptLines.read(file, (l) => seen.push(l));
    assert.deepEqual(seen, streamed);
    assert.equal(endsWithNewline, s.endsWithNewline);
    assert.equal(lines.length, seen.length);
    // Each line decodes again to the same text, in any order; outside the file there is nothing.
    for (let i = seen.length - 1; i >= 0; i--) assert.equal(lines.text(i), seen[i]);
    assert.equal(lines.text(seen.length), undefined);
    assert.equal(lines.text(-1), undefined);
  });
}

test('KeptLines keeps spans for more lines than its first allocation', async (t) => {
  const file = `${tmpDir(t)}/many.jsonl`;
  fs.writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `{"i":${i}}`).join('\n'));
  let n = 0;
  const { lines } = await KeptLines.read(file, () => n++);
  assert.equal(n, 5000);
  assert.equal(lines.text(4999), '{"i":4999}');
  assert.equal(lines.text(2500), '{"i":2500}');
});
