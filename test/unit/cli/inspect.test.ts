// `context-compactor inspect` through the CLI entry: JSON shape, table, exit codes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { TOKEN_KINDS } from '../../../src/core/model/transcript';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';

async function run(...args: string[]) {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {} });
  return { code, stdout, stderr };
}

for (const [file, format, tool] of [[CLAUDE_SAMPLE, 'claude-code', 'Read'], [CODEX_SAMPLE, 'codex', 'exec_command']] as const) {
  test(`inspect --json on ${format}`, async () => {
    const r = await run('inspect', file, '--json');
    assert.equal(r.code, 0);
    const j = JSON.parse(r.stdout);
    assert.equal(j.format, format);
    assert.ok(j.messages > 10 && j.turns > 10);
    assert.equal(j.tokens.source, 'recorded');
    assert.deepEqual(Object.keys(j.tokens.byKind).sort(), [...TOKEN_KINDS].sort());
    const sum = Object.values(j.tokens.byKind as Record<string, number>).reduce((a, b) => a + b, 0);
    assert.equal(sum, j.tokens.total);
    // Tool data dominates these agentic sessions, as in real use.
    assert.ok(j.tokens.byKind.tool_result / j.tokens.total > 0.7);
    assert.ok(j.tokens.byTool[tool] > 0);
    // The calibrated estimate stays close to what the agent recorded.
    assert.ok(j.tokens.estimator.meanErrorCalibrated < 0.15, String(j.tokens.estimator.meanErrorCalibrated));
    assert.ok(Array.isArray(j.warnings));
  });
}

test('inspect prints a readable table', async () => {
  const r = await run('inspect', CLAUDE_SAMPLE);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Tokens by kind/);
  assert.match(r.stdout, /tool_result\s+[\d,]+\s+\d+\.\d%/);
  assert.match(r.stdout, /Context per turn/);
});

test('unusable input → exit 2 and one line on stderr', async () => {
  const r = await run('inspect', '/nonexistent.jsonl');
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.equal(r.stdout, '');
  assert.equal((await run('inspect')).code, 2);
  assert.equal((await run('bogus')).code, 2);
});
