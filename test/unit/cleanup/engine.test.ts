// Cleanup engine on real transcripts: what is protected, what each rule does, and the fidelity targets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanupSession, ruleSettings } from '../../../src/core/cleanup/engine';
import { compactSession } from '../../../src/core/compact/compactSession';
import { pairsIntact } from '../../../src/core/compact/fidelity';
import type { Message, Session } from '../../../src/core/model/transcript';
import { buildTurns } from '../../../src/core/read/turns';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { bigClaudeFixture } from '../../support/bigFixture';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';

const read = async (p: string): Promise<Session> => (await readTranscriptFile(p, { keepRaw: true })).session;
let n = 0;
const ctx = { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-02T00:00:00Z') };

test('the recent part keeps the work verbatim: its words and small calls, the newest results within the budget, the latest prompt', async () => {
  const s = await read(CLAUDE_SAMPLE);
  for (const keep of [1, 3, 6]) {
    const r = cleanupSession(s, { keepRecentTurns: keep });
    assert.ok(s.turns.some((t) => t.start === r.protection.fromMessage), 'recent part starts at a turn');
    const modelTurns = s.turns.slice(r.protection.fromTurn).filter((t) => t.kind === 'model').length;
    assert.ok(modelTurns >= keep);
    const out = new Set(r.session.messages.flatMap((m) => m.blocks));
    let results = 0;
    s.messages.slice(r.protection.fromMessage).forEach((m, k) => {
      for (const b of m.blocks) {
        const i = r.protection.fromMessage + k;
        const kept = out.has(b);
        if (b.type === 'text' || (b.type === 'tool_call' && b.tokens <= 200)) assert.ok(kept, `recent ${b.type} kept verbatim`);
        if (b.type === 'reasoning') assert.equal(kept, i >= r.protection.latestTurnFrom, 'only the newest turn keeps its reasoning');
        if (b.type === 'tool_result') { assert.equal(kept, r.protection.keptResults.has(b.id), 'results kept exactly as the protection says'); if (kept) results += b.tokens; }
      }
    });
    assert.ok(results <= 4000 || r.protection.parts.some((p) => p.reason === 'latest-results'), `verbatim recent results stay in the budget (${results})`);
    const prompt = s.messages[r.protection.latestPrompt!]!;
    assert.ok(prompt.blocks.every((b) => out.has(b)), 'latest prompt verbatim');
    assert.ok(r.protection.parts.some((p) => p.reason === 'latest-prompt'));
  }
});

test('a session that stops mid-loop keeps the results its last turn has not answered first, within the budget', async () => {
  const s = await read(CLAUDE_SAMPLE);
  // Cut right after results the model has not answered, one of them large (an agent compacting mid-loop).
  const lastResults = s.messages.map((m, i) => ({ m, i })).filter(({ m }) => m.toolResultsOnly && m.blocks.some((b) => b.type === 'tool_result' && b.tokens > 200)).pop()!;
  const messages = s.messages.slice(0, lastResults.i + 1);
  const cut: Session = { ...s, messages, turns: buildTurns(messages) };
  const pending = lastResults.m.blocks.filter((b) => b.type === 'tool_result');
  const total = pending.reduce((a, b) => a + b.tokens, 0);
  // Room for all of them: they stay, counted as the results being acted on.
  const roomy = cleanupSession(cut, { keepRecentTurns: 3, keepRecentResultTokens: Math.ceil(total) + 1 });
  const kept = new Set(roomy.session.messages.flatMap((m) => m.blocks));
  for (const b of pending) assert.ok(kept.has(b), 'the results being acted on stay when they fit');
  assert.ok(roomy.protection.parts.some((p) => p.reason === 'latest-results'));
  // No room: a large one becomes a record like any recent result over the budget (it used to stay whole whatever its size).
  const large = pending.filter((b) => b.tokens > 200);
  assert.ok(large.length > 0, 'the sample\'s last turn read something large');
  const tight = cleanupSession(cut, { keepRecentTurns: 3, keepRecentResultTokens: 1 });
  const out = new Set(tight.session.messages.flatMap((m) => m.blocks));
  for (const b of large) {
    assert.ok(!out.has(b), 'a result over the budget does not stay whole');
    const record = tight.session.messages.flatMap((m) => m.blocks).find((x) => x.type === 'tool_result' && x.id === (b as { id: string }).id);
    assert.ok(record && record.tokens < b.tokens, 'it stays as a smaller record, paired with its call');
  }
  assert.ok(pairsIntact(tight.session.messages, cut.messages));
});

test('a token budget protects the recent part instead of a turn count', async () => {
  const s = await read(CLAUDE_SAMPLE);
  const small = cleanupSession(s, { keepRecentTurns: 6, keepRecentTokens: 2000 });
  const large = cleanupSession(s, { keepRecentTurns: 6, keepRecentTokens: 60000 });
  assert.ok(small.protection.fromMessage > large.protection.fromMessage);
});

test('each rule does what it says, and can be switched off', async () => {
  const s = await read(CLAUDE_SAMPLE);
  const r = cleanupSession(s, { keepRecentTurns: 2 });
  const old = r.session.messages.slice(0, 10).flatMap((m) => m.blocks);
  assert.ok(!old.some((b) => b.type === 'reasoning'), 'drop-reasoning');
  const blocks = r.session.messages.flatMap((m) => m.blocks);
  // The oldest turns became one snapshot; the middle band before the recent part keeps per-call records.
  assert.ok(r.rules['state-snapshot'].applied > 0 && r.snapshot, 'state-snapshot');
  assert.equal(blocks.filter((b) => b.type === 'summary').length, 1);
  assert.ok(blocks.some((b) => b.type === 'tool_result' && b.text.startsWith('[context-compactor: ')), 'tool-records in the middle band');
  // Without the snapshot, far pairs fold into one line and nearer results become records.
  const plain = cleanupSession(s, { keepRecentTurns: 2, rules: { 'state-snapshot': { enabled: false } } });
  assert.ok(plain.rules['drop-reasoning'].applied > 0);
  const unsnapped = plain.session.messages.flatMap((m) => m.blocks);
  const records = unsnapped.filter((b) => b.type === 'tool_result' && b.text.startsWith('[context-compactor: Read result ok'));
  const folded = unsnapped.filter((b) => b.type === 'text' && b.text.startsWith('[context-compactor] Read('));
  assert.ok(records.length > 0 && folded.length > 0, `tool-records: ${records.length} records, ${folded.length} folded calls`);
  const off = cleanupSession(s, { keepRecentTurns: 2, rules: { 'state-snapshot': { enabled: false }, 'tool-records': { enabled: false }, 'drop-reasoning': { enabled: false } } });
  assert.equal(off.rules['tool-records'].applied, 0);
  assert.equal(off.rules['drop-reasoning'].applied, 0);
  assert.ok(off.rules['truncate-giant-results'].applied > 0, 'giant results are cut when records are off');
  assert.ok(off.session.messages.flatMap((m) => m.blocks).some((b) => b.type === 'reasoning'));
});

test('a tool call still waiting for its result is never touched', async () => {
  const s = await read(CLAUDE_SAMPLE);
  // Drop the last result so the newest call is pending, and protect nothing.
  const lastResult = s.messages.map((m, i) => ({ m, i })).filter(({ m }) => m.toolResultsOnly).pop()!;
  const messages: Message[] = s.messages.filter((_, i) => i !== lastResult.i);
  const pending = lastResult.m.blocks[0]!.type === 'tool_result' ? lastResult.m.blocks[0]!.id : '';
  const r = cleanupSession({ ...s, messages, turns: buildTurns(messages) }, { keepRecentTurns: 0 });
  const call = r.session.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_call' && b.id === pending);
  const orig = messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_call' && b.id === pending);
  assert.ok(call && call === orig);
});

for (const [label, file] of [['claude sample', CLAUDE_SAMPLE], ['codex sample', CODEX_SAMPLE], ['claude 8 MB', 'big']] as const) {
  test(`targets on ${label}: reduction ≥ 70 %, identifier recall ≥ 0.9, every pair intact`, async () => {
    const s = await read(file === 'big' ? bigClaudeFixture() : file);
    const out = compactSession(s, { keepRecentTurns: 6 }, ctx);
    assert.ok(out.figures.reduction >= 0.7, `reduction ${out.figures.reduction}`);
    assert.ok(out.figures.identifierRecall >= 0.9, `recall ${out.figures.identifierRecall}`);
    assert.equal(out.figures.pairsIntact, true);
    assert.ok(out.figures.identifiers.total > 50);
  });
}

test('rule parameters are whole numbers ≥ 0; tailLines 0 shows no tail; unknown or non-finite values keep the default', async () => {
  const settings = ruleSettings({ keepRecentTurns: 6, rules: { 'tool-records': { params: { tailLines: 0, headLines: 2.7, lineChars: -5, maxErrorChars: Number.NaN, bogus: 3 } } } });
  const p = settings['tool-records'].params;
  assert.deepEqual([p.tailLines, p.headLines, p.lineChars, p.maxErrorChars, p.bogus], [0, 2, 0, 2000, undefined]);
  const s = await read(CLAUDE_SAMPLE);
  const r = cleanupSession(s, { keepRecentTurns: 2, rules: { 'tool-records': { params: { tailLines: 0, headLines: 1, detailTurns: 1000 } } } });
  const records = r.session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result' && b.text.includes('lines omitted'));
  assert.ok(records.length > 0);
  for (const b of records) {
    const text = (b as { text: string }).text;
    const shown = text.split('\n');
    const omitted = shown.findIndex((l) => l.includes('lines omitted'));
    // Head line, then the omission marker; after it at most the identifier list, never tail lines.
    assert.equal(omitted, 2, text.slice(0, 300));
    assert.ok(shown.slice(omitted + 1).every((l) => l.startsWith('[identifiers: ')), text.slice(-300));
  }
});
