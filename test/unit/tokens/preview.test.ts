// preview() must equal the whole-text normalisation it replaced, whatever the whitespace layout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { preview } from '../../../src/core/tokens/composition';

const reference = (raw: string): string => {
  const one = raw.replace(/\s+/g, ' ').trim();
  return one.length > 100 ? `${one.slice(0, 99)}…` : one;
};

test('preview matches collapsing the whole text, on long runs of whitespace and surrogates', () => {
  const pieces = ['a', 'bc', ' ', '  ', '\n', '\t\r\n', ' '.repeat(500), '\u00a0', '😀', 'é', 'x'.repeat(90), '\u2028'];
  let seed = 7;
  const rand = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let i = 0; i < 3000; i++) {
    let s = '';
    const parts = rand(60);
    for (let j = 0; j < parts; j++) s += pieces[rand(pieces.length)];
    assert.equal(preview(s), reference(s), JSON.stringify(s));
  }
  assert.equal(preview(''), '');
  assert.equal(preview(`${' '.repeat(5000)}${'y'.repeat(200)}`), reference(`${' '.repeat(5000)}${'y'.repeat(200)}`));
});
