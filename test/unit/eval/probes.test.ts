// Probes: what they find in a session built to hold each kind of fact, what a lossy output loses, and that every
// probe of every real transcript is found in that transcript itself (same input, same figures).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkProbes } from '../../../src/core/eval/checkProbes';
import { extractProbes } from '../../../src/core/eval/probes';
import { sessionText } from '../../../src/core/eval/text';
import { PROBE_KINDS } from '../../../src/core/eval/types';
import type { Block, Message, Session } from '../../../src/core/model/transcript';
import { buildTurns } from '../../../src/core/read/turns';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';

let rec = 0;
const ref = (): { record: number } => ({ record: rec++ });
const text = (role: Message['role'], t: string): Message => ({ role, records: [rec], blocks: [{ type: 'text', text: t, ref: ref(), tokens: 10 }] });
const call = (id: string, name: string, input: unknown): Message =>
  ({ role: 'assistant', records: [rec], blocks: [{ type: 'tool_call', id, name, input, inputText: JSON.stringify(input), ref: ref(), tokens: 20 }] });
const result = (id: string, t: string, isError = false): Message =>
  ({ role: 'user', records: [rec], toolResultsOnly: true, blocks: [{ type: 'tool_result', id, text: t, isError, mediaCount: 0, persisted: false, ref: ref(), tokens: 30 }] });
const session = (messages: Message[]): Session =>
  ({ format: 'claude-code', id: 's', cwd: '/repo', models: [], records: [], messages, turns: buildTurns(messages), warnings: [], endsWithNewline: true, extra: {} });

/** One of each fact a continuation needs. */
function workSession(): Session {
  return session([
    text('user', 'Fix the login bug. Don\'t touch the migrations folder.\nUse pnpm, not npm.'),
    call('t1', 'Edit', { file_path: '/repo/src/auth/login.ts', old_string: 'a', new_string: 'b' }), result('t1', 'ok'),
    call('t2', 'Bash', { command: 'pnpm test' }), result('t2', 'FAIL src/auth/login.test.ts\nError: expected 200 got 500', true),
    call('t3', 'Edit', { file_path: '/repo/src/auth/session.ts', old_string: 'c', new_string: 'd' }), result('t3', 'ok'),
    call('t4', 'Bash', { command: 'pnpm test' }), result('t4', '12 passed'),
    call('t5', 'TodoWrite', { todos: [{ content: 'Add a regression test for login', status: 'pending' }, { content: 'Fix login', status: 'completed' }] }), result('t5', 'ok'),
    call('t6', 'Read', { file_path: '/repo/CLAUDE.md' }), result('t6', '     1\u2192# Rules\n     2\u2192- Never commit directly to main.\n     3\u2192- Always run pnpm lint before pushing.'),
    text('assistant', 'Committed as 3f9a2b7c1d (see #482).'),
    text('user', 'Now also update the README with the new login flow.'),
  ]);
}

test('each kind of fact becomes its probes, newest first, the error with the run that fixed it', () => {
  const probes = extractProbes(workSession());
  const labels = (kind: string): string[] => probes.filter((p) => p.kind === kind).map((p) => p.label);
  assert.deepEqual(labels('files'), ['file /repo/src/auth/session.ts', 'file /repo/src/auth/login.ts']);
  assert.deepEqual(labels('commands'), ['command pnpm test']);
  assert.deepEqual(labels('ids'), ['id #482', 'id 3f9a2b7c1d']);
  assert.deepEqual(labels('todos'), ['open todo: Add a regression test for login']);
  assert.deepEqual(labels('constraints'), ['constraint: Use pnpm, not npm.', 'constraint: Don\'t touch the migrations folder.']);
  assert.deepEqual(labels('instructions'), ['instruction: Never commit directly to main.', 'instruction: Always run pnpm lint before pushing.']);
  assert.deepEqual(labels('request'), ['latest request: Now also update the README with the new login flow.']);
  assert.deepEqual(labels('error'), ['last error (fixed later): Error: expected 200 got 500', 'the run that fixed it: pnpm test']);
});

test('a lossy output keeps only what it says; a paraphrased rule counts, a rule reduced to one word does not', () => {
  const original = workSession();
  const probes = extractProbes(original);
  assert.equal(checkProbes(probes, sessionText(original)).kept, 1);
  const latest = original.messages[original.messages.length - 1]!;
  const summary = (t: string): Session => session([{ role: 'user', records: [], blocks: [{ type: 'summary', text: t, origin: 'agent', ref: { record: -1 }, tokens: 50 } as Block] }, latest]);
  const lossy = checkProbes(probes, sessionText(summary('Fixed the login handler in src/auth/login.ts; the migrations were mentioned.')));
  assert.deepEqual(lossy.byKind.files, { kept: 1, total: 2 });
  assert.deepEqual(lossy.byKind.request, { kept: 1, total: 1 });
  for (const k of ['commands', 'ids', 'todos', 'constraints', 'instructions', 'error'] as const) assert.equal(lossy.byKind[k]!.kept, 0, k);
  assert.equal(lossy.kept, Math.round((2 / probes.length) * 10000) / 10000);
  assert.ok(lossy.lost.includes('file /repo/src/auth/session.ts'));
  const paraphrased = checkProbes(probes, sessionText(summary('Constraints:\n- the migrations folder must not be touched\n- never commit directly to main')));
  assert.equal(paraphrased.byKind.constraints!.kept, 1);
  assert.equal(paraphrased.byKind.instructions!.kept, 1);
});

test('colours, encodings and tool ids are not ids; UUID groups are not counted again as hashes', () => {
  const s = session([
    text('user', 'Style it #333 and #ff0000, encode UTF-8. The run 123e4567-e89b-12d3-a456-426614174000 failed.'),
    call('toolu_01ABCDEF', 'Write', { file_path: '/repo/a.css', content: 'color: #333; /* #4821 */' }), result('toolu_01ABCDEF', 'ok'),
  ]);
  const ids = extractProbes(s).filter((p) => p.kind === 'ids').map((p) => p.label);
  assert.deepEqual(ids, ['id 123e4567-e89b-12d3-a456-426614174000']);
});

test('every probe of every real transcript is found in the transcript itself, and the figures repeat', async () => {
  const kinds = new Set<string>();
  const noModel: string[] = [];
  for (const f of realTranscripts()) {
    const { session: s } = await readTranscriptFile(f.file);
    const probes = extractProbes(s);
    for (const p of probes) kinds.add(p.kind);
    const outcome = checkProbes(probes, sessionText(s));
    assert.deepEqual(outcome.lost, [], f.label);
    // A history of slash commands only (a real aider file: /add, /copy-context, no model turn) states no fact a
    // continuation needs; every transcript in which the model answered has probes.
    if (s.messages.some((m) => m.role === 'assistant')) assert.ok(probes.length > 0, `${f.label}: no probes`);
    else noModel.push(f.label);
    assert.deepEqual(extractProbes(s), probes, `${f.label}: not deterministic`);
  }
  assert.deepEqual([...kinds].sort(), [...PROBE_KINDS].sort());
  assert.ok(noModel.length <= 1, `transcripts without a model turn: ${noModel.join(', ')}`);
});
