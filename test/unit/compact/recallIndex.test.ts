// Identifier recall through one substring index of the output gives what one includes() per identifier gave, on
// every real transcript; the index itself answers exactly as includes() does, hits and misses alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockIdentifiers, identifierText } from '../../../src/core/cleanup/identifiers';
import { folderOf, relativeTo } from '../../../src/core/cleanup/listing';
import { identifierRecall } from '../../../src/core/compact/fidelity';
import { findSubstrings } from '../../../src/core/compact/substringIndex';
import type { Block, Message } from '../../../src/core/model/transcript';
import { prepareCompaction } from '../../../src/node/compactFile';
import { realTranscripts } from '../../support/corpus';

/** The computation fidelity.ts made before the index: a set lookup, then includes() over the joined output. */
function recallByIncludes(changed: readonly Block[], output: readonly Message[], cwd?: string): { recall: number; total: number; missing: string[] } {
  const folder = folderOf(cwd);
  const ids = new Set<string>();
  for (const b of changed) if (b.type !== 'reasoning' || b.tokens > 0) for (const id of blockIdentifiers(b)) ids.add(id);
  if (ids.size === 0) return { recall: 1, total: 0, missing: [] };
  const present = new Set<string>();
  const parts: string[] = [''];
  for (const m of output) for (const b of m.blocks) { parts.push(identifierText(b)); for (const id of blockIdentifiers(b)) present.add(id); }
  const haystack = parts.join('\n');
  const missing = [...ids].filter((id) => !present.has(id) && !present.has(relativeTo(folder, id)) && !haystack.includes(relativeTo(folder, id)));
  return { recall: 1 - missing.length / ids.size, total: ids.size, missing: missing.slice(0, 50) };
}

test('recall through the index equals recall through includes() on every real transcript, and the index answers as includes()', async () => {
  let hits = 0, misses = 0, withMissing = 0;
  for (const { file, label } of realTranscripts()) {
    const { original, outcome } = await prepareCompaction(file, { keepRecentTurns: 6 });
    const changed = outcome.cleanup.changedOriginals;
    const output = outcome.result.messages;
    const got = identifierRecall(changed, output, '', original.cwd);
    assert.deepEqual(got, recallByIncludes(changed, output, original.cwd), `${label}: recall`);
    if (got.missing.length > 0) withMissing++;
    // Every identifier of the original (whole and cut), searched in the output text: the index agrees with includes().
    const text = ['', ...output.flatMap((m) => m.blocks.map(identifierText))].join('\n');
    const folder = folderOf(original.cwd);
    const patterns = original.messages.flatMap((m) => m.blocks.flatMap((b) => blockIdentifiers(b).flatMap((id) => [relativeTo(folder, id), id.slice(1), id.slice(0, -1), `${id}#`, id.slice(0, 3)])));
    const found = findSubstrings(text, patterns);
    patterns.forEach((p, i) => {
      const want = text.includes(p);
      assert.equal(found[i], want, `${label}: ${JSON.stringify(p)}`);
      if (want) hits++; else misses++;
    });
  }
  // The corpus exercises both answers, and recall that finds some identifiers missing.
  assert.ok(hits > 1000 && misses > 1000, `hits ${hits}, misses ${misses}`);
  assert.ok(withMissing > 0, 'some transcript loses an identifier');
});

test('the index finds a pattern at the very start and end, in a text shorter than a gram, and in two-byte text', () => {
  const text = 'abcdef → ghij/klm.ts xyz';
  const all: string[] = [];
  for (let i = 0; i < text.length; i++) for (let j = i + 1; j <= text.length; j++) all.push(text.slice(i, j));
  assert.ok(findSubstrings(text, all).every(Boolean));
  assert.deepEqual(findSubstrings(text, ['abcdeg', 'xyzz', ' xyz ', 'klm.tsx', '→→', 'q']), [false, false, false, false, false, false]);
  assert.deepEqual(findSubstrings('ab', ['abcd', 'ab']), [false, true]);
  assert.deepEqual(findSubstrings('', ['abcd']), [false]);
});

test('a text past the kept arrays\' size, then a small one again: the answers do not mix', () => {
  const big = Array.from({ length: 40_000 }, (_, i) => `f${i}.ts`).join(' ');
  assert.ok(big.length > 1 << 18);
  assert.deepEqual(findSubstrings(big, ['f39999.ts f', 'f40000.ts', 'f123.ts f124.ts']), [false, false, true]);
  assert.deepEqual(findSubstrings('src/a.ts', ['f123.ts', 'src/a', 'a.ts']), [false, true, true]);
  assert.deepEqual(findSubstrings(big.slice(0, 5000), ['f99.ts f100', 'f39998.ts']), [true, false]);
});
