// The identifier scanner jumps between the characters a token that can be an identifier must hold (a regex search)
// instead of classifying every character: on every text of the real sessions it gives what a walk over every token gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classify, extractIdentifiers, identifierText, stripAnsi } from '../../../src/core/cleanup/identifiers';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';

/** Every token (a run between delimiters) in order, kept when its shape can be an identifier: the scan before the jump. */
function everyToken(text: string): string[] {
  const sample = stripAnsi(text.length > 400_000 ? text.slice(0, 200_000) + '\n' + text.slice(-200_000) : text);
  const own = new Set<string>();
  for (const tok of sample.split(/[ \t\n\r\f\v"'`<>()[\]{},;|=*!?\\^$]+/)) {
    if (tok.length < 4) continue;
    const shaped = tok.includes('/') || (tok.includes('_') && tok.length >= 6) || (/^[0-9a-f-]+$/.test(tok) && /\d/.test(tok) && tok.length >= 7) || /^E[A-Z0-9_]*$/.test(tok);
    const id = shaped ? classify(tok) : undefined;
    if (id) { own.add(id); if (own.size >= 400) break; }
  }
  return [...own];
}

const scanned = (text: string): string[] => {
  const out = new Set<string>();
  extractIdentifiers(text, out);
  return [...out];
};

test('the scanner finds, in order, the identifiers of a walk over every token, on every text of the real sessions', async () => {
  let texts = 0, found = 0;
  for (const { file, label } of realTranscripts()) {
    const { session } = await readTranscriptFile(file);
    for (const m of session.messages) {
      for (const b of m.blocks) {
        const text = identifierText(b);
        const want = everyToken(text);
        assert.deepEqual(scanned(text), want, `${label}: ${text.slice(0, 120)}`);
        texts++; found += want.length;
      }
    }
  }
  assert.ok(texts > 5000 && found > 7_000, `${texts} texts, ${found} identifiers`);
});

test('tokens at the edges, after every delimiter, and codes that start with E', () => {
  const text = 'src/a.ts ENOENT,ERR_X_Y(0123abcd9)[EACCES]{/usr/lib/x}"toolu_abc123"`EPERM`|x/y.js|E12_ABCD=Eabc E abcdef0';
  assert.deepEqual(scanned(text), everyToken(text));
  assert.deepEqual(scanned(text), ['src/a.ts', 'ENOENT', 'ERR_X_Y', '0123abcd9', 'EACCES', '/usr/lib/x', 'toolu_abc123', 'EPERM', 'x/y.js', 'E12_ABCD', 'abcdef0']);
});

test('a digit stops the jump only beside a hex letter or a dash: hex words and UUIDs anywhere in them, never digits alone', () => {
  // The digit first, last, alone in the middle, beside a dash only; UUIDs with one digit at either end; digits alone.
  const text = '1abcdef abcdef1 abc1def 1234567 12345678:9 x/1 2024-01-15 1bcdefab-abcd-abcd-abcd-abcdefabcdef abcdefab-abcd-abcd-abcd-abcdefabcde1 abcdefab-abcd-abcd-abcd-abcdefabcdef a1234567b\t42\t1234567890abc';
  assert.deepEqual(scanned(text), everyToken(text));
  assert.deepEqual(scanned(text), ['1abcdef', 'abcdef1', 'abc1def', '1bcdefab-abcd-abcd-abcd-abcdefabcdef', 'abcdefab-abcd-abcd-abcd-abcdefabcde1', 'a1234567b', '1234567890abc']);
});

test('a slash stops the jump only beside another character of its token, an underscore only after a capital, a digit or an id prefix', () => {
  // Slashes alone (comments, division, a run of them), beside a letter at either end, a URL's; underscores of
  // snake_case words and of every id prefix and code in capitals, first or after another underscore.
  const text = '// x / y /// a/ /b ////x https://h.io/p x_/y.ts snake_case_name __dunder__ toolu_abc123 call_abcdef msg_abcdef req_abcdef resp_abcdef fc_abcdef1 rs_abcdef srvtoolu_abcdef ERR_BAD_X FOO__BAR X9_ABC E_ABCD tool_abcdef __FOO_BAR';
  assert.deepEqual(scanned(text), everyToken(text));
  assert.deepEqual(scanned(text), ['https://h.io/p', 'x_/y.ts', 'toolu_abc123', 'call_abcdef', 'msg_abcdef', 'req_abcdef', 'resp_abcdef', 'fc_abcdef1', 'rs_abcdef', 'srvtoolu_abcdef', 'ERR_BAD_X', 'FOO__BAR', 'X9_ABC']);
});

test('the scan stops at 400 identifiers per text, at the same one', () => {
  const text = Array.from({ length: 600 }, (_, i) => `pkg/file${i}.ts word`).join(' ');
  const ids = scanned(text);
  assert.equal(ids.length, 400);
  assert.deepEqual(ids, everyToken(text));
  assert.equal(ids[399], 'pkg/file399.ts');
});
