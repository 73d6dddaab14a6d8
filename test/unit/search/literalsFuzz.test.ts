// What a regex requires (core/search/literals.ts), tried against generated patterns: escapes (\x61, \u0062, \cJ,
// octal), classes, lookarounds, alternation in groups, every quantifier and its lazy form, non-ASCII letters that
// case-fold near ASCII (ſ, the Kelvin sign). Every text a pattern matches must hold each run it is said to require,
// or the index's filters would hide that match. Seeded: the same patterns every run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requiredRuns } from '../../../src/core/search/literals';
import { makeQuery } from '../../../src/core/search/match';

const ATOMS = [
  'a', 'b', 'c', 'd', 'ab', 'abcd', 'bcda', '\\.', '.', '\\x61', '\\u0062', '\\cJ', '\\0', '\\012', '\\n', '\\s', '\\b', '\\B',
  '\\d', '[ab]', '[^a]', '[]', '[^]', '(?:abcd|b)', '(abcd)', '(?=abcd)', '(?!abcd)', '(?<=ab)', '(?<!ab)', '|', '*', '+', '?',
  '{0}', '{2}', '{1,}', '{0,1}', '??', '*?', '^', '$', '\\Q', '\\E', '\\k', '\\p{L}', '\\-', '{', '}', ']', '\\/', 'ſ', 'K',
  '\u212A', 'é', '\\', ')', '(', '\\S', '\\w', '\\W', '\\D', '1', '2', '{,2}', '{2,1}',
];
const CHARS = 'abcdABCD.\n é-{}[]1x\u212Aſs/\\';

test('no generated pattern is said to require text that one of its matches lacks', () => {
  let seed = 7;
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  const texts: string[] = [];
  for (let i = 0; i < 3000; i++) {
    let t = '';
    for (let j = 1 + rnd(30); j > 0; j--) t += rnd(3) === 0 ? 'abcd'.slice(rnd(4)) : CHARS[rnd(CHARS.length)];
    texts.push(t);
  }
  let tried = 0, matched = 0;
  const wrong: string[] = [];
  for (let k = 0; k < 40_000 && wrong.length < 5; k++) {
    let p = '';
    for (let j = 1 + rnd(8); j > 0; j--) p += ATOMS[rnd(ATOMS.length)];
    const q = makeQuery(p, true);
    if (typeof q === 'string') continue;
    const runs = requiredRuns(q);
    if (runs.length === 0) continue;
    tried++;
    for (const t of texts) {
      q.re.lastIndex = 0;
      const m = q.re.exec(t);
      q.re.lastIndex = 0;
      if (!m) continue;
      matched++;
      const folded = t.replace(/[A-Z]/g, (c) => c.toLowerCase());
      const miss = runs.find((r) => !folded.includes(r));
      if (miss) { wrong.push(`${JSON.stringify(p)} requires ${JSON.stringify(miss)}, yet matches ${JSON.stringify(t)}`); break; }
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(tried > 1000 && matched > 10_000, `${tried} patterns with a required run, ${matched} matches checked`);
});
