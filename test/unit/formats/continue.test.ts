// Continue sessions written by the real `cn` 1.5.47 (test/fixtures/continue/README.md): calls paired with their
// results, each reply's usage, Continue's own summary, detection, the writer (round trip, no usage, summary inserted).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { isContinueSession } from '../../../src/core/formats/continue/paths';
import { agentModule } from '../../../src/core/formats/registry';
import { nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const DIR = path.join(FIXTURES, 'continue', 'cn-1.5.47', 'sessions');
const SHORT = path.join(DIR, 'aa29d32c-514e-458d-82a8-a802ebc760a2.json');
const LONG_DIR = path.join(FIXTURES, 'continue', 'cn-1.5.47-long', 'sessions');
const LONG = path.join(LONG_DIR, fs.readdirSync(LONG_DIR).find((n) => n !== 'sessions.json')!);
const ctx = { newId: () => '00000000-0000-4000-8000-000000000001', now: () => new Date(0) };
type Obj = Record<string, any>;

test('a real cn session: prompts, calls answered by their results (an error marked), each reply with its usage', async () => {
  const { session } = await readTranscriptFile(SHORT);
  assert.equal(session.format, 'continue');
  assert.equal(session.cwd, '/tmp/cn-gen/work');
  assert.equal(session.title, 'Read notes.txt, list the folder and count its lines, then show missing-file.txt', 'the placeholder title is not used');
  const blocks = session.messages.flatMap((m) => m.blocks);
  const calls = blocks.filter((b) => b.type === 'tool_call');
  const results = blocks.filter((b) => b.type === 'tool_result');
  assert.deepEqual(calls.map((c) => c.type === 'tool_call' && c.name), ['Read', 'Bash', 'Bash', 'Write']);
  assert.deepEqual(results.map((r) => r.type === 'tool_result' && r.id), calls.map((c) => c.type === 'tool_call' && c.id));
  assert.deepEqual(results.map((r) => r.type === 'tool_result' && r.isError), [false, false, true, false]);
  assert.match(results[0]!.type === 'tool_result' ? results[0]!.text : '', /TODO: fix the parser/);
  const replies = session.messages.filter((m) => m.role === 'assistant');
  assert.equal(replies.length, 6);
  assert.ok(replies.every((m) => m.usage && m.model === 'gpt-4o-mini'));
  assert.deepEqual(replies[0]!.usage, { inputTokens: 2466, outputTokens: 21, cacheReadTokens: 0, cacheCreationTokens: 0 });
  assert.equal(session.recordedContext, 2803);
  assert.deepEqual(session.warnings, []);
});

test('detection: in ~/.continue/sessions by name, elsewhere by content; the index, Auggie\'s and Gemini\'s JSON are not taken', (t) => {
  const dir = path.join(tmpDir(t), '.continue', 'sessions');
  fs.mkdirSync(dir, { recursive: true });
  const placed = path.join(dir, path.basename(SHORT));
  fs.copyFileSync(SHORT, placed);
  fs.copyFileSync(path.join(DIR, 'sessions.json'), path.join(dir, 'sessions.json'));
  assert.ok(isContinueSession(placed, nodeFsByName) && isContinueSession(placed, nodeFs));
  assert.ok(!isContinueSession(path.join(dir, 'sessions.json'), nodeFs));
  assert.ok(isContinueSession(SHORT, nodeFs), 'a copy outside the store, by content');
  assert.ok(!isContinueSession(SHORT, nodeFsByName));
  const auggie = path.join(FIXTURES, 'auggie', 'sessions', '3f6d2c1b-9a8e-4f70-b6c5-d4e3f2a1b0c9.json');
  assert.ok(!isContinueSession(auggie, nodeFs));
  assert.deepEqual(agentModule('continue').roots({ home: '/h', vars: { CONTINUE_GLOBAL_DIR: '/c' }, platform: 'linux', join: path.posix.join, basename: path.posix.basename }), ['/c/sessions']);
});

test('round trip: an unchanged session is written back item for item, without usage, under a new id', async () => {
  const { session } = await readTranscriptFile(SHORT);
  const written = agentModule('continue').write(session, session, ctx);
  assert.ok(written.kind === 'lines' && written.lines.length === 1);
  const doc = (written.lines[0] as { value: Obj }).value;
  const original = JSON.parse(fs.readFileSync(SHORT, 'utf8')) as Obj;
  assert.equal(doc.sessionId, ctx.newId());
  assert.equal(doc.history.length, original.history.length);
  assert.deepEqual(doc.usage.promptTokens, 0, 'copies carry no usage');
  original.history.forEach((item: Obj, i: number) => {
    const { usage: _u, ...message } = item.message;
    assert.deepEqual(doc.history[i], { ...item, message });
  });
  assert.equal(agentModule('continue').resumeCommand(ctx.newId()), `cn --fork ${ctx.newId()}`);
  assert.equal(agentModule('continue').resumeCommand('../x'), undefined);
});

test('a cleaned session: changed results rebuilt inside their call state; the summary a user item before the kept part', async () => {
  const { session } = await readTranscriptFile(LONG);
  const results = session.messages.filter((m) => m.toolResultsOnly);
  const first = results[0]!;
  const cleaned = { ...session, messages: session.messages.map((m) => (m === first ? { ...m, blocks: m.blocks.map((b) => (b.type === 'tool_result' ? { ...b, text: 'shortened' } : b)) } : m)) };
  const written = agentModule('continue').write(session, cleaned, ctx, { beforeRecord: 4, text: 'SUMMARY OF EARLIER WORK' });
  assert.ok(written.kind === 'lines');
  const doc = (written.lines[0] as { value: Obj }).value;
  const item = doc.history.find((h: Obj) => h.toolCallStates?.[0]?.output?.[0]?.content === 'shortened');
  assert.ok(item, 'the changed result is in its call\'s state');
  assert.equal(item.message.toolCalls[0].id, item.toolCallStates[0].toolCallId);
  assert.deepEqual(doc.history[4], { message: { role: 'user', content: 'SUMMARY OF EARLIER WORK' }, contextItems: [], editorState: 'SUMMARY OF EARLIER WORK' });
  assert.equal(item.message.usage, undefined);
  assert.equal(doc.history.filter((h: Obj) => h.toolCallStates?.some((s: Obj) => s.output?.[0]?.content === 'shortened')).length, 1, 'only that result changed');
});

test('Continue\'s own compaction: the history before its summary item is not in the live context', (t) => {
  const original = JSON.parse(fs.readFileSync(SHORT, 'utf8')) as Obj;
  original.history.splice(4, 0, { message: { role: 'assistant', content: 'Summary: read notes.txt (3 TODOs).' }, contextItems: [], conversationSummary: 'Summary: read notes.txt (3 TODOs).' });
  const file = path.join(tmpDir(t), 'compacted-by-continue.json');
  fs.writeFileSync(file, JSON.stringify(original, null, 2));
  return readTranscriptFile(file).then(({ session }) => {
    assert.equal(session.messages[0]!.blocks[0]!.type, 'summary');
    assert.ok(session.warnings.some((w) => /the 4 item\(s\) before its summary are not in the live context/.test(w)), session.warnings.join('\n'));
    assert.ok(!session.records[0]!.inContext && session.records[5]!.inContext);
  });
});
