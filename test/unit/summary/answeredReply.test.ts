// With a summary, on real transcripts: a short latest prompt keeps the words of the reply it answers when the summary
// stands for everything the model said after it (text only, its end within a bound), and the recent budget is a share
// of the history without the pinned prompt (a huge paste does not keep more of the other turns).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cleanupSession } from '../../../src/core/cleanup/engine';
import { compactSession, summarizedMessages } from '../../../src/core/compact/compactSession';
import { REPLY_MAX_TOKENS, replyOf } from '../../../src/core/compact/replyKept';
import { typedWords } from '../../../src/core/model/userWords';
import { splitOf } from '../../../src/core/compact/stages';
import type { Message, Session } from '../../../src/core/model/transcript';
import { estimateTokens } from '../../../src/core/tokens/estimate';
import { agentCompactions } from '../../../src/node/eval/segments';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const REAL = path.join(FIXTURES, 'real');
const read = async (file: string): Promise<Session> => (await readTranscriptFile(file, { keepRaw: true })).session;
const text = (m: Message | undefined): string => (m?.blocks ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
const tokens = (m: Message): number => m.blocks.reduce((n, b) => n + b.tokens, 0);

/** The segment before the agent's compaction `k` (the context it held then). */
async function segment(rel: string, k: number): Promise<Session> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-answered-'));
  try {
    return await read((await (await agentCompactions(path.join(REAL, rel))).write(k, dir)).segment);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The session as it stood at line `n` of a real file (a transcript is appended to: its head is the session then). */
async function headOf(rel: string, n: number): Promise<{ session: Session; lines: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-answered-'));
  try {
    const lines = fs.readFileSync(path.join(REAL, rel), 'utf8').split('\n');
    const file = path.join(dir, path.basename(rel));
    fs.writeFileSync(file, `${lines.slice(0, n).join('\n')}\n`);
    return { session: await read(file), lines };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ctx = { newId: (() => { let n = 0; return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`; })(), now: () => new Date('2026-12-06T00:00:00Z') };

test('ticketing (Gemini CLI): "yes" keeps the end of the reply it answers between the summary and the prompt; pairs intact', async () => {
  const s = await read(path.join(REAL, 'gemini-cli', 'ticketing-nover-jsonl-format-windows.jsonl'));
  const r = cleanupSession(s, { keepRecentTurns: 6 });
  assert.equal(text(s.messages[r.protection.latestPrompt!]).trim(), 'yes');
  const split = splitOf(s, r);
  assert.ok(!split.recent.some((m) => m.role === 'assistant'), 'the newest model turn went into the summary');
  assert.equal(split.pinned.length, 2);
  const [reply, prompt] = split.pinned as [Message, Message];
  assert.equal(reply.role, 'assistant');
  assert.equal(text(prompt).trim(), 'yes');
  assert.ok(reply.blocks.every((b) => b.type === 'text'), 'words only');
  assert.ok(tokens(reply) <= REPLY_MAX_TOKENS + 5, `${tokens(reply)} tokens`);
  // The reply is longer than the bound: its end stays (the question it asks), its start is left to the summary.
  const original = s.messages[r.protection.latestPrompt! - 1]!;
  const lastLine = text(original).trimEnd().split('\n').pop()!;
  assert.ok(text(reply).endsWith(lastLine), text(reply).slice(-200));
  assert.match(text(reply), /^\[context-compactor: the first \d+ characters of this reply are in the summary above\]/);
  const out = summarizedMessages(s, r, 'SUMMARY').messages;
  const at = out.findIndex((m) => m.blocks.some((b) => b.type === 'summary'));
  assert.deepEqual(out.slice(at + 1).map((m) => m.role), ['assistant', 'user']);
  const outcome = compactSession(s, { keepRecentTurns: 6 }, ctx, { text: 'SUMMARY' }, r);
  assert.equal(outcome.figures.pairsIntact, true);
  assert.ok(outcome.written.kind === 'lines' && outcome.written.lines.length > 0);
});

test('idaho #4 (Claude Code): the reply a short prompt answers stays without its thinking; nothing of it is also in the aging part', async () => {
  const s = await segment('claude-code/idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl', 3);
  const r = cleanupSession(s, { keepRecentTurns: 6 });
  const original = s.messages[r.protection.latestPrompt! - 1]!;
  assert.ok(original.role === 'assistant' && original.blocks.some((b) => b.type === 'reasoning'), 'the reply thought first');
  const split = splitOf(s, r);
  assert.equal(split.pinned.length, 2);
  const reply = split.pinned[0]!;
  assert.deepEqual(reply.blocks.map((b) => b.type), original.blocks.filter((b) => b.type === 'text' && b.text.trim()).map(() => 'text'));
  const aging = new Set(split.aging.flatMap((m) => m.blocks));
  for (const b of reply.blocks) assert.ok(!aging.has(b), 'a word kept whole is not summarized too');
  const outcome = compactSession(s, { keepRecentTurns: 6 }, ctx, { text: 'SUMMARY' }, r);
  assert.equal(outcome.figures.pairsIntact, true);
});

test('a long prompt states its own request, and a model turn kept after the prompt says what it meant: no reply kept then', async () => {
  // odoo-addons #1: a 200-token prompt; idaho #5: "1 + 2" with the model's turn after it verbatim.
  const odoo = await segment('corpus/claude-code/odoo-addons-2.1.128-2compactions.jsonl', 0);
  assert.equal(splitOf(odoo, cleanupSession(odoo, { keepRecentTurns: 6 })).pinned.length, 1);
  const idaho = await segment('claude-code/idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl', 4);
  const r = cleanupSession(idaho, { keepRecentTurns: 6 });
  assert.equal(text(idaho.messages[r.protection.latestPrompt!]).trim(), '1 + 2');
  const split = splitOf(idaho, r);
  assert.ok(split.recent.some((m) => m.role === 'assistant'));
  assert.equal(split.pinned.length, 1);
});

/** The same session with `paste` appended to the latest prompt's text (the edit: one text block longer, nothing else). */
function withPaste(s: Session, at: number, paste: string): Session {
  return { ...s, messages: s.messages.map((m, i) => (i !== at ? m : { ...m, blocks: m.blocks.map((b) => (b.type === 'text' ? { ...b, text: `${b.text}\n${paste}`, tokens: estimateTokens(`${b.text}\n${paste}`) } : b)) })) };
}

for (const [name, rel, k] of [['bohack #1 (Claude Code)', 'corpus/claude-code/bohack-2.0.29-compacted-images.jsonl', 0], ['shellws #1 (Codex)', 'codex/shellws-0.105.0-compacted-websearch.jsonl', 0]] as const) {
  test(`${name}: a 60k-token paste in the latest prompt keeps no more of the other turns verbatim`, async () => {
    const s = await segment(rel, k);
    const r = cleanupSession(s, { keepRecentTurns: 6 });
    const paste = Array.from({ length: 3000 }, (_, i) => `2026-03-01T10:${String(i % 60).padStart(2, '0')}:00Z worker-${i % 7} INFO processed batch ${i} in ${i % 97} ms`).join('\n');
    assert.ok(estimateTokens(paste) > 55_000);
    const big = withPaste(s, r.protection.latestPrompt!, paste);
    const before = splitOf(s, r), after = splitOf(big, cleanupSession(big, { keepRecentTurns: 6 }));
    assert.equal(after.pinned.length, 1, 'the prompt stays verbatim, paste and all');
    assert.ok(text(after.pinned[0]).includes(paste.slice(-60)));
    assert.deepEqual(after.recent.map((m) => m.records[0]), before.recent.map((m) => m.records[0]));
  });
}

test('bohack (Claude Code, VS Code): the IDE note attached to a short prompt is not its length — "还有signup界面，同理" keeps the reply it answers', async () => {
  // The file as it stood after that prompt's model turn (a JSONL transcript is appended to: its first 405 lines are
  // the session at that moment). Claude Code's VS Code extension puts an <ide_opened_file> block (57 tokens) before
  // nearly every prompt: counted as the prompt's words, no short prompt typed there would keep its reply.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-answered-'));
  try {
    const lines = fs.readFileSync(path.join(REAL, 'corpus', 'claude-code', 'bohack-2.0.29-compacted-images.jsonl'), 'utf8').split('\n');
    const file = path.join(dir, 'bohack.jsonl');
    fs.writeFileSync(file, `${lines.slice(0, 405).join('\n')}\n`);
    const s = await read(file);
    const r = cleanupSession(s, { keepRecentTurns: 6 });
    const prompt = s.messages[r.protection.latestPrompt!]!;
    assert.match(text(prompt), /^<ide_opened_file>/);
    assert.ok(text(prompt).endsWith('还有signup界面，同理'));
    const split = splitOf(s, r);
    assert.ok(!split.recent.some((m) => m.role === 'assistant'), 'the model turn after the prompt went into the summary');
    assert.deepEqual(split.pinned.map((m) => m.role), ['assistant', 'user']);
    assert.ok(text(split.pinned[0]).includes('白色按钮'), 'the reply the prompt answers (the login page made dark, the button white)');
    // Its Chinese end cut as the estimator counts it whole (its lines one by one counted 460 tokens as ~230).
    const reply = split.pinned[0]!;
    assert.ok(tokens(reply) <= REPLY_MAX_TOKENS, `${tokens(reply)} tokens`);
    for (const b of reply.blocks) assert.equal(b.tokens, estimateTokens('text' in b ? b.text : ''));
    assert.equal(compactSession(s, { keepRecentTurns: 6 }, ctx, { text: 'SUMMARY' }, r).figures.pairsIntact, true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('Copilot CLI: the <current_datetime> it puts before every prompt (~21 tokens) is not the prompt\'s words', async () => {
  const s = await read(path.join(FIXTURES, 'copilot-cli', 'session-1.0.102', '80dc1b16-a9b9-4c11-8066-9969904ca64a', 'events.jsonl'));
  const prompts = s.messages.filter((m) => m.role === 'user' && !m.toolResultsOnly && text(m).trim());
  assert.ok(prompts.length >= 2);
  for (const m of prompts) assert.match(text(m), /^<current_datetime>[^<]+<\/current_datetime>\s+\S/);
  assert.deepEqual(prompts.slice(0, 2).map((m) => typedWords(text(m))), ['What does price.js compute?', 'Raise the rate to 8 percent.']);
});

test('idaho (Claude Code): a prompt after "Prompt is too long" (an error Claude Code wrote, model <synthetic>) and a /model switch answers no reply', async () => {
  // The file as it stood at its line 167 (appended to, so its head is the session then): the request was re-asked
  // after the switch; the error is not the model's words, neither pinned by cleanup nor kept beside the prompt.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-answered-'));
  try {
    const lines = fs.readFileSync(path.join(REAL, 'claude-code', 'idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl'), 'utf8').split('\n');
    const file = path.join(dir, 'idaho.jsonl');
    fs.writeFileSync(file, `${lines.slice(0, 167).join('\n')}\n`);
    const s = await read(file);
    const r = cleanupSession(s, { keepRecentTurns: 6 });
    const at = r.protection.latestPrompt!;
    assert.equal(text(s.messages[at]).trim(), 'VAULTED VOLUNTEERS REQUESTED');
    let error = at - 1;
    while (s.messages[error]!.role !== 'assistant') error--;
    assert.equal(s.messages[error]!.model, '<synthetic>');
    assert.equal(text(s.messages[error]).trim(), 'Prompt is too long');
    assert.equal(r.protection.promptContext, undefined);
    assert.deepEqual(splitOf(s, r).pinned.map((m) => m.role), ['user']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('shellws (Codex 0.105): a session just compacted by /compact ends on the agent\'s summary — no short prompt, no reply kept', async () => {
  // The rollout as it stood right after its first compaction (its first 1,821 lines: the `compacted` record is the
  // last), before the next prompt: the latest user message is the replacement history's encrypted summary alone.
  const { session: s, lines } = await headOf('codex/shellws-0.105.0-compacted-websearch.jsonl', 1821);
  assert.match(lines[1820]!, /"type":"compacted"/);
  const r = cleanupSession(s, { keepRecentTurns: 6 });
  const latest = s.messages[r.protection.latestPrompt!]!;
  assert.deepEqual(latest.blocks.map((b) => b.type), ['summary']);
  assert.equal(s.messages[r.protection.latestPrompt! - 1]!.role, 'assistant', 'a reply with words stands right before it');
  assert.equal(replyOf(s, r), undefined);
  assert.equal(r.protection.promptContext, undefined);
  assert.ok(splitOf(s, r).pinned.every((m) => m.role !== 'assistant'));
});
