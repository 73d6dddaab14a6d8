// The history cut counts the agent's own initial context (Codex's instructions, AGENTS.md, environment context) as
// harness on every side: an output that holds it and one that does not (the agent re-sends it) measure the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { harnessMessageTokens, measureCompaction } from '../../../src/core/compact/measure';
import type { Block, Message, Session } from '../../../src/core/model/transcript';

const ref = { record: 0 };
const meta = (subtype: string, tokens: number): Block => ({ type: 'meta', subtype, text: 'x'.repeat(tokens * 4), ref, tokens });
const text = (tokens: number): Block => ({ type: 'text', text: 'y'.repeat(tokens * 4), ref, tokens });
const msg = (role: Message['role'], ...blocks: Block[]): Message => ({ role, blocks, records: [0] });
const session = (messages: Message[]): Session => ({
  format: 'codex', id: 's', models: [], records: [], messages, turns: [], warnings: [], endsWithNewline: true, extra: {},
} as unknown as Session);

const instructions = msg('system', meta('instructions', 1000));
const agentsMd = msg('user', meta('harness', 2000));
const developer = msg('system', meta('developer', 3000));
const original = session([instructions, agentsMd, developer, msg('user', text(50)), msg('assistant', text(40_000)), msg('user', text(60))]);

test('initial-context blocks are harness wherever they stand, other meta is not', () => {
  assert.equal(harnessMessageTokens(original, 1), 6000);
  // Not leading any more (Codex 0.117 puts them before the last user message): still harness.
  assert.equal(harnessMessageTokens(session([msg('user', text(5)), developer, agentsMd]), 1), 5000);
  assert.equal(harnessMessageTokens(session([msg('user', meta('system-reminder', 700))]), 1), 0);
  assert.equal(harnessMessageTokens(session([msg('system', meta('anything', 70)), msg('user', text(1)), msg('system', meta('anything', 30))]), 1), 70);
  // A Claude Code session that starts with the output of a command the user ran (`/model`): the user's, not harness.
  assert.equal(harnessMessageTokens(session([msg('system', meta('local_command', 80)), msg('system', meta('anything', 70)), msg('user', text(1))]), 1), 0);
});

test('an output without the initial context measures the same history as one that keeps it', () => {
  const kept = session([instructions, agentsMd, developer, msg('user', text(50)), msg('user', text(60))]);
  const resent = session([instructions, msg('user', text(50)), msg('user', text(60))]);
  const a = measureCompaction(original, kept, []), b = measureCompaction(original, resent, []);
  assert.equal(a.before.historyTokens, 40_110);
  assert.equal(a.after.historyTokens, 110);
  assert.equal(b.after.historyTokens, a.after.historyTokens);
  assert.equal(b.historyReduction, a.historyReduction);
});
