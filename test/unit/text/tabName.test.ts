// Virtual documents about a session are named by its title (the tab label), never by its file's UUID.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tabName } from '../../../src/core/text/tabName';

test('a title names the tab as is when it is short and one line', () => {
  assert.equal(tabName('my screen saver comes up way to fast'), 'my screen saver comes up way to fast');
});

test('separators and line breaks become spaces: the name stays one file name, not folders', () => {
  assert.equal(tabName('fix src/core\\cleanup\nthen run\ttests'), 'fix src core cleanup then run tests');
});

test('a long first prompt is cut with an ellipsis at the limit', () => {
  const name = tabName('x'.repeat(200), 60);
  assert.equal(name.length, 60);
  assert.ok(name.endsWith('…'));
});

test('an empty or blank title still gives a name', () => {
  assert.equal(tabName(' \n '), 'session');
});
