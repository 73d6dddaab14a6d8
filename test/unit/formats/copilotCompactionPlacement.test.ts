// Where Copilot CLI's own compaction puts its summary (test/fixtures/copilot-cli/README.md, real 1.0.102 logs and the
// request the CLI sent after each): one user message with the prompts typed before the compaction and the summary, then
// what was logged after the compaction STARTED — a background compaction runs while the task goes on.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Session } from '../../../src/core/model/transcript';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const BACKGROUND = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102-background-compact');
const MANUAL = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102-compact');
const logOf = (dir: string): string => path.join(dir, fs.readdirSync(dir).find((f) => /^[0-9a-f-]{36}$/.test(f))!, 'events.jsonl');

/** Each message as `role:kinds`, kinds the block types (tool ids for calls and results). */
const shape = (s: Session): string[] => s.messages.map((m) => `${m.role}:${m.blocks.map((b) => (b.type === 'tool_call' || b.type === 'tool_result' ? `${b.type}(${b.id})` : b.type)).join('+')}`);
/** The request's messages after the system prompt, in the same notation (the fake's log: OpenAI chat messages). */
function requestShape(dir: string): string[] {
  const { messages } = JSON.parse(fs.readFileSync(path.join(dir, 'request-after-compaction.json'), 'utf8')) as { messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[] };
  return messages.slice(1).map((m) => (m.role === 'tool' ? `user:tool_result(${m.tool_call_id})` : m.role === 'assistant' ? `assistant:${(m.tool_calls ?? []).map((c) => `tool_call(${c.id})`).join('+')}` : 'user'));
}

test('a background compaction: the reply and result logged while it ran stay, after the summary, as the CLI sent them', async () => {
  const { session } = await readTranscriptFile(logOf(BACKGROUND));
  assert.deepEqual(shape(session).slice(1, 4), ['user:text+summary', 'assistant:tool_call(call_gen0006)', 'user:tool_result(call_gen0006)']);
  assert.deepEqual(requestShape(BACKGROUND), ['user', 'assistant:tool_call(call_gen0006)', 'user:tool_result(call_gen0006)']);
  // The prompt as the CLI carried it: what was typed, cut at 30,000 characters (marker included).
  const carried = session.messages[1]!.blocks[0]!;
  const request = fs.readFileSync(path.join(BACKGROUND, 'request-after-compaction.json'), 'utf8');
  const sent = /<user_message>\n([\s\S]*?)\n<\/user_message>/.exec((JSON.parse(request) as { messages: { content: string }[] }).messages[1]!.content)![1]!;
  assert.ok(carried.type === 'text' && carried.text === sent && sent.length === 30_000 && sent.endsWith('...<truncated>...'));
  // The reply asked while the compaction ran was sent the whole history: its usage (45,485) is not this context's.
  assert.equal(session.messages[2]!.usage, undefined);
  assert.equal(session.recordedContext, 20_183);
  assert.deepEqual(session.warnings, []);
});

test('a manual /compact: the prompts typed before it are in the summary\'s message, as the CLI sent them', async () => {
  const { session } = await readTranscriptFile(logOf(MANUAL));
  assert.deepEqual(shape(session), ['system:meta', 'user:text+text+summary', 'user:text', 'assistant:text']);
  const said = session.messages[1]!.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  assert.deepEqual(said, ['What does price.js compute?', 'Raise the rate to 8 percent.']);
  const request = fs.readFileSync(path.join(MANUAL, 'request-after-compaction.json'), 'utf8');
  assert.match(request, /<user_message>\\nWhat does price.js compute\?\\n<\/user_message>/);
});
