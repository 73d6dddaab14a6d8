// Codex's mid-session developer notices (collaboration-mode switches, approved command prefixes, plugin capabilities)
// are history, not harness: on a real Codex Desktop 0.118 rollout (test/fixtures/real/SOURCES.tsv, LAF-US/IDAHO-VAULT)
// counting them as harness made the harness larger than the whole compacted request.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_CLEANUP } from '../../../src/core/cleanup/types';
import { harnessMessageTokens } from '../../../src/core/compact/measure';
import { prepareCompaction } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const REAL = path.join(FIXTURES, 'real', 'codex');
const IDAHO_118 = path.join(REAL, 'idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
const IDAHO_117 = path.join(REAL, 'idaho-0.117.0-alpha.10-compacted-websearch-image-windows.jsonl');
const SHELLWS_105 = path.join(REAL, 'shellws-0.105.0-compacted-websearch.jsonl');

const developerMeta = (s: Awaited<ReturnType<typeof readTranscriptFile>>['session']) =>
  s.messages.flatMap((m) => m.blocks).flatMap((b) => (b.type === 'meta' && (b.subtype === 'developer' || b.subtype === 'notice') ? [b] : []));

test('developer messages before the first typed prompt stay initial context, later ones are notices', async () => {
  const { session } = await readTranscriptFile(IDAHO_118);
  const blocks = developerMeta(session);
  const initial = blocks.filter((b) => b.subtype === 'developer'), notices = blocks.filter((b) => b.subtype === 'notice');
  // Record 3 (0-based 2) holds the six start-of-session instructions: permissions, app context, mode, apps, skills, plugins.
  assert.deepEqual(new Set(initial.map((b) => b.ref.record)), new Set([2]));
  assert.equal(initial.length, 6);
  assert.ok(notices.some((b) => b.text.startsWith('<collaboration_mode># Plan Mode')));
  assert.ok(notices.some((b) => b.text.startsWith('Approved command prefix saved')));
  assert.ok(notices.some((b) => b.text.startsWith('Capabilities from the `Linear` plugin')));
});

test('a compaction\'s replacement history re-injects the initial context: still developer, not a notice', async () => {
  const { session } = await readTranscriptFile(IDAHO_117);
  const blocks = developerMeta(session);
  assert.ok(blocks.some((b) => b.subtype === 'developer' && b.text.startsWith('<permissions instructions>') && b.ref.item !== undefined));
  // After the compaction the person asked to change the communication style: a notice.
  assert.ok(blocks.some((b) => b.subtype === 'notice' && b.text.startsWith('<personality_spec>')));
});

test('the initial context Codex re-injects right after a compaction (not in its replacement history) stays developer', async () => {
  // shellws 0.105: the compaction (line 1820, 0-based) replaces the history with the user and assistant messages
  // only; Codex then writes its initial context again, before the next typed prompt: permissions, the collaboration
  // mode and the personality as developer messages (lines 1822-1824), AGENTS.md and the environment.
  const { session } = await readTranscriptFile(SHELLWS_105);
  const blocks = developerMeta(session);
  const after = blocks.filter((b) => b.ref.record >= 1822 && b.ref.record <= 1824);
  assert.equal(after.length, 3);
  assert.deepEqual(after.map((b) => b.subtype), ['developer', 'developer', 'developer']);
  assert.ok(after[0]!.text.startsWith('<permissions instructions>'));
  // They follow the replacement history's messages (not leading), so their subtype alone makes them harness.
  const prompt = session.messages.find((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text'))!;
  const theirs = session.messages.filter((m) => m.blocks.some((b) => after.includes(b as never)));
  assert.equal(harnessMessageTokens({ messages: [prompt, ...theirs] }, 1), after.reduce((n, b) => n + b.tokens, 0));
});

test('the harness of the real session is smaller than the compacted request and the notices count as history', async () => {
  const { outcome } = await prepareCompaction(IDAHO_118, DEFAULT_CLEANUP);
  const f = outcome.figures;
  assert.ok(f.harnessTokens < f.after.tokens, `harness ${f.harnessTokens} ≥ after ${f.after.tokens}`);
  assert.ok(f.before.historyTokens > 80_000, `history ${f.before.historyTokens}`);
});
