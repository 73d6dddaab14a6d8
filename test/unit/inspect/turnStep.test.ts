// The per-turn table of a long session shows every Nth turn, said in English: real Claude Code sessions of 43–159
// turns printed "(every 2th turn of … shown)" and "every 3th".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderInspect } from '../../../src/core/inspect/renderText';
import { inspectReport } from '../../../src/node/inspectFile';
import { realTranscripts } from '../../support/corpus';

test('the per-turn step reads as an ordinal (2nd, 3rd, 4th)', async () => {
  const suffixes = new Set<string>();
  for (const { file, label } of realTranscripts().filter((f) => f.agent === 'claude-code')) {
    const step = /\(every (\d+)(\w\w) turn of (\d+) shown\)/.exec(renderInspect(await inspectReport(file), false));
    if (!step) continue;
    const n = Number(step[1]);
    assert.equal(step[2], n === 2 ? 'nd' : n === 3 ? 'rd' : 'th', `${label}: ${step[0]}`);
    suffixes.add(step[2]!);
  }
  assert.deepEqual([...suffixes].sort(), ['nd', 'rd', 'th']);
});
