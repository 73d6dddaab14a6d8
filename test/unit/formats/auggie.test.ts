// Auggie sessions (hand-made after @augmentcode/auggie 0.36's own session writer: test/fixtures/auggie/README.md):
// exchanges into prompts, replies and tool results paired with their calls, usage per exchange, its own summary,
// detection, and the handoff (Auggie resumes through Augment's service only).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { agentModule } from '../../../src/core/formats/registry';
import { compactTranscript, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { documentSession, nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const FILE = path.join(FIXTURES, 'auggie', 'sessions', '3f6d2c1b-9a8e-4f70-b6c5-d4e3f2a1b0c9.json');

test('exchanges: the prompt, the IDE state as harness, thinking, calls answered by the next exchange\'s results', async () => {
  const { session } = await readTranscriptFile(FILE);
  assert.equal(session.format, 'auggie');
  assert.equal(session.title, 'Checkout total off by one cent');
  assert.equal(session.cwd, '/home/dev/shop');
  assert.deepEqual(session.models, ['claude-sonnet-4-5']);
  const shape = session.messages.map((m) => `${m.role}${m.toolResultsOnly ? '(results)' : ''}: ${m.blocks.map((b) => b.type).join(',')}`);
  assert.deepEqual(shape, [
    'user: text,meta', 'assistant: reasoning,text,tool_call',
    'user(results): tool_result', 'user: meta', 'assistant: tool_call',
    'user(results): tool_result', 'assistant: text',
    'user: text', 'assistant: tool_call',
  ]);
  const results = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result');
  assert.deepEqual(results.map((r) => r.type === 'tool_result' && [r.id, r.isError]), [['toolu_vrtx_01A', false], ['toolu_vrtx_01B', true]]);
  assert.deepEqual(session.warnings, [], 'the last call (still running when the file was saved) is not an orphan');
  const usage = session.messages.filter((m) => m.usage).map((m) => m.usage);
  assert.deepEqual(usage[0], { inputTokens: 1840, outputTokens: 96, cacheReadTokens: 0, cacheCreationTokens: 12400 });
  assert.equal(session.recordedContext, 150 + 14780 + 0);
});

test('Auggie\'s own summary (a history_summary_node) starts the live context', async (t) => {
  const doc = JSON.parse(fs.readFileSync(FILE, 'utf8')) as Record<string, any>;
  doc.chatHistory[2].exchange.request_nodes.unshift({ id: 9, type: 10, history_summary_node: { summary_text: 'Earlier: total.ts sums float prices.', history_end: [] } });
  const file = path.join(tmpDir(t), 'summarized.json');
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
  const { session } = await readTranscriptFile(file);
  // The summarized exchange's results come first, then its request: the summary.
  assert.deepEqual(session.messages.slice(0, 2).map((m) => m.blocks.map((b) => b.type)), [['tool_result'], ['summary']]);
  const summary = session.messages[1]!.blocks[0]!;
  assert.equal(summary.type === 'summary' ? summary.text : '', 'Earlier: total.ts sums float prices.');
  assert.ok(!session.records[1]!.inContext && session.records[2]!.inContext);
  assert.ok(session.warnings.some((w) => /the 2 exchange\(s\) before its summary are not in the live context/.test(w)), session.warnings.join('\n'));
});

test('detection: in ~/.augment/sessions by name, elsewhere by content; Continue\'s sessions are not taken', (t) => {
  const dir = path.join(tmpDir(t), '.augment', 'sessions');
  fs.mkdirSync(dir, { recursive: true });
  const placed = path.join(dir, path.basename(FILE));
  fs.copyFileSync(FILE, placed);
  assert.equal(documentSession(placed, nodeFsByName)?.agent, 'auggie');
  assert.equal(documentSession(FILE, nodeFs)?.agent, 'auggie');
  const cont = path.join(FIXTURES, 'continue', 'cn-1.5.47', 'sessions', 'aa29d32c-514e-458d-82a8-a802ebc760a2.json');
  assert.equal(documentSession(cont, nodeFs)?.agent, 'continue');
  assert.deepEqual(agentModule('auggie').sessionIds, 'uuid-v4');
});

test('compaction writes a handoff with the latest request and the kept calls', async (t) => {
  const prepared = await compactTranscript(FILE, { cleanup: { keepRecentTurns: 2 } });
  const out = path.join(tmpDir(t), path.basename(prepared.defaultOut));
  assert.match(path.basename(out), /^auggie-handoff-.*\.md$/);
  await writeCompaction(prepared, out);
  const report = reportOf(prepared, out);
  assert.ok(report.handoff && report.pairsIntact);
  const md = fs.readFileSync(out, 'utf8');
  assert.ok(md.includes('Do it: keep prices in cents.'));
  assert.ok(md.includes('Called `str-replace-editor` with:'));
});
