// What a cleanup snapshot spends its tokens on, on real transcripts: an error line many commands printed says it
// once, the identifier floor is met by the shortest identifiers, the user's requests keep their room in a smaller
// budget, and the thinking behind the reply the latest prompt answers goes like any other old thinking.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cleanupSession } from '../../../src/core/cleanup/engine';
import { IdentifierListing } from '../../../src/core/cleanup/listing';
import type { Session } from '../../../src/core/model/transcript';
import { buildSnapshot } from '../../../src/core/snapshot';
import type { ErrorFact } from '../../../src/core/snapshot/collect';
import { errorItems, shortest } from '../../../src/core/snapshot/render';
import { agentCompactions } from '../../../src/node/eval/segments';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const REAL = path.join(FIXTURES, 'real');
const read = async (rel: string): Promise<Session> => (await readTranscriptFile(path.join(REAL, rel), {})).session;

/** The segment before the agent's `k`-th own compaction (0-based), as the agent held it. */
async function segment(rel: string, k: number): Promise<Session> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-snapshot-cost-'));
  try {
    const found = await agentCompactions(path.join(REAL, rel));
    return (await readTranscriptFile((await found.write(k, dir)).segment, {})).session;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const PS = '/bin/ps: Operation not permitted';

test('an error line that many commands printed (a shell profile warning) is one item with how many others printed it', async () => {
  const s = await segment('codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl', 0);
  const printed = s.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result' && b.text.includes(PS)).length;
  assert.ok(printed >= 5, `the segment's commands print the warning again and again (${printed})`);
  const snap = cleanupSession(s, { keepRecentTurns: 6 }).snapshot?.text ?? '';
  const errors = snap.slice(snap.indexOf('## Errors'), snap.indexOf('\n## ', snap.indexOf('## Errors') + 1));
  assert.equal(errors.split(PS).length - 1, 1, errors);
  assert.match(errors, new RegExp(`\\(and \\d+ other command\\(s\\)\\): \`[^\`]*${PS.replace(/[/.]/g, '\\$&')}\``), errors);
  // Other errors keep their own items.
  assert.ok(errors.includes('command not found: python'), errors);
});

test('errorItems: one item per distinct line, at its newest occurrence, fixed only when every run of it was', () => {
  const listing = new IdentifierListing(undefined);
  const e = (what: string, line: string, at: number, fixed?: string): ErrorFact => ({ what, line, key: `$ ${what}`, at, ...(fixed ? { fixed } : {}) });
  const items = errorItems([e('ls a', 'warn: x', 1), e('ls b', 'warn: x', 5), e('make', 'error: y', 3, 'a later run succeeded'), e('ls c', 'warn: x', 7, 'a later run succeeded')], listing);
  assert.equal(items.length, 2);
  const warn = items.find((i) => i.text.includes('warn: x'))!;
  assert.equal(warn.at, 7);
  assert.equal(warn.text, '- `ls c` (and 2 other command(s)): `warn: x` — 2 of 3 not fixed in this part (the newest fixed)');
  assert.equal(items.find((i) => i.text.includes('error: y'))!.text, '- `make`: `error: y` — fixed (a later run succeeded)');
});

test('the identifier floor is met by the shortest identifiers: a count is promised, and a long URL costs what ten hashes do', () => {
  const ids = ['https://storage.example.com/a/very/long/signed/url/0123456789abcdef0123456789abcdef', 'a1b2c3d4e5', 'src/x.ts', 'deadbeef12'];
  const size = (id: string): number => id.length + 2;
  assert.deepEqual([...shortest(ids, 3, size)].sort(), ['a1b2c3d4e5', 'deadbeef12', 'src/x.ts']);
  assert.equal(shortest(ids, 9, size).size, 4);
  // Equal sizes: the earlier (newer) first.
  assert.deepEqual([...shortest(['aaaa1111', 'bbbb2222', 'cccc3333'], 2, size)], ['aaaa1111', 'bbbb2222']);
});

test('a snapshot with no budget beyond its identifier floor lists the shortest of them, not the newest', async () => {
  const s = await read('claude-code/tpos-2.0.57-4compactions.jsonl');
  const snap = buildSnapshot(s.messages, { budgetTokens: 0, cwd: s.cwd, identifierFloor: 0.5 }).text;
  const listed = snap.slice(snap.indexOf('## Identifiers')).split('\n').slice(1).flatMap((l) => l.replace(/^- [^:]+: /, '').split(', ')).filter(Boolean);
  assert.ok(listed.length >= 10, snap.slice(snap.indexOf('## Identifiers')));
  const all = buildSnapshot(s.messages, { budgetTokens: 0, cwd: s.cwd, identifierFloor: 1 }).text;
  const every = all.slice(all.indexOf('## Identifiers')).split('\n').slice(1).flatMap((l) => l.replace(/^- [^:]+: /, '').split(', ')).filter(Boolean);
  const longest = Math.max(...listed.map((x) => x.length));
  const left = every.filter((x) => !listed.includes(x));
  assert.ok(left.length > 0 && left.every((x) => x.length >= longest - 2), `what is left out is the longest (${longest}): ${left.filter((x) => x.length < longest - 2).slice(0, 5).join(' | ')}`);
});

test('requests keep the room they have in a full budget when the rest of the snapshot gets less', async () => {
  const s = await segment('claude-code/tpos-2.0.57-4compactions.jsonl', 1);
  const section = (t: string): string => t.slice(t.indexOf('## Requests'), t.indexOf('\n## ', t.indexOf('## Requests') + 1));
  const full = buildSnapshot(s.messages, { budgetTokens: 4000, cwd: s.cwd });
  const small = buildSnapshot(s.messages, { budgetTokens: 400, cwd: s.cwd });
  const kept = buildSnapshot(s.messages, { budgetTokens: 400, cwd: s.cwd, requestTokens: 1800 });
  assert.ok(section(small.text).length < section(full.text).length, 'a small budget shortens the requests');
  assert.equal(section(kept.text), section(full.text), 'with their room kept they are as in the full budget');
  assert.ok(kept.tokens < full.tokens, `the snapshot is still smaller (${kept.tokens} < ${full.tokens})`);
});

test('the reasoning of the reply the latest prompt answers goes; its words stay', async () => {
  const s = await read('claude-code/volcano-2.1.92-subagent-aside-question.jsonl');
  const r = cleanupSession(s, { keepRecentTurns: 6 });
  const at = r.protection.promptContext;
  assert.ok(at !== undefined && at < r.protection.fromMessage, 'the latest prompt answers a reply older than the recent part');
  const reply = s.messages[at]!;
  const thinking = reply.blocks.filter((b) => b.type === 'reasoning');
  assert.ok(thinking.length > 0 && thinking.some((b) => b.tokens > 500), 'that reply thought first');
  const out = new Set(r.session.messages.flatMap((m) => m.blocks));
  for (const b of thinking) assert.ok(!out.has(b), 'its thinking is dropped');
  for (const b of reply.blocks.filter((x) => x.type === 'text')) assert.ok(out.has(b), 'its words stay verbatim');
  assert.ok(r.rules['drop-reasoning'].tokensSaved >= thinking.reduce((a, b) => a + b.tokens, 0) - 1);
});
