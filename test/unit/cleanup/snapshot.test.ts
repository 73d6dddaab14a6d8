// The state snapshot on real transcripts: the oldest turns become one block that keeps what records lost (error
// lines past `Exit code N`, multi-line commands, ids from old output, constraints verbatim), at a ≥ 90 % history cut.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cleanupSession } from '../../../src/core/cleanup/engine';
import { compactSession } from '../../../src/core/compact/compactSession';
import type { Session, ToolResultBlock } from '../../../src/core/model/transcript';
import { buildSnapshot } from '../../../src/core/snapshot';
import { commandText } from '../../../src/core/snapshot/commandText';
import { meaningfulLine, outcomeOf } from '../../../src/core/snapshot/errorLine';
import { typedWords } from '../../../src/core/model/userWords';
import { agentCompactions } from '../../../src/node/eval/segments';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const REAL = path.join(FIXTURES, 'real');
const read = async (rel: string): Promise<Session> => (await readTranscriptFile(path.join(REAL, rel), { keepRaw: true })).session;
let n = 0;
const ctx = { newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-06T00:00:00Z') };
const snapshotOf = (s: Session, rules = {}): string => cleanupSession(s, { keepRecentTurns: 6, rules }).snapshot?.text ?? '';

test('a Claude Code Bash error keeps its fatal line, not the `Exit code 128` header', async () => {
  const s = await read('claude-code/idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl');
  const result = s.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_result' && b.text.startsWith('Exit code 128\n'));
  assert.ok(result && result.type === 'tool_result', 'the fixture holds a real `Exit code 128` result');
  assert.equal(meaningfulLine(result.text), "fatal: invalid object name '!C'.");
  const snap = snapshotOf(s);
  assert.match(snap, /^## Errors$/m);
  assert.ok(snap.includes("`fatal: invalid object name '!C'.`"), snap);
  // The records this replaces said only `exit 128`; the header is never the error line.
  assert.doesNotMatch(snap, /`Exit code \d+`/);
});

test('a multi-line command stays a command, in a fenced block, with how it ended', async () => {
  const s = await read('claude-code/tpos-2.0.57-4compactions.jsonl');
  const call = s.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_call' && b.name === 'Bash' && String((b.input as { command?: string }).command).startsWith('curl -s -X POST http://localhost:8888/notify \\\n'));
  assert.ok(call && call.type === 'tool_call');
  const lines = String((call.input as { command: string }).command).split('\n');
  const snap = snapshotOf(s);
  const at = snap.indexOf(lines[0]!);
  assert.ok(at > 0, snap);
  // Its lines follow one another as written, inside a fence, and the outcome comes after the fence.
  assert.ok(snap.slice(at).startsWith(`${lines[0]}\n${lines[1]}\n${lines[2]}`), snap.slice(at, at + 300));
  assert.match(snap.slice(0, at), /```text\n$/);
  assert.match(snap.slice(at), /^```+ → (?:ok|exit \d+|failed)/m);
  assert.doesNotMatch(snap, /lines of text \(\d+ chars\); first:/);
});

test('ids from old tool results are listed by kind: commit hashes from git output, an issue URL', async () => {
  const s = await read('codex/idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
  const protectedFrom = cleanupSession(s, { keepRecentTurns: 6 }).protection.fromMessage;
  const old = s.messages.slice(0, protectedFrom).flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result').map((b) => (b as { text: string }).text).join('\n');
  const snap = snapshotOf(s);
  for (const hash of ['9fbb8a3', 'a035948', 'cf5a21d']) {
    assert.ok(old.includes(hash), `${hash} is in an old tool result`);
    assert.ok(snap.includes(hash), hash); // listed, or shown by the command or error that named it
  }
  assert.match(snap, /^- hashes and ids: .*\b9fbb8a3\b/m);
  const issues = await read('codex/idaho-0.117.0-alpha.10-compacted-websearch-image-windows.jsonl');
  assert.match(snapshotOf(issues), /^- URLs: .*https:\/\/github\.com\/org\/repo\/issues\/42/m);
  assert.match(snapshotOf(issues), /^- issues \/ PRs: .*#42\b/m);
});

test('requests and constraints verbatim: a long prompt keeps its opening and its constraint lines word for word', async () => {
  const s = await read('codex/idaho-0.117.0-alpha.10-compacted-websearch-image-windows.jsonl');
  const snap = snapshotOf(s);
  for (const line of ['refactor existing .md note tags', '- Parse only YAML frontmatter blocks when reading or rewriting note tags. Do not infer tags from arbitrary Markdown lists in the body.', '- Preserve exact-date, session, and election tags as tags. Do not migrate them into other metadata in this pass.']) {
    assert.ok(snap.includes(`\n${line}\n`), line);
  }
});

test('cleanup alone cuts a real history by ≥ 90 % with the snapshot (not without), every pair intact', async () => {
  for (const rel of ['claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl', 'codex/idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl']) {
    const s = await read(rel);
    const out = compactSession(s, { keepRecentTurns: 6 }, ctx);
    assert.ok(out.figures.historyReduction >= 0.9, `${rel}: history cut ${out.figures.historyReduction}`);
    assert.equal(out.figures.pairsIntact, true);
    assert.ok(out.figures.identifierRecall >= 0.9, `${rel}: recall ${out.figures.identifierRecall}`);
    const without = compactSession(s, { keepRecentTurns: 6, rules: { 'state-snapshot': { enabled: false } } }, ctx);
    assert.ok(without.figures.historyReduction < out.figures.historyReduction - 0.015, `${rel}: ${without.figures.historyReduction} without`);
  }
});

test('on every real transcript: pairs intact, one snapshot at most, placed where the replaced turns began', async () => {
  for (const dir of ['claude-code', 'codex', 'gemini-cli']) {
    for (const f of fs.readdirSync(path.join(REAL, dir))) {
      const s = await read(`${dir}/${f}`);
      const out = compactSession(s, { keepRecentTurns: 6 }, ctx);
      assert.equal(out.figures.pairsIntact, true, f);
      const at = out.result.messages.findIndex((m) => m.blocks.some((b) => b.type === 'summary' && b.origin === 'context-compactor'));
      assert.equal(out.result.messages.filter((m) => m.records.length === 0).length, out.cleanup.snapshot ? 1 : 0, f);
      if (!out.cleanup.snapshot) continue;
      // Only harness context (and instruction files) comes before it, and the pinned prompt when it is the session's
      // only one (a real Codex 0.118 VS Code session of one prompt: three harness messages, the prompt, then the
      // snapshot); the first kept turn after it is later than every replaced one.
      const before = out.result.messages.slice(0, at).filter((m) => !m.blocks.every((b) => b.type === 'meta' || b.type === 'summary'));
      const typed = s.messages.filter((m) => m.role === 'user' && !m.toolResultsOnly && m.blocks.some((b) => b.type === 'text' && typedWords(b.text) !== ''));
      assert.ok(before.length === 0 || at <= 2 || (before.length === 1 && before[0]!.role === 'user' && typed.length === 1), `${f}: snapshot at ${at}`);
      assert.ok(out.cleanup.snapshot.beforeRecord >= (out.result.messages[at + 1]?.records[0] ?? 0), f);
    }
  }
});

test('budgeted: newest facts win, the block stays within its budget', async () => {
  const s = await read('claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl');
  const big = buildSnapshot(s.messages, { budgetTokens: 6000, cwd: s.cwd });
  const small = buildSnapshot(s.messages, { budgetTokens: 800, cwd: s.cwd });
  assert.ok(small.tokens <= 800 * 1.1 && big.tokens <= 6000 * 1.1, `${small.tokens} / ${big.tokens}`);
  assert.ok(small.tokens < big.tokens);
  // The newest command is still there when the budget is short; the oldest goes first.
  const commands = (t: string): string[] => [...t.matchAll(/^- `([^`]+)` → /gm)].map((m) => m[1]!);
  const all = commands(big.text), few = commands(small.text);
  assert.ok(few.length > 0 && few.length < all.length);
  assert.equal(few.at(-1), all.at(-1));
});

test("a long template keeps its closing rule lines, not only its first list items (spec-kit's /speckit.analyze)", async () => {
  const s = await read('codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl');
  const prompt = s.messages.find((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text' && b.text.includes('**NEVER hallucinate missing sections**')));
  assert.ok(prompt, 'the fixture holds the /speckit.analyze template');
  const text = (prompt.blocks.find((b) => b.type === 'text') as { text: string }).text;
  // Dozens of list items come before its operating principles: a cap on lines kept in order of appearance cut them.
  assert.ok(text.split('\n').filter((l) => /^\s*(?:[-*+]|\d+[.)])\s+\S/.test(l)).length > 40);
  const snap = buildSnapshot([prompt], { budgetTokens: 4000, cwd: s.cwd }).text;
  for (const rule of ['**NEVER hallucinate missing sections** (if absent, report them accurately)', '**Prioritize constitution violations** (these are always CRITICAL)']) {
    assert.ok(snap.includes(rule), rule);
  }
  assert.ok(snap.includes('[… rest of this long message omitted]'), 'the long template is not kept whole');
});

test("files a Cline task wrote (`absolutePath`) are files changed; a file at the folder's top keeps its full path", async () => {
  const s = (await readTranscriptFile(path.join(FIXTURES, 'cline', 'cli-2.18.0-4turns', 'tasks', '1796291786979'), {})).session;
  assert.equal(s.cwd, '/tmp/gen-cline-c7sgPd/work');
  const snap = buildSnapshot(s.messages, { budgetTokens: 3000, cwd: s.cwd }).text;
  const files = snap.slice(snap.indexOf('## Files changed'));
  for (const k of [1, 2, 3, 4]) assert.match(files, new RegExp(`^- \`/tmp/gen-cline-c7sgPd/work/NOTES-${k}\\.md\`: written, edited 1×`, 'm'));
  // A path with a folder under the session's still reads relative to it.
  assert.match(files, /^- read: .*`src\/agents\/agent\.ts`/m);
});

test('an identifier that is part of a listed one (a UUID and its groups) is listed once, in the longer', () => {
  // Made here: one old command whose output names a run by its UUID (the kinds' hash pattern also sees its groups).
  const uuid = '063ee267-34eb-4f84-97c8-ab128854fae2';
  const ref = { record: 0 };
  const messages = [
    { role: 'assistant' as const, records: [0], blocks: [{ type: 'tool_call' as const, id: 'c1', name: 'Bash', input: { command: 'gh run list' }, inputText: '{"command":"gh run list"}', ref, tokens: 10 }] },
    { role: 'user' as const, records: [1], toolResultsOnly: true, blocks: [{ type: 'tool_result' as const, id: 'c1', text: `id: ${uuid}\nstatus: completed`, isError: false, mediaCount: 0, persisted: false, ref, tokens: 20 }] },
  ];
  const snap = buildSnapshot(messages, { budgetTokens: 2000 }).text;
  const ids = snap.slice(snap.indexOf('## Identifiers'));
  assert.ok(ids.includes(uuid), snap);
  assert.doesNotMatch(ids, /(?:^|[ ,])(?:063ee267|ab128854fae2)(?:,|$)/m);
});

test('the latest figures a run printed (tests passed, timings) are listed with the numbers, a few, not every one', async () => {
  const s = await read('codex/shellws-0.105.0-compacted-websearch.jsonl');
  // Message 180 is a `cargo test` run whose output ends `test result: ok. 4 passed; … finished in …`.
  const out = s.messages[179]!.blocks.find((b) => b.type === 'tool_result') as { text: string } | undefined;
  assert.ok(out?.text.includes('test result: ok. 4 passed;'));
  const snap = buildSnapshot(s.messages.slice(0, 180), { budgetTokens: 3000, cwd: s.cwd }).text;
  const numbers = snap.split('\n').find((l) => l.startsWith('- numbers with units: '));
  assert.ok(numbers, snap);
  assert.ok(numbers.split(', ').includes('4 passed'), numbers);
  // "0 passed" says nothing; at most twelve printed figures join those people wrote.
  assert.ok(!numbers.split(', ').includes('0 passed'), numbers);
  assert.ok(numbers.split(', ').length <= 12 + 20, numbers);
});

test("a Codex apply_patch that failed verification (no exit code in its output) is an error, and a later patch fixes it", async () => {
  // The failure sits before the agent's own compaction: the segment before it is the session as the agent held it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-snapshot-'));
  try {
    const found = await agentCompactions(path.join(REAL, 'codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl'));
    const { segment } = await found.write(2, dir);
    const s = (await readTranscriptFile(segment, {})).session;
    const failed = s.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result' && b.text.includes('apply_patch verification failed'));
    assert.ok(failed.length > 0, 'the segment holds a failed apply_patch');
    assert.ok(failed.every((b) => b.type === 'tool_result' && !b.isError), 'the output is all that says it failed');
    const ok = failed.map((b) => outcomeOf(b as ToolResultBlock));
    assert.ok(ok.every((o) => !o.ok && o.line.startsWith('apply_patch verification failed: Failed to find expected lines in ')), JSON.stringify(ok));
    const snap = buildSnapshot(s.messages, { budgetTokens: 6000, cwd: s.cwd }).text;
    assert.match(snap, /^- `apply_patch[^`]*`: `apply_patch verification failed: Failed to find expected lines in [^`]+` — fixed \([^)]+ edited later\)$/m);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a script's comment lines and blank lines are left out of the listed command; the lines that run stay", async () => {
  // The segment before the session's first compaction holds it (the live branch after the last one does not).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-comment-'));
  const seg = await (await agentCompactions(path.join(REAL, 'claude-code/tpos-2.0.57-4compactions.jsonl'))).write(0, dir);
  const s = (await readTranscriptFile(seg.segment)).session;
  fs.rmSync(dir, { recursive: true, force: true });
  const call = s.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_call' && b.name === 'Bash' && String((b.input as { command?: string }).command).startsWith('# Alle Voice Server Prozesse killen\n'));
  assert.ok(call && call.type === 'tool_call', 'the fixture holds a commented script');
  const snap = buildSnapshot(s.messages.slice(0, s.messages.findIndex((m) => m.blocks.includes(call)) + 2), { budgetTokens: 20_000 }).text;
  assert.ok(snap.includes('pkill -9 -f "voice-server" 2>/dev/null\npkill -9 -f "server.ts" 2>/dev/null\nsleep 2\nlsof -i :8888'), snap.slice(snap.indexOf('## Commands')));
  assert.ok(!snap.includes('# Alle Voice Server Prozesse killen'));
  assert.ok(!snap.includes('# Prüfen ob Port frei ist'));
});

test('a `#` line inside a quoted string is text, not a comment: a PowerShell here-string keeps its Markdown heading', async () => {
  // The segment before the session's compaction holds it (the live history after it does not).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-herestring-'));
  const seg = await (await agentCompactions(path.join(REAL, 'codex/golfiq-0.40.0-compacted-no-replacement-history.jsonl'))).write(0, dir);
  const s = (await readTranscriptFile(seg.segment)).session;
  fs.rmSync(dir, { recursive: true, force: true });
  const commandOf = (input: unknown): string => { const c = (input as { command?: unknown }).command; return Array.isArray(c) ? String(c.at(-1)) : String(c); };
  const call = s.messages.flatMap((m) => m.blocks).find((b) => b.type === 'tool_call' && commandOf(b.input).includes("-Value @'\n# Feature Specification: CaddieCore v1"));
  assert.ok(call && call.type === 'tool_call', 'the fixture holds a here-string written by a command');
  const listed = commandText(commandOf(call.input));
  assert.ok(listed.includes("Set-Content -Path $path -Value @'\n# Feature Specification: CaddieCore v1"), listed);
  // A comment line outside any quote still goes.
  assert.equal(commandText("# clean up\nrm -rf build\necho 'done' # for now\n# again\nls"), `\n${'```'}text\nrm -rf build\necho 'done' # for now\nls\n${'```'}`);
});

test("a heredoc's body left whole (its terminator missing) is what the command wrote: a patch's `## ` context lines stay", () => {
  // The first 10 lines and the last of a real Codex 0.34 apply_patch call (openprintkit-0.34.0-16h.jsonl of the shared corpus,
  // 2025-11-01T14:06:44Z): the model never wrote the PATCH terminator, so heredocShape leaves the body as it is.
  const command = [
    "apply_patch << 'PATCH'", '*** Begin Patch', '*** Update File: docs/overview.md', '@@', ' ## OpenPrintKit Overview', '@@',
    ' See also: `docs/firmware-mapping.md`, `docs/mcode-reference.md`, `docs/cli-reference.md`.', '@@', ' ## OpenPrintTag', '@@', '*** End Patch',
  ].join('\n');
  const listed = commandText(command);
  assert.ok(listed.includes('@@\n ## OpenPrintKit Overview\n@@') && listed.includes('@@\n ## OpenPrintTag\n@@'), listed);
});
