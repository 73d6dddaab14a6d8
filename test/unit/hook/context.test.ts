// The hook's text from facts read off a real session: sections by need, the budget, what the summary states left out.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { hookBudget, hookContext, HOOK_BUDGET_TOKENS } from '../../../src/core/hook/context';
import { hookFacts } from '../../../src/core/hook/facts';
import { estimateTokens } from '../../../src/core/tokens/estimate';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { guardContext } from '../../../src/node/hooks/compactedStretch';
import { CLAUDE_SAMPLE, CODEX_SAMPLE, FIXTURES } from '../../support/fixtures';

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

const IDAHO = path.join(FIXTURES, 'real', 'claude-code', 'idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl');

test('what a command printed and the summary rounded away comes back: versions, sizes in their line, hashes, PRs, the push error', async () => {
  const fifth = await guardContext(IDAHO, undefined, 4);
  const sixth = await guardContext(IDAHO, undefined, 5);
  // Each is in the compacted history's tool output and not in the agent's summary.
  for (const [r, facts] of [[fifth, ['v2.7.0', '171 MB']], [sixth, ['2ea595fd', '#234', 'https://github.com/LAF-US/IDAHO-VAULT/pull/234', 'remote: error: GH013: Repository rule violations found for refs/heads/main.']]] as const) {
    for (const fact of facts) {
      assert.ok(!r.stretch.summary!.includes(fact), fact);
      assert.ok(r.context.includes(fact), `${fact} missing from:\n${r.context}`);
    }
  }
  // A number with a unit comes with the line that says what it measures.
  assert.match(fifth.context, /^- numbers with units: .*\w.* 171 MB \S+/m);
  // Identifiers are listed by kind.
  assert.match(sixth.context, /^- hashes and ids: .*2ea595fd/m);
  assert.match(sixth.context, /^- issues \/ PRs: .*#234/m);
});

test('what the summary already states is left out, and the room it leaves goes to the rest', async () => {
  const { session } = await readTranscriptFile(CLAUDE_SAMPLE);
  const facts = hookFacts(session.messages);
  const filler = ' The user worked on npm workspaces.'.repeat(300);
  const plain = hookContext(facts, { cwd: session.cwd, summary: filler });
  assert.match(plain, /^> Task 2: investigate how npm handles "workspace"/m);
  assert.match(plain, /^- NOTES-2\.md: created/m);
  const stating = hookContext(facts, { cwd: session.cwd, summary: `Task 2: investigate how npm handles "workspace", reproduce the missing-module error, and write notes in NOTES-2.md. ${filler}` });
  assert.doesNotMatch(stating, /^> Task 2/m);
  assert.match(stating, /^> Task 1: investigate/m);
  // The sample's facts fit in 2,000 tokens: the context says all it has, with no section cut short.
  assert.ok(estimateTokens(plain) < HOOK_BUDGET_TOKENS && !/omitted|…$/.test(plain));
});

test('harness echoes (slash commands and their output) are not listed as requests', async () => {
  const r = await guardContext(IDAHO, undefined, 5);
  assert.ok(r.context.includes('There is a new CODEX worktree'));
  assert.doesNotMatch(r.context, /^> <(?:command-name|local-command-stdout)>/m);
});

test('a request asked again is listed once among the latest requests (real Codex sessions: "commit" twice, a spec-kit template twice)', async () => {
  for (const rel of ['codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl', 'corpus/codex/specify-poker-0.77.0.jsonl']) {
    const { context } = await guardContext(path.join(FIXTURES, 'real', rel));
    const at = context.indexOf('Latest requests');
    assert.ok(at >= 0, rel);
    const requests = context.slice(at).split('\n## ')[0]!.split('\n').filter((l) => l.startsWith('> '));
    assert.ok(requests.length > 1, rel);
    assert.deepEqual(requests, [...new Set(requests)], rel);
  }
});
