// The pure parts of search: which patterns are refused, matching, and snippets safe for a terminal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import { searchEntries } from '../../../src/core/search/extract';
import { findAll, makeQuery, type Query } from '../../../src/core/search/match';
import { snippet } from '../../../src/core/search/snippet';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';

test('regex: nested quantifiers and backreferences are refused, ordinary patterns pass', () => {
  for (const bad of ['(a+)+', '(a*)*b', '((ab)+)+', '(\\w+\\s?)*$', '(.*a){2,}', '(a)\\1', '(?<x>a)\\k<x>', '', 'a?']) {
    assert.equal(typeof makeQuery(bad, true), 'string', bad);
  }
  for (const ok of ['provision\\w+', 'foo|bar', '(foo|bar)+', '(?:ab){3}', 'a[(+)]+', 'x\\(a+\\)+', '\\d{2,4}-\\d+']) {
    assert.notEqual(typeof makeQuery(ok, true), 'string', ok);
  }
  assert.match(makeQuery('(', true) as string, /^invalid regex/);
});

test('a literal query is case-insensitive and takes regex characters literally', () => {
  const q = makeQuery('A.B(', false) as Query;
  assert.deepEqual(findAll(q, 'xa.b( a_b( A.B(', 10), [[1, 5], [11, 15]]);
  assert.deepEqual(findAll(q, 'a.b(a.b(', 1), [[0, 4]]);
});

test('a snippet is one line without terminal or bidi controls, the match marked', () => {
  const text = `${'word '.repeat(40)}\x1b]52;c;Zm9v\x07 before \u202eevil\u202c NEEDLE after\r\nnext\x9b2J ${'tail '.repeat(40)}`;
  const at = text.indexOf('NEEDLE');
  const s = snippet(text, at, at + 6);
  assert.doesNotMatch(s.text, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  assert.equal(s.text.slice(s.start, s.end), 'NEEDLE');
  assert.ok(s.text.startsWith('…') && s.text.endsWith('…'));
  assert.ok(s.text.length < 160);
});

test('extraction labels every kind from a real session (reasoning, calls, results, prompts, replies)', async () => {
  const { session } = await readTranscriptFile(resolve(__dirname, '../../fixtures/real/cline/online-card-3.51.0-vscode'));
  const kinds = new Set(searchEntries(session).map((e) => e.kind));
  assert.deepEqual([...kinds].sort(), ['prompt', 'reasoning', 'reply', 'tool call', 'tool result']);
  for (const e of searchEntries(session)) assert.ok(e.message >= 0 && e.message < session.messages.length);
});
