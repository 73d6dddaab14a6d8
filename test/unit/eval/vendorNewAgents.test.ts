// The agent's own compaction as an eval row beyond Claude Code and Codex: Qwen Code's `chat_compression` record (a
// real `/compress`), Copilot CLI's `session.compaction_complete` (a real `/compact`) and Factory Droid's
// `compaction_state` (real auto-compactions under a small compactionTokenLimit), each cut where the agent compacted;
// what the agent held after it read as the agent rebuilds it on resume. Continue keeps nothing to cut at.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { renderEvalText } from '../../../src/core/eval/render';
import { agentSummaryText } from '../../../src/core/eval/vendorOutput';
import { runEval } from '../../../src/node/eval/runEval';
import { agentCompactions } from '../../../src/node/eval/segments';
import { evalFile } from '../../../src/node/eval/strategies';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { tmpDir } from '../../support/tmp';

const FIX = path.join(__dirname, '..', '..', 'fixtures');
const QWEN = path.join(FIX, 'qwen-code', 'session-0.24.4-compress', 'ad299598-9801-4fd9-83b1-30df3767f542.jsonl');
const DROID = path.join(FIX, 'droid', 'compacted-0.215.0', 'd9194f00-eb8f-44a0-a7e3-d98881f34176.jsonl');
/** The first turn request Droid sent after each of its compactions (but the last, which ended the session). */
const AFTER: { messages: Obj[] }[] = JSON.parse(fs.readFileSync(path.join(path.dirname(DROID), 'requests-after-compaction.json'), 'utf8'));
const COPILOT = path.join(FIX, 'copilot-cli', 'session-1.0.102-compact', '76ae0091-1634-401f-bf07-15d02d0543bc', 'events.jsonl');
const CONTINUE = path.join(FIX, 'continue', 'cn-1.5.47', 'sessions', 'aa29d32c-514e-458d-82a8-a802ebc760a2.json');
type Obj = Record<string, any>;
const records = (file: string): Obj[] => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const signal = (): AbortSignal => new AbortController().signal;
const config = { strategies: ['cleanup', 'vendor'] as ('cleanup' | 'vendor')[], cleanup: { keepRecentTurns: 6 }, threshold: 150_000 };

test("Qwen Code: cut at its chat_compression record; after it, Qwen holds the compressed history, its <state_snapshot> first", async (t) => {
  const recs = records(QWEN);
  const at = recs.findIndex((r) => r.type === 'system' && r.subtype === 'chat_compression');
  const history: Obj[] = recs[at]!.systemPayload.compressedHistory;
  const found = await agentCompactions(QWEN);
  assert.deepEqual(found.compactions.map((c) => [c.start, c.end, c.agent, c.noSummary]), [[at, at + 1, 'qwen-code', false]]);
  const files = await found.write(0, tmpDir(t));
  const { session: before } = await readTranscriptFile(files.segment);
  assert.equal(before.messages.at(-1)!.blocks.map((b) => ('text' in b ? b.text : '')).join(''), 'The rate is now 0.08; the last file could not be read.');
  assert.equal(agentSummaryText(before), '', 'nothing compacted before the segment ends');
  const { session: held } = await readTranscriptFile(files.vendor);
  assert.equal(held.messages.length, history.length);
  assert.equal(agentSummaryText(held), history[0]!.parts[0].text, "the vendor output starts with Qwen's own summary");
  assert.match(agentSummaryText(held), /^<state_snapshot>/);
  // What Qwen really sent next (its first turn request after /compress, kept by gen-chat-agent.sh): the compressed
  // history message by message (Qwen adds its reminders to the user turns), the new prompt in the last one.
  const sent = (JSON.parse(fs.readFileSync(path.join(path.dirname(QWEN), 'request-after-compression.json'), 'utf8')).messages as Obj[]).filter((m) => m.role !== 'system');
  assert.equal(sent.length, held.messages.length);
  held.messages.forEach((m, i) => {
    assert.equal(sent[i]!.role, m.role);
    for (const b of m.blocks) assert.ok(JSON.stringify(sent[i]!.content).includes(JSON.stringify('text' in b ? b.text : '').slice(1, -1)), `message ${i + 1}: ${b.type} not in the request`);
  });
  assert.ok(JSON.stringify(sent.at(-1)).includes('Which rate does price.js apply now?'));

  const rows = (await evalFile(QWEN, config, signal())).filter((r) => r.segment);
  assert.deepEqual(rows.map((r) => [r.strategy, r.status, r.format]), [['cleanup', 'ok', 'qwen-code'], ['vendor', 'ok', 'qwen-code']]);
  const [ours, vendor] = rows;
  assert.equal(vendor!.tokens!.historyBefore, ours!.tokens!.historyBefore, 'measured against the same segment');
});

test('Factory Droid: cut at each compaction_state; after it, Droid holds its summary and the messages after the anchor', async (t) => {
  const recs = records(DROID);
  const states = recs.flatMap((r, i) => (r.type === 'compaction_state' ? [i] : []));
  assert.equal(states.length, 4, 'the fixture holds four real compactions');
  const found = await agentCompactions(DROID);
  assert.deepEqual(found.compactions.map((c) => [c.start, c.agent, c.noSummary]), states.map((s) => [s, 'droid', false]));
  const dir = tmpDir(t);
  for (const [k, s] of states.entries()) {
    const files = await found.write(k, dir);
    const { session: held } = await readTranscriptFile(files.vendor);
    assert.equal(agentSummaryText(held), recs[s]!.summaryText, `#${k + 1}: Droid's summary`);
    // Droid 0.215's rebuild, read from the raw lines: the message events after the anchor (found by id), the
    // tool-result-only ones right after it skipped.
    const anchor = recs.findIndex((r) => r.type === 'message' && r.id === recs[s]!.anchorMessage.id);
    assert.ok(anchor >= 0 && anchor < s);
    let kept = recs.slice(anchor + 1, s).flatMap((r, i) => (r.type === 'message' ? [anchor + 1 + i] : []));
    const resultsOnly = (i: number): boolean => recs[i]!.message.content.every((c: Obj) => c.type === 'tool_result');
    while (kept.length && resultsOnly(kept[0]!)) kept = kept.slice(1);
    assert.deepEqual(held.messages.slice(1).map((m) => m.records[0]), kept, `#${k + 1}: the messages Droid keeps`);
    // What Droid really sent next (its first turn request after this compaction, kept by gen-droid.mjs): the summary
    // first, then the same tool calls and prompts (Droid adds its context reminders again, harness to our reader).
    const sent = AFTER[k];
    if (!sent) continue;
    assert.ok(JSON.stringify(sent.messages[0]).includes(recs[s]!.summaryText), `#${k + 1}: the request starts with the summary`);
    const sentBlocks: Obj[] = sent.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const sentCalls = sentBlocks.filter((b) => b.type === 'tool_use').map((b) => b.id as string);
    const heldBlocks = held.messages.flatMap((m) => m.blocks);
    const heldCalls = heldBlocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : []));
    // Only what the file held when the request was made: the records up to the compaction.
    assert.ok(heldCalls.length > 0, `#${k + 1}: Droid kept calls after its anchor`);
    assert.deepEqual(sentCalls.slice(0, heldCalls.length), heldCalls, `#${k + 1}: the calls Droid sent`);
    const isPrompt = (t: string): boolean => /^\[task \d\]/.test(t);
    assert.deepEqual(sentBlocks.map((b) => String(b.text ?? '')).filter(isPrompt), heldBlocks.flatMap((b) => (b.type === 'text' && isPrompt(b.text) ? [b.text] : [])), `#${k + 1}: the prompts Droid sent`);
  }
  assert.ok(found.compactions.length > 0);
  const rows = (await evalFile(DROID, config, signal())).filter((r) => r.segment && r.strategy === 'vendor');
  assert.deepEqual(rows.map((r) => [r.status, r.segment!.index, r.segment!.of]), [1, 2, 3, 4].map((i) => ['ok', i, 4]));
});

test('Copilot CLI: cut at its session.compaction_complete; after it, Copilot sends its system prompt and the summary', async (t) => {
  const recs = records(COPILOT);
  const at = recs.findIndex((r) => r.type === 'session.compaction_complete');
  assert.equal(recs[at]!.data.success, true);
  const found = await agentCompactions(COPILOT);
  assert.deepEqual(found.compactions.map((c) => [c.start, c.agent, c.noSummary]), [[at, 'copilot-cli', false]]);
  const files = await found.write(0, tmpDir(t));
  const { session: before } = await readTranscriptFile(files.segment);
  assert.equal(before.messages.at(-1)!.blocks.map((b) => ('text' in b ? b.text : '')).join(''), 'The rate is now 0.08; the last file could not be read.');
  const { session: held } = await readTranscriptFile(files.vendor);
  assert.deepEqual(held.messages.map((m) => m.role), ['system', 'user']);
  assert.equal(agentSummaryText(held), recs[at]!.data.summaryContent);
  // What Copilot really sent next (its first turn request after /compact, kept by gen-chat-agent.sh): its system
  // prompt, the summary in a user message of its own wording, the new prompt; nothing from before the compaction.
  const sent = JSON.parse(fs.readFileSync(path.join(path.dirname(path.dirname(COPILOT)), 'request-after-compaction.json'), 'utf8')).messages as Obj[];
  assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'user']);
  assert.ok(String(sent[1]!.content).includes(agentSummaryText(held)));
  // The whole log: the prompt after the compaction follows the summary, as in the request Copilot sent then.
  const { session: whole } = await readTranscriptFile(COPILOT);
  assert.deepEqual(whole.messages.map((m) => m.role), ['system', 'user', 'user', 'assistant']);
  assert.match(whole.messages[2]!.blocks.map((b) => ('text' in b ? b.text : '')).join(''), /Which rate does price\.js apply now\?/);
  const rows = (await evalFile(COPILOT, config, signal())).filter((r) => r.segment);
  assert.deepEqual(rows.map((r) => [r.strategy, r.status]), [['cleanup', 'ok'], ['vendor', 'ok']]);
});

test('Continue rewrites its session with the summary alone: nothing to cut at, the vendor row says so', async () => {
  const rows = await evalFile(CONTINUE, config, signal());
  assert.deepEqual(rows.filter((r) => r.strategy === 'vendor').map((r) => [r.status, r.skipped]),
    [['skipped', "the agent's own compaction is read from Claude Code, Codex, Qwen Code, Copilot CLI and Factory Droid transcripts only"]]);
});

test("the report names each agent whose compactions it measured", async () => {
  const report = await runEval({ files: [QWEN, COPILOT, DROID], jobs: 1, signal: signal(), config });
  assert.deepEqual(report.segments!.byAgent, { 'qwen-code': 1, 'copilot-cli': 1, droid: 4 });
  assert.match(renderEvalText(report), /6 of the agents' own compactions in 3 session\(s\) \(Qwen Code 1, Copilot CLI 1, Factory Droid 4\)/);
});
