// Cline / Roo / Kilo task folders (real Cline CLI 2.18.0 output, a public VS Code task, a hand-made Roo task) read as
// the model sees them: truncation and edits applied, calls paired with "[tool] Result:" text, recorded usage.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Message } from '../../../src/core/model/transcript';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { CLINE_4TURNS, CLINE_REAL, CLINE_TRUNCATED, ROO_CONDENSED } from '../../support/clineFixtures';
import { tmpDir } from '../../support/tmp';

const json = (dir: string, f: string): Record<string, unknown>[] => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
const blocksOf = (ms: readonly Message[], type: string) => ms.flatMap((m) => m.blocks.filter((b) => b.type === type));

test('Cline CLI task: every message, calls paired with their text results, usage from api_req_started', async () => {
  const { session } = await readTranscriptFile(CLINE_4TURNS);
  const api = json(CLINE_4TURNS, 'api_conversation_history.json');
  assert.equal(session.format, 'cline');
  assert.equal(session.id, path.basename(CLINE_4TURNS));
  assert.equal(session.messages.length, api.length);
  assert.match(session.title!, /^Turn 1: find where estimateTokens/);
  assert.match(session.cwd!, /^\/tmp\/gen-cline-.*\/work$/);
  const calls = blocksOf(session.messages, 'tool_call');
  const results = blocksOf(session.messages, 'tool_result');
  assert.equal(calls.length, 40);
  // Every call but the last attempt_completion is answered: 36 by their text, the earlier completions by Cline's "result missing".
  assert.deepEqual(new Set(results.map((r) => 'id' in r && r.id)), new Set(calls.slice(0, -1).map((c) => 'id' in c && c.id)));
  assert.equal(results.filter((r) => 'text' in r && r.text === 'result missing').length, 3);
  assert.ok(results.every((r) => 'text' in r && (r.text === 'result missing' || /^\[\w+ for .*\] Result:/.test(r.text))));
  assert.deepEqual(session.warnings, []);
  assert.equal(blocksOf(session.messages, 'meta').filter((b) => 'subtype' in b && b.subtype === 'environment').length, 40);
  // Usage: the request whose conversationHistoryIndex is k answered message k + 2.
  const ui = json(CLINE_4TURNS, 'ui_messages.json').filter((u) => u.say === 'api_req_started');
  assert.equal(ui.length, 40);
  for (const u of ui) {
    const info = JSON.parse(u.text as string) as Record<string, number>;
    const m = session.messages[(u.conversationHistoryIndex as number) + 2]!;
    assert.equal(m.role, 'assistant');
    assert.deepEqual(m.usage, { inputTokens: info.tokensIn, outputTokens: info.tokensOut, cacheReadTokens: info.cacheReads, cacheCreationTokens: info.cacheWrites });
    assert.equal(m.model, 'claude-sonnet-4-5-20250929');
  }
});

test("Cline's own truncation: the deleted range and context_history.json edits are what the model sees", async () => {
  const { session } = await readTranscriptFile(CLINE_TRUNCATED);
  const api = json(CLINE_TRUNCATED, 'api_conversation_history.json');
  const [, end] = (JSON.parse(fs.readFileSync(path.join(CLINE_TRUNCATED, '..', '..', 'state', 'taskHistory.json'), 'utf8'))[0] as { conversationHistoryDeletedRange: [number, number] }).conversationHistoryDeletedRange;
  assert.equal(end, 39);
  assert.deepEqual(session.messages.map((m) => m.records[0]), [0, 1, ...Array.from({ length: api.length - end - 1 }, (_, i) => end + 1 + i)]);
  assert.deepEqual(session.records.map((r) => r.inContext), api.map((_, i) => i < 2 || i > end));
  assert.match(session.warnings[0]!, /messages 3–40 of 80 are not sent to the model/);
  // The truncation notice Cline put on the first reply, and file reads it replaced, come from context_history.json.
  const edits = JSON.parse(fs.readFileSync(path.join(CLINE_TRUNCATED, 'context_history.json'), 'utf8')) as [number, [number, [number, [number, string, string[]][]][]]][];
  const shown = edits.filter(([m]) => m < 2 || m > end);
  let applied = 0;
  for (const [m, [, inner]] of shown) {
    for (const [bi, updates] of inner) {
      const text = updates.at(-1)![2][0]!;
      const b = session.messages.find((x) => x.records[0] === m)!.blocks.find((x) => x.ref.index === bi)!;
      // Cline edits text in place only (setTextInBlock): its notice aimed at a thinking block changes nothing.
      if ((api[m]!.content as { type: string }[])[bi]!.type !== 'text') { assert.notEqual('text' in b && b.text, text); continue; }
      assert.equal('text' in b && b.text, text, `message ${m} block ${bi}`);
      applied++;
    }
  }
  assert.ok(applied >= 1, 'a replaced file read is shown as Cline sends it');
  const { session: whole } = await readTranscriptFile(CLINE_4TURNS);
  assert.ok(session.messages.reduce((n, m) => n + m.blocks.reduce((k, b) => k + b.tokens, 0), 0) < whole.messages.reduce((n, m) => n + m.blocks.reduce((k, b) => k + b.tokens, 0), 0) * 0.75);
});

test('a public Cline 3.51 VS Code task: any of its files or its folder names the same session', async () => {
  const byFolder = (await readTranscriptFile(CLINE_REAL)).session;
  for (const f of ['api_conversation_history.json', 'ui_messages.json', 'task_metadata.json']) {
    const { session } = await readTranscriptFile(path.join(CLINE_REAL, f));
    assert.equal(session.messages.length, byFolder.messages.length);
  }
  assert.equal(byFolder.messages.length, 94);
  assert.equal(byFolder.cwd, '/workspaces/Online-Card-Architecture');
  assert.equal(byFolder.messages.filter((m) => m.usage).length, 47);
  assert.equal(blocksOf(byFolder.messages, 'reasoning').length, 47);
  // 46 calls answered by their text; the final attempt_completion waits.
  assert.equal(blocksOf(byFolder.messages, 'tool_result').length, 46);
  const totalIn = byFolder.messages.reduce((n, m) => n + (m.usage?.inputTokens ?? 0) + (m.usage?.cacheReadTokens ?? 0) + (m.usage?.cacheCreationTokens ?? 0), 0);
  const recorded = json(CLINE_REAL, 'ui_messages.json').filter((u) => u.say === 'api_req_started').reduce((n, u) => {
    const i = JSON.parse(u.text as string) as Record<string, number>;
    return n + (i.tokensIn ?? 0) + (i.cacheReads ?? 0) + (i.cacheWrites ?? 0);
  }, 0);
  assert.equal(totalIn, recorded);
});

test('Roo Code after a condense: the summary and what follows it, usage in request order', async () => {
  const { session } = await readTranscriptFile(ROO_CONDENSED);
  assert.deepEqual(session.messages.map((m) => m.records[0]), [4, 5, 6, 7]);
  assert.equal(session.messages[0]!.blocks[0]!.type, 'summary');
  assert.equal(session.cwd, '/home/dev/retry-demo');
  assert.equal((session.extra as { variant: string }).variant, 'roo');
  // Requests answer assistant messages 1, 3, 5, 7 in order; the shown ones are 5 and 7.
  assert.deepEqual(session.messages.filter((m) => m.usage).map((m) => m.usage!.inputTokens), [700, 650]);
  assert.deepEqual(session.warnings, []);
});

test('Roo truncation markers hide what they point at; an orphaned marker parent hides nothing', async (t) => {
  const dir = path.join(tmpDir(t), 'rooveterinaryinc.roo-cline', 'tasks', 'x1');
  fs.mkdirSync(dir, { recursive: true });
  const msg = (role: string, text: string, extra: Record<string, unknown> = {}) => ({ role, content: [{ type: 'text', text }], ...extra });
  fs.writeFileSync(path.join(dir, 'api_conversation_history.json'), JSON.stringify([
    msg('user', '<task>\nfirst\n</task>'), msg('assistant', 'a1', { truncationParent: 't1' }), msg('user', 'u2', { truncationParent: 't1' }),
    msg('user', '[Sliding window truncation: 2 messages hidden to reduce context]', { isTruncationMarker: true, truncationId: 't1' }),
    msg('assistant', 'a3', { truncationParent: 'gone' }), msg('user', 'u4'),
  ]));
  const { session } = await readTranscriptFile(dir);
  assert.deepEqual(session.messages.map((m) => m.records[0]), [0, 3, 4, 5]);
  assert.equal(session.messages[1]!.blocks[0]!.type, 'meta');
  assert.match(session.warnings.join('\n'), /ui_messages.json is missing/);
});

test('bad task folders: one-line errors, or a partial read with warnings', async (t) => {
  const dir = path.join(tmpDir(t), 'task');
  fs.mkdirSync(dir);
  const api = path.join(dir, 'api_conversation_history.json');
  const rejects = (re: RegExp) => assert.rejects(readTranscriptFile(dir), (e: unknown) => e instanceof TranscriptError && re.test(e.message) && !e.message.includes('\n'));
  fs.writeFileSync(api, '[{"role":"user","content":');
  await rejects(/api_conversation_history.json is not valid JSON/);
  fs.writeFileSync(api, '{"role":"user"}');
  await rejects(/not a JSON array/);
  fs.writeFileSync(api, JSON.stringify([{ role: 'user', content: 'hi' }, 7, { role: 'system', content: 'x' }, { role: 'assistant', content: 'yo' }]));
  fs.writeFileSync(path.join(dir, 'ui_messages.json'), '[{"ts":1,"type":"say","say":"api_req_started","text":"{nope"}, {"ts":2, "conversationHistoryDeletedRange":[2,40]}]');
  fs.writeFileSync(path.join(dir, 'context_history.json'), '{"not":"cline"}');
  const { session } = await readTranscriptFile(dir);
  assert.deepEqual(session.messages.map((m) => m.role), ['user', 'assistant']);
  const w = session.warnings.join('\n');
  assert.match(w, /truncation range \[2, 40\] does not fit the 4 messages/);
  assert.match(w, /context_history.json is not in the shape/);
  assert.match(w, /1 api_req_started entry has unreadable usage/);
  assert.match(w, /2 message\(s\) .* are not user or assistant messages/);
  await assert.rejects(readTranscriptFile(path.join(tmpDir(t))), /is a folder, not a transcript file/);
});
