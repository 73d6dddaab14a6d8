// Long lines nested deeper than MAX_DEPTH are pruned as text before JSON.parse; every other line parses as JSON.parse does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEPTH_CHECK_BYTES, MAX_DEPTH, parseLine, pruneDeep, pruneDeepText, TOO_DEEP } from '../../../src/core/read/safeJson';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { readText, runCore } from '../../support/fuzz';

const PAD = 'p'.repeat(DEPTH_CHECK_BYTES); // makes a line long enough to be checked
/** `pairs` arrays each holding an object: 2 × pairs levels of nesting. */
const nested = (pairs: number, inner = '0'): string => `${'[{"k":'.repeat(pairs)}${inner}${'}]'.repeat(pairs)}`;

test('long lines without deep nesting parse exactly as JSON.parse parses them (strings with quotes, backslashes, brackets)', () => {
  const tricky = [
    { s: 'a "quoted" [not] {an} array', t: 'ends in a backslash \\', u: '\\"', v: '\\\\"]]]}}}', w: 'é ✓ \u0000 \n' },
    [[[[[{ a: [1, 2, { b: '"]}' }] }]]]]],
    { deep: JSON.parse(nested(MAX_DEPTH / 2 - 1)) }, // with the line's object and this one: exactly MAX_DEPTH levels
  ];
  for (const value of tricky) {
    const line = JSON.stringify({ pad: PAD, value });
    assert.ok(line.length >= DEPTH_CHECK_BYTES);
    assert.ok(pruneDeepText(line) === undefined, 'nothing is pruned');
    let pruned = 0;
    assert.deepEqual(parseLine(line, () => pruned++), JSON.parse(line));
    assert.equal(pruned, 0);
  }
});

test('a long line nested deeper than MAX_DEPTH: the same value pruneDeep gives, and onPruned told once', () => {
  for (const pairs of [MAX_DEPTH / 2, 2_500, 500_000]) {
    const line = `{"pad":"${PAD}","a":${nested(pairs, '"[x]\\"{"')},"b":[1,"]"]}`;
    let pruned = 0;
    const value = parseLine(line, () => pruned++) as { a: unknown; b: unknown };
    assert.equal(pruned, 1, `${pairs} pairs`);
    assert.deepEqual(value.b, [1, ']']);
    if (pairs <= 2_500) assert.deepEqual(value, pruneDeep(JSON.parse(line)), `${pairs} pairs`);
    assert.ok(JSON.stringify(value).includes(JSON.stringify(TOO_DEEP)));
  }
});

test('text that is not JSON still fails as JSON.parse fails (unbalanced, unclosed string)', () => {
  for (const line of [`${'['.repeat(DEPTH_CHECK_BYTES)}`, `{"a":"${PAD}`, `${nested(2_000)}]]`]) {
    assert.throws(() => parseLine(line), SyntaxError);
  }
});

test('a Claude Code line with a 4 MB nested tool result: read with a warning naming the line; compact writes JSON that reads back', () => {
  const lines = readFileSync(CLAUDE_SAMPLE, 'utf8').trimEnd().split('\n');
  const at = lines.findIndex((l) => l.includes('"type":"tool_result"'));
  lines[at] = lines[at]!.replace('"type":"tool_result"', `"type":"tool_result","deep":${'['.repeat(2 ** 21)}${']'.repeat(2 ** 21)}`);
  const read = readText(`${lines.join('\n')}\n`);
  assert.ok(read.ok, read.ok ? '' : read.error);
  assert.ok(read.session.warnings.some((w) => w.includes(`nest deeper than ${MAX_DEPTH} levels`) && w.includes(`line ${at + 1}`)), JSON.stringify(read.session.warnings));
  const run = runCore(Buffer.from(`${lines.join('\n')}\n`));
  assert.ok(run.ok && run.outputSession, run.error);
});
