// What "Compact transcript" says about the summary step and what its report after Accept tells the user.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportOf, prepareCompaction } from '../../../src/node/compactFile';
import { cleanupOptionsFrom } from '../../../src/node/compactOptions';
import { settingDefaults } from '../../../src/vscode/settingKeys';
import { CONFIGURE, renderAcceptedReport, SET_KEY, summaryStatus } from '../../../src/vscode/compact/outcome';
import { CLAUDE_SAMPLE } from '../../support/fixtures';

const report = async (output?: string) => reportOf(await prepareCompaction(CLAUDE_SAMPLE, cleanupOptionsFrom(settingDefaults)), output);

test('no provider: "Cleanup only — no summary provider" with Configure…, not bare counts', async () => {
  const s = summaryStatus('no-provider', await report(), 'none');
  assert.equal(s.text, 'Cleanup only — no summary provider');
  assert.equal(s.action, CONFIGURE);
});

test('a provider without a key: "Summary skipped: no API key" with Set API key', async () => {
  const s = summaryStatus('no-key', await report(), 'anthropic');
  assert.equal(s.text, 'Summary skipped: no API key for anthropic');
  assert.equal(s.action, SET_KEY);
});

test('a failed summary shows the provider\'s reason', async () => {
  const r = await report();
  const failed = { ...r, fallback: 'cleanup-only' as const, modelCalls: 3, summary: { provider: 'anthropic', attempts: 3, error: '401 invalid x-api-key' } };
  assert.equal(summaryStatus('ran', failed, 'anthropic').text, 'Summary failed, cleanup only: 401 invalid x-api-key');
  const ok = { ...r, modelCalls: 1, summary: { provider: 'anthropic', model: 'claude-sonnet-4-5', attempts: 1 } };
  assert.equal(summaryStatus('ran', ok, 'anthropic').text, 'Summary by anthropic claude-sonnet-4-5 (1 model call)');
});

test('the report after Accept says where the file is, what was kept and cut, and what to do next', async () => {
  const out = '/home/u/.claude/projects/-work-app/0193d1c2-aaaa-4bbb-8ccc-123456789abc.jsonl';
  const r = { ...(await report(out)), resumeCommand: 'claude --resume 0193d1c2-aaaa-4bbb-8ccc-123456789abc' };
  const md = renderAcceptedReport(r, { place: 'in Claude Code\'s own sessions', agent: 'Claude Code', cwd: '/work/app', status: 'Cleanup only — no summary provider' }, 'Fix the *login* bug');
  assert.match(md, /^# Fix the \\\*login\\\* bug — compacted$/m, 'the title is escaped Markdown');
  assert.match(md, /\*\*Written to\*\* `\/home\/u\/\.claude\/projects\/-work-app\/0193d1c2-[^`]+\.jsonl` — in Claude Code\\?'s own sessions/);
  assert.match(md, /\*\*Next:\*\* choose \*\*Resume in terminal\*\* .* run `claude --resume 0193d1c2-aaaa-4bbb-8ccc-123456789abc` in `\/work\/app`/);
  assert.match(md, /\*\*Kept and cut:\*\* history [\d,]+ → [\d,]+ tokens/);
  assert.match(md, /\*\*Summary:\*\* Cleanup only — no summary provider\./);
  assert.match(md, /^## Compaction report$/m);
  // A copy the agent does not look for: no command, and how to get one.
  const elsewhere = renderAcceptedReport({ ...r, resumeCommand: '' }, { place: 'a folder you chose', agent: 'Claude Code', status: 'x' }, 't');
  assert.doesNotMatch(elsewhere, /Resume in terminal/);
  assert.match(elsewhere, /Claude Code does not look in this folder, so there is no resume command/);
});
