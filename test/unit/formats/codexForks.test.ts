// Resumed and forked Codex rollouts (test/fixtures/codex/FORKS.md: real Codex 0.169 and 0.130, offline): what each
// writes before its next prompt is harness only when it is the context a session starts with.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Session } from '../../../src/core/model/transcript';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const V169 = path.join(FIXTURES, 'codex', 'forks-0.169.0');
const V130 = path.join(FIXTURES, 'codex', 'forks-0.130.0');
const PARENT_169 = path.join(V169, 'rollout-2026-12-06T21-50-45-01a24d56-84d4-7ec2-9a4c-cea1d0711aec.jsonl');
const FORK_169 = path.join(V169, 'rollout-2026-12-06T21-50-46-01a24d56-8984-75c1-b0a5-c55fa671043d.jsonl');
const FORK_130 = path.join(V130, 'rollout-2026-12-06T21-52-27-01a24d58-14f5-7f01-9177-1e93a8aaf17c.jsonl');

/** Each developer or harness block as `line:subtype:first words`. */
const contextBlocks = (s: Session): string[] =>
  s.messages.flatMap((m) => m.blocks).flatMap((b) => (b.type === 'meta' && b.subtype !== 'instructions' ? [`${b.ref.record}:${b.subtype}:${b.text.slice(0, 14).replace(/\n/g, ' ')}`] : []));

test('a resumed rollout (0.169, another model): the model switch and changed tools after the first prompt are notices', async () => {
  const { session } = await readTranscriptFile(PARENT_169);
  assert.deepEqual(contextBlocks(session), [
    '2:developer:<skills_instru', '2:developer:<permissions i', '2:developer:<tools> Deferr',
    '3:harness:<environment_c',
    '17:notice:<model_switch>', '18:notice:<skills_instru', '18:notice:<tools> Remove',
  ]);
});

test('a fork that points at its parent\'s history (0.169 history_base): what it writes before its prompt is notices, and it says the history is elsewhere', async () => {
  const { session } = await readTranscriptFile(FORK_169);
  assert.equal(session.id, '01a24d56-8984-75c1-b0a5-c55fa671043d');
  assert.deepEqual(contextBlocks(session), ['4:notice:<model_switch>', '5:notice:<skills_instru', '5:notice:<tools> Deferr']);
  assert.ok(session.warnings.some((w) => w.includes('a fork of session 01a24d56-84d4-7ec2-9a4c-cea1d0711aec')), session.warnings.join('\n'));
});

test('a fork holding its parent\'s lines (0.130): its own id, the copied start-of-session context harness, the changed approval policy a notice', async () => {
  const { session } = await readTranscriptFile(FORK_130);
  assert.equal(session.id, '01a24d58-14f5-7f01-9177-1e93a8aaf17c');
  assert.deepEqual(contextBlocks(session), ['3:developer:<permissions i', '3:developer:<skills_instru', '4:harness:<environment_c', '23:notice:<permissions i']);
  assert.deepEqual(session.messages.filter((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text')).map((m) => m.blocks.find((b) => b.type === 'text')!.text),
    ['First prompt: say one.', 'Second prompt after resume.', 'Third prompt, in the fork.']);
  assert.deepEqual(session.warnings, []);
});
