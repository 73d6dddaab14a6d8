// "Requests and constraints (the user's words)" and the hook's "Latest requests" hold what the person typed: not
// Claude Code's "[Request interrupted by user]" or a local command's output, not an IDE's "<ide_opened_file>" note,
// not Codex's "<image name=[Image #1]>" / "</image>" halves (real sessions listed 13 "</image>" as requests); and the latest
// request compaction keeps verbatim is the last the person typed (it was a canceled /compact's error, /exit's "Bye!").
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { protectedPart } from '../../../src/core/cleanup/protect';
import { collectFacts } from '../../../src/core/snapshot/collect';
import { isHarnessText } from '../../../src/core/model/userWords';
import { guardContext } from '../../../src/node/hooks/compactedStretch';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';
import { FIXTURES } from '../../support/fixtures';

const NOT_TYPED = /^\s*(?:\[Request interrupted by user|<\/?image\b|<ide_opened_file>|<ide_selection>|<local-command-(?:stdout|stderr|caveat)>|<bash-std(?:out|err)>|Caveat: The messages below)/;

test('harness texts are told from typed ones', () => {
  for (const t of ['[Request interrupted by user]', '[Request interrupted by user for tool use]', '<image name=[Image #1]>', '</image>',
    '<local-command-stderr>Error: Compaction canceled.</local-command-stderr>', '<bash-stdout></bash-stdout><bash-stderr>boom</bash-stderr>',
    '<ide_opened_file>The user opened the file a.ts in the IDE.</ide_opened_file>', '<bash-input>ls</bash-input>']) assert.equal(isHarnessText(t), true, t);
  for (const t of ['fix the build', '[Image #1] can the month have a border', '<ide_selection>x</ide_selection> why is this slow?',
    '<command-name>/review</command-name>\n<command-args>check the tone settings</command-args>']) assert.equal(isHarnessText(t), false, t);
});

test('on every real session: no request the snapshot lists is harness text, and the typed ones stay', async () => {
  let found = 0;
  for (const { file, label } of realTranscripts()) {
    const { session } = await readTranscriptFile(file);
    const requests = collectFacts(session.messages).requests.map((r) => r.text);
    const bad = requests.filter((r) => NOT_TYPED.test(r));
    assert.deepEqual(bad, [], label);
    if (label.endsWith('vibelife-2.1.12-microcompact-api-errors.jsonl')) { assert.ok(requests.includes('类似的表单提交问题也都搜索解决一下'), label); found++; }
  }
  assert.equal(found, 1);
});

test("the hook's latest requests on a real Claude Code session are the user's words, without the interruption markers", async () => {
  const file = path.join(FIXTURES, 'real', 'claude-code', 'vibelife-2.1.12-microcompact-api-errors.jsonl');
  const { context } = await guardContext(file);
  const requests = context.slice(context.indexOf('Latest requests'));
  assert.match(requests, /^> 类似的表单提交问题也都搜索解决一下$/m);
  assert.doesNotMatch(requests, /Request interrupted/);
});

test('the latest request kept verbatim is the last one the person typed, not /exit\'s "Bye!" or a canceled /compact\'s error', async () => {
  const cases: [string, string][] = [
    ['real/claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl', '类似的表单提交问题也都搜索解决一下'],
    ['real/corpus/claude-code/bohack-2.0.29-compacted-images.jsonl', '不是输入文本的文本框，是文本框下面的黑色框体，视觉组件，怎么改高度'],
    ['claude-code/sample.jsonl', 'Task 2: investigate how npm handles "workspace"'],
  ];
  for (const [rel, words] of cases) {
    const { session } = await readTranscriptFile(path.join(FIXTURES, rel));
    const p = protectedPart(session, { keepRecentTurns: 6 });
    assert.ok(p.latestPrompt !== undefined, rel);
    const texts = session.messages[p.latestPrompt]!.blocks.map((b) => ('text' in b ? b.text : ''));
    assert.ok(texts.some((t) => t.startsWith(words)), `${rel}: ${texts.join(' | ').slice(0, 200)}`);
  }
});
