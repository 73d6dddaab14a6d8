// The hook's text from facts read off a real session: sections by need, the budget, what the summary states left out.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { hookBudget, hookContext, HOOK_BUDGET_TOKENS } from '../../../src/core/hook/context';
import { hookFacts } from '../../../src/core/hook/facts';
import { estimateTokens } from '../../../src/core/tokens/estimate';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CODEX_SAMPLE, FIXTURES } from '../../support/fixtures';

test('budget: 2,000 tokens, never more than a known summary', () => {
  assert.equal(hookBudget(undefined), HOOK_BUDGET_TOKENS);
  const small = 'The user fixed the parser. '.repeat(20);
  assert.equal(hookBudget(small), estimateTokens(small));
  assert.equal(hookBudget('x '.repeat(20_000)), HOOK_BUDGET_TOKENS);
});

test('a small summary caps the context at its own size; errors keep their meaningful line, not a header', async () => {
  const { session } = await readTranscriptFile(path.join(FIXTURES, 'real', 'claude-code', 'tpos-2.0.57-4compactions.jsonl'));
  const facts = hookFacts(session.messages);
  assert.ok(facts.facts.errors.length > 0 && facts.facts.errors.every((e) => !/^Exit code \d+$/.test(e.line)), JSON.stringify(facts.facts.errors.slice(0, 3)));
  const full = hookContext(facts, { cwd: session.cwd });
  assert.ok(estimateTokens(full) <= HOOK_BUDGET_TOKENS && estimateTokens(full) > 300, `${estimateTokens(full)}`);
  const summary = 'A short summary of what happened in this session, nothing more. '.repeat(6);
  const capped = hookContext(facts, { summary, cwd: session.cwd });
  assert.ok(estimateTokens(capped) <= estimateTokens(summary), `${estimateTokens(capped)} > ${estimateTokens(summary)}`);
  assert.ok(capped.length > 0 && capped.length < full.length);
});

test('Codex apply_patch changes name their files and what the patch did', async () => {
  const { session } = await readTranscriptFile(path.join(FIXTURES, 'real', 'codex', 'brainbuddy-0.64.0-4compactions-apply-patch.jsonl'));
  const facts = hookFacts(session.messages);
  const patched = [...facts.facts.files.values()].filter((f) => f.edits || f.created || f.deleted);
  assert.ok(patched.length > 0);
  // The hook names them with the shape of their change (created / edited N× with lines added and removed).
  const text = hookContext(facts, { cwd: session.cwd });
  assert.match(text, /: (?:created|edited \d+×|deleted)[^\n]*\+\d+ −\d+/);
  const { session: sample } = await readTranscriptFile(CODEX_SAMPLE);
  assert.ok(hookFacts(sample.messages).facts.commands.size > 0, 'Codex exec_command calls are commands');
});
