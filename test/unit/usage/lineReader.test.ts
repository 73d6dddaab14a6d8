// Chunked line reader: lines across chunk boundaries, oversized lines, half-written tails, offsets, shared read buffers.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lendBuffer, readLines } from '../../../src/node/usage/lineReader';
import { scanMarkedLines } from '../../../src/node/usage/markedLines';
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

test('read buffers are lent out one per reader and reused once given back', () => {
  const a = lendBuffer(64 << 10);
  const b = lendBuffer(64 << 10);
  assert.notEqual(a.buf.buffer, b.buf.buffer, 'two readers at once never share a buffer');
  a.buf.fill(1);
  b.buf.fill(2);
  assert.equal(a.buf[0], 1);
  a.release();
  b.release();
  const c = lendBuffer(1 << 20);
  assert.ok(c.buf.buffer === a.buf.buffer || c.buf.buffer === b.buf.buffer, 'a returned buffer is used again');
  assert.equal(c.buf.length, 1 << 20);
  const big = lendBuffer(3 << 20);
  assert.equal(big.buf.length, 3 << 20);
  c.release();
  big.release();
});

test('two scans interleaving (each yields every 8 MB) read their own files, line for line', async (t) => {
  const dir = tempDir(t);
  const make = (name: string, tag: string): { file: string; lines: string[] } => {
    // ~10 MB each: both readers pause at least once with a chunk of their own in hand.
    const lines = Array.from({ length: 40_000 }, (_, i) => `{"${tag}":${i},"pad":"${tag.repeat(240)}"}`);
    const file = join(dir, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return { file, lines };
  };
  const x = make('x.jsonl', 'x');
  const y = make('y.jsonl', 'y');
  const read = async (f: string): Promise<string[]> => {
    const got: string[] = [];
    await readLines(f, 0, (l) => { got.push(l.toString()); }, { bytesRead: 0 });
    return got;
  };
  const marked = async (f: string): Promise<string[]> => {
    const got: string[] = [];
    await scanMarkedLines(f, 0, [Buffer.from('"pad"')], (buf, s, e) => { got.push(buf.toString('utf8', s, e)); }, { bytesRead: 0 });
    return got;
  };
  const [rx, my, ry, mx] = await Promise.all([read(x.file), marked(y.file), read(y.file), marked(x.file)]);
  assert.deepEqual(rx, x.lines);
  assert.deepEqual(ry, y.lines);
  assert.deepEqual(mx, x.lines);
  assert.deepEqual(my, y.lines);
});
