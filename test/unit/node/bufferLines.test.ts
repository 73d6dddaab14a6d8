// BufferLines gives the same lines as the streaming splitter and decodes any one of them again on demand.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { BufferLines, forEachLine } from '../../../src/node/jsonlLines';
import { tmpDir } from '../../support/tmp';

const cases: Record<string, string> = {
  'final newline': '{"a":1}\n{"b":"é ✓ 😀"}\n',
  'no final newline': '{"a":1}\n{"b":2}',
  'CRLF and empty lines': '{"a":1}\r\n\r\n\n{"b":2}\r\n',
  'one line, no newline': '{"only":true}',
};

for (const [name, text] of Object.entries(cases)) {
  test(`BufferLines matches forEachLine: ${name}`, async (t) => {
    const file = `${tmpDir(t)}/f.jsonl`;
    fs.writeFileSync(file, text);
    const streamed: string[] = [];
    const s = await forEachLine(file, (l) => streamed.push(l));
    const whole: string[] = [];
    const lines = new BufferLines(fs.readFileSync(file));
    const w = lines.split((l) => whole.push(l));
    assert.deepEqual(whole, streamed);
    assert.equal(w.endsWithNewline, s.endsWithNewline);
    // Each line decodes again to the same text, in any order; outside the file there is nothing.
    for (let i = whole.length - 1; i >= 0; i--) assert.equal(lines.text(i), whole[i]);
    assert.equal(lines.text(whole.length), undefined);
    assert.equal(lines.text(-1), undefined);
  });
}

test('BufferLines keeps spans for more lines than its first allocation', () => {
  const text = Array.from({ length: 5000 }, (_, i) => `{"i":${i}}`).join('\n');
  const lines = new BufferLines(Buffer.from(text));
  let n = 0;
  lines.split(() => n++);
  assert.equal(n, 5000);
  assert.equal(lines.text(4999), '{"i":4999}');
  assert.equal(lines.text(2500), '{"i":2500}');
});
