// The summary step end to end: CLI → real SDK → loopback provider; fallback, deadline, anchoring, secrecy.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { startFakeOpenAI } from '../../support/fakeOpenAI';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';
import { WAIT_MS } from '../../support/waits';

const KEY = 'sk-ant-test-SECRET-1234567890';
const SNAPSHOT = '## Goal\nInvestigate npm handling of workspace and registry.\n## Decisions\n- notes in NOTES-1.md\n## Constraints\n- none\n## Evidence\n- lib/npm.js\n## Open errors\n- MODULE_NOT_FOUND for lib/workspace-missing.js\n## Completed work\n- NOTES-1.md written\n## Next actions\n- continue';

async function cli(env: NodeJS.ProcessEnv, ...args: string[]) {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env });
  return { code, stdout, stderr, json: (code === 0 || code === 1) && args.includes('--json') ? JSON.parse(stdout) : undefined };
}

for (const [label, file] of [['claude-code', CLAUDE_SAMPLE], ['codex', CODEX_SAMPLE]] as const) {
  test(`${label}: one summary call; summary + recent turns smaller than cleanup alone`, async (t) => {
    const fake = await startFakeAnthropic(KEY);
    t.after(() => fake.close());
    fake.fallback = { kind: 'ok', text: SNAPSHOT };
    const dir = tmpDir(t);
    const env = { ANTHROPIC_API_KEY: KEY };
    const plain = await cli(env, 'compact', file, '--out', `${dir}/plain.jsonl`, '--json');
    const sum = await cli(env, 'compact', file, '--out', `${dir}/sum.jsonl`, '--json', '--provider', 'anthropic', '--model', 'claude-test', '--base-url', fake.url);
    assert.equal(sum.code, 0, sum.stderr);
    assert.equal(fake.requests.filter((r) => r.path === '/v1/messages').length, 1);
    assert.equal(sum.json.modelCalls, 1);
    assert.equal(sum.json.fallback, null);
    assert.equal(sum.json.accepted, true);
    assert.ok(sum.json.after.tokens < plain.json.after.tokens, `${sum.json.after.tokens} < ${plain.json.after.tokens}`);
    assert.ok(sum.json.summary.inputTokens > 0 && sum.json.summary.outputTokens > 0);
    const prompt = JSON.stringify(fake.requests[0]!.body);
    assert.match(prompt, /Goal.*Decisions.*Constraints.*Evidence.*Open errors.*Completed work.*Next actions/s);
    // The written transcript holds the summary (with the computed facts) and reads back as a summary.
    const { session } = await readTranscriptFile(`${dir}/sum.jsonl`);
    const summaries = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'summary');
    assert.equal(summaries.length, 1);
    assert.match((summaries[0] as { text: string }).text, /## Files changed[\s\S]*## Commands run/);
    assert.ok(!fs.readFileSync(`${dir}/sum.jsonl`, 'utf8').includes(KEY));
    assert.ok(!sum.stdout.includes(KEY));
  });
}

test('a second compaction updates the earlier summary (anchored), not rebuilt', async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  fake.fallback = { kind: 'ok', text: SNAPSHOT };
  const dir = tmpDir(t);
  const env = { ANTHROPIC_API_KEY: KEY };
  const args = ['--provider', 'anthropic', '--model', 'm', '--base-url', fake.url, '--json'];
  const first = await cli(env, 'compact', CLAUDE_SAMPLE, '--out', `${dir}/1.jsonl`, ...args);
  assert.equal(first.code, 0, first.stderr);
  const second = await cli(env, 'compact', `${dir}/1.jsonl`, '--out', `${dir}/2.jsonl`, '--keep-recent', '2', ...args);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.json.summary.anchoredOn, 'context-compactor');
  const body = JSON.stringify(fake.requests[1]!.body);
  assert.match(body, /existing_snapshot/);
  assert.match(body, /MODULE_NOT_FOUND for lib\/workspace-missing\.js/);
});

test('provider outage: exactly 3 requests, then the cleaned transcript, accepted', async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  fake.fallback = { kind: 'status', status: 500 };
  const dir = tmpDir(t);
  const r = await cli({ ANTHROPIC_API_KEY: KEY }, 'compact', CLAUDE_SAMPLE, '--out', `${dir}/o.jsonl`, '--json', '--provider', 'anthropic', '--model', 'm', '--base-url', fake.url, '--timeout', '30');
  assert.equal(r.code, 1, 'the summary asked for failed: exit 1 (the cleaned copy is written)');
  assert.equal(fake.requests.length, 3);
  assert.equal(r.json.modelCalls, 3);
  assert.equal(r.json.fallback, 'cleanup-only');
  assert.equal(r.json.accepted, true);
  assert.ok(r.json.warnings.some((w: string) => /summary failed after 3 attempt/.test(w)));
  assert.ok(r.json.reduction > 0.7);
  assert.ok(fs.existsSync(`${dir}/o.jsonl`));
});

// A provider that never answers: only the --timeout deadline ends the run (a broken one hangs until the test's bound).
test('a hanging provider is abandoned at the deadline; auth errors are not retried', { timeout: WAIT_MS }, async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  fake.fallback = { kind: 'hang' };
  const dir = tmpDir(t);
  const r = await cli({ ANTHROPIC_API_KEY: KEY }, 'compact', CLAUDE_SAMPLE, '--out', `${dir}/h.jsonl`, '--json', '--provider', 'anthropic', '--model', 'm', '--base-url', fake.url, '--timeout', '2');
  assert.equal(r.code, 1, 'the summary asked for failed: exit 1');
  assert.equal(r.json.fallback, 'cleanup-only');
  // The fake answers again (a 401 for the wrong key): left hanging, this call waited out the default 120 s deadline.
  fake.fallback = { kind: 'ok' };
  const wrong = await cli({ ANTHROPIC_API_KEY: 'sk-wrong-key-000' }, 'compact', CLAUDE_SAMPLE, '--out', `${dir}/a.jsonl`, '--json', '--provider', 'anthropic', '--model', 'm', '--base-url', fake.url);
  assert.equal(wrong.json.modelCalls, 1);
  assert.equal(wrong.json.fallback, 'cleanup-only');
  assert.ok(!wrong.stdout.includes('sk-wrong-key-000'));
});

test('--exact asks the provider counter; openai-compatible says it cannot', async (t) => {
  const fake = await startFakeAnthropic(KEY);
  t.after(() => fake.close());
  fake.fallback = { kind: 'ok', text: SNAPSHOT };
  const dir = tmpDir(t);
  const r = await cli({ ANTHROPIC_API_KEY: KEY }, 'compact', CLAUDE_SAMPLE, '--out', `${dir}/e.jsonl`, '--json', '--no-summary', '--exact', '--provider', 'anthropic', '--model', 'm', '--base-url', fake.url);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.modelCalls, 0);
  assert.equal(r.json.exact.supported, true);
  assert.ok(r.json.exact.before.exact > r.json.exact.after.exact);
  assert.equal(typeof r.json.exact.before.error, 'number');
  const oa = await startFakeOpenAI('k');
  t.after(() => oa.close());
  const c = await cli({}, 'compact', CLAUDE_SAMPLE, '--out', `${dir}/c.jsonl`, '--json', '--exact', '--provider', 'openai-compatible', '--model', 'llama', '--base-url', `${oa.url}/v1`, '--no-summary');
  assert.equal(c.json.exact.supported, false);
  assert.match(c.json.exact.reason, /not|no /i);
});
