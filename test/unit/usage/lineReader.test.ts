// Chunked line reader: lines across chunk boundaries, oversized lines, half-written tails, offsets.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readLines } from '../../../src/node/usage/lineReader';
import { tempDir } from './helpers';

test('lines spanning chunks are joined, oversized ones skipped, a half-written tail left for later', async (t) => {
  const file = join(tempDir(t), 'x.jsonl');
  const long = 'b'.repeat(100); // spans several 16-byte chunks
  const huge = 'c'.repeat(300); // over the 200-byte limit
  const text = `a1\n${long}\n${huge}\n\nd4\n{"half":`;
  writeFileSync(file, text);
  const seen: string[] = [];
  const counters = { bytesRead: 0 };
  const r = await readLines(file, 0, (l) => { seen.push(l.toString()); }, counters, 200, 16);
  assert.deepEqual(seen, ['a1', long, '', 'd4']);
  assert.equal(r.oversizedLines, 1);
  assert.equal(r.endOffset, text.length - '{"half":'.length);
  assert.equal(counters.bytesRead, text.length);
  const again: string[] = [];
  writeFileSync(file, `${text}1}\n`);
  const r2 = await readLines(file, r.endOffset, (l) => { again.push(l.toString()); }, counters, 200, 16);
  assert.deepEqual(again, ['{"half":1}']);
  assert.equal(r2.endOffset, text.length + 3);
});
