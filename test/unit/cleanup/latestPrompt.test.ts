// The latest prompt is the latest thing the user asked, on real Claude Code sessions: a local command's echo and
// output (`/compact` that failed, `/model`, `/exit`) are the harness's records, a prompt command (`/review …`) is a
// request; the snapshot's requests and the SessionStart hook's "latest requests" follow the same rule.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { cleanupSession } from '../../../src/core/cleanup/engine';
import { splitOf } from '../../../src/core/compact/stages';
import { hookContext } from '../../../src/core/hook/context';
import { hookFacts } from '../../../src/core/hook/facts';
import type { Message, Session } from '../../../src/core/model/transcript';
import { isUserRequest } from '../../../src/core/model/userWords';
import { collectFacts } from '../../../src/core/snapshot/collect';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const REAL = path.join(FIXTURES, 'real');
const read = async (rel: string): Promise<Session> => (await readTranscriptFile(path.join(REAL, rel), {})).session;
const text = (m: Message | undefined): string => (m?.blocks ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');

test('vibelife: a `/compact` that failed last (its echo and `<local-command-stderr>`) is not the latest prompt; the prompt before it is', async () => {
  const s = await read('claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl');
  const last = s.messages.length - 1;
  assert.match(text(s.messages[last]), /^<local-command-stderr>Error: Compaction canceled\./, 'the fixture ends on the failed /compact');
  assert.match(text(s.messages[last - 1]), /<command-name>\/compact<\/command-name>/);
  const r = cleanupSession(s, { keepRecentTurns: 6 });
  const prompt = s.messages[r.protection.latestPrompt!];
  assert.equal(text(prompt), '类似的表单提交问题也都搜索解决一下');
  // With a summary that prompt is what stays verbatim after it, and the command's records went with the rest.
  const split = splitOf(s, r);
  const kept = [...split.pinned, ...split.recent].map(text).join('\n');
  assert.ok(kept.includes('类似的表单提交问题也都搜索解决一下'), kept.slice(0, 300));
  assert.ok(!kept.includes('local-command-stderr'));
});

test('vibelife: `/review <args>` (a prompt command the model acts on) is a request; the `/compact` echo followed by its output is not', async () => {
  const s = await read('claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl');
  const review = s.messages.findIndex((m) => /<command-name>\/review<\/command-name>/.test(text(m)));
  const compact = s.messages.findIndex((m) => /<command-name>\/compact<\/command-name>/.test(text(m)));
  assert.ok(review >= 0 && compact >= 0);
  assert.equal(isUserRequest(s.messages, review), true);
  assert.equal(isUserRequest(s.messages, compact), false);
  assert.equal(isUserRequest(s.messages, compact + 1), false, '<local-command-stderr>');
  const interrupted = s.messages.findIndex((m) => text(m).startsWith('[Request interrupted by user'));
  assert.ok(interrupted >= 0 && !isUserRequest(s.messages, interrupted), 'an interruption note');
});

test('the snapshot lists the user\'s requests only, and the hook\'s "latest requests" show no local command (volcano: `/model` twice)', async () => {
  const s = await read('claude-code/volcano-2.1.92-subagent-aside-question.jsonl');
  assert.ok(s.messages.some((m) => /<local-command-stdout>Set model/.test(text(m))), 'the fixture ran /model');
  const requests = collectFacts(s.messages).requests.map((r) => r.text);
  assert.ok(requests.length > 0);
  for (const r of requests) assert.doesNotMatch(r, /<command-name>\/model|<local-command-stdout>/);
  const vibelife = await read('claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl');
  const hook = hookContext(hookFacts(vibelife.messages), { cwd: vibelife.cwd });
  const latest = hook.slice(hook.indexOf('Latest requests'));
  assert.ok(latest.startsWith('Latest requests'), hook.slice(0, 200));
  assert.doesNotMatch(latest, /\[Request interrupted by user|local-command-stderr|<command-name>\/compact/);
  assert.match(latest, /<command-name>\/review<\/command-name>/, 'a prompt command is a request');
});
