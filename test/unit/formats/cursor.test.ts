// Cursor agent transcripts: the text form and the JSONL form (with a subagent) read into calls paired with results,
// detection by place and by content (and not of other agents' files), discovery under ~/.cursor/projects, the handoff.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { cursorSessionsUnder, isCursorTranscript } from '../../../src/core/formats/cursor/paths';
import { agentModule } from '../../../src/core/formats/registry';
import { compactTranscript, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

// Hand-made after the formats public parsers document (no public repository commits real ones): see the README.
const PROJECTS = path.join(FIXTURES, 'cursor', 'projects');
const DIR = path.join(PROJECTS, 'home-dev-demo', 'agent-transcripts');
const TXT = path.join(DIR, '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d.txt');
const JSONL = path.join(DIR, '7d1e2f30-8a4b-4c5d-9e6f-a1b2c3d4e5f6', '7d1e2f30-8a4b-4c5d-9e6f-a1b2c3d4e5f6.jsonl');
const SUB = path.join(DIR, '7d1e2f30-8a4b-4c5d-9e6f-a1b2c3d4e5f6', 'subagents', '2b3c4d5e-6f70-4812-9a3b-c4d5e6f70819.jsonl');

test('the text form: speakers, thinking, tool calls with their arguments, results paired to their call', async () => {
  const { session } = await readTranscriptFile(TXT);
  assert.equal(session.format, 'cursor');
  assert.equal(session.id, '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d');
  assert.equal(session.title, 'Why does `npm test` fail in the parser package? Fix it.');
  const blocks = session.messages.flatMap((m) => m.blocks);
  const calls = blocks.filter((b) => b.type === 'tool_call');
  const results = blocks.filter((b) => b.type === 'tool_result');
  assert.deepEqual(calls.map((c) => c.type === 'tool_call' && [c.name, c.input]), [
    ['Shell', { command: 'npm test --workspace parser', description: 'Run the parser tests' }],
    ['Read', { path: 'packages/parser/src/parse.ts' }],
    ['StrReplace', { path: 'packages/parser/src/parse.ts', old_string: 'for (let i = 0; i < input.length; i++) {', new_string: "for (let i = 0; i < (input ?? '').length; i++) {" }],
  ]);
  assert.deepEqual(results.map((r) => r.type === 'tool_result' && r.id), calls.map((c) => c.type === 'tool_call' && c.id));
  assert.match(results[0]!.type === 'tool_result' ? results[0]!.text : '', /^FAIL src\/parse\.test\.ts[\s\S]*15 total$/);
  assert.ok(blocks.some((b) => b.type === 'reasoning' && b.text.startsWith('The user wants the failing test found first')));
  const lastBlock = session.messages.at(-1)!.blocks[0]!;
  assert.equal(lastBlock.type === 'text' ? lastBlock.text : '', "I'll add the test next to the empty-input one.");
  assert.deepEqual(session.warnings, []);
  assert.ok(session.messages.every((m) => !m.usage), 'Cursor records no usage');
});

test('the JSONL form: the query is the prompt, its wrapper harness; calls without results are reported, not invented', async () => {
  const { session } = await readTranscriptFile(JSONL);
  assert.equal(session.title, 'Add a --json flag to the export command and document it.');
  const first = session.messages[0]!;
  assert.deepEqual(first.blocks.map((b) => b.type), ['meta', 'text']);
  assert.ok(session.messages.some((m) => m.blocks.some((b) => b.type === 'meta' && b.text.startsWith('<system_reminder>'))));
  const calls = session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_call');
  assert.deepEqual(calls.map((c) => c.type === 'tool_call' && c.name), ['Grep', 'ReadFile', 'Task', 'Shell']);
  assert.equal(new Set(calls.map((c) => c.type === 'tool_call' && c.id)).size, 4, 'each call gets its own id from its place');
  assert.ok(session.warnings.some((w) => /3 tool call\(s\) have no result in the file/.test(w)), session.warnings.join('\n'));
  const { session: sub } = await readTranscriptFile(SUB);
  assert.equal(sub.title, 'Document the --json flag of the export command in docs/cli.md.');
});

test('detection: by place, by content when copied out; another agent\'s JSONL or text is not taken', (t) => {
  assert.ok(isCursorTranscript(TXT, nodeFsByName) && isCursorTranscript(JSONL, nodeFsByName) && isCursorTranscript(SUB, nodeFsByName));
  const dir = tmpDir(t);
  const copied = path.join(dir, 'chat.jsonl');
  fs.copyFileSync(JSONL, copied);
  assert.ok(isCursorTranscript(copied, nodeFs));
  assert.ok(!isCursorTranscript(copied, nodeFsByName), 'out of place, only its content can say');
  const claude = path.join(dir, 'claude.jsonl');
  fs.writeFileSync(claude, `${JSON.stringify({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hi' } })}\n`);
  assert.ok(!isCursorTranscript(claude, nodeFs));
  const notes = path.join(dir, 'notes.txt');
  fs.writeFileSync(notes, 'user: alice\nassistant: bob\n');
  assert.ok(!isCursorTranscript(notes, nodeFs));
});

test('discovery: every project\'s transcripts, the JSONL form preferred where a session has both, subagents too', (t) => {
  const listed = cursorSessionsUnder(PROJECTS, nodeFs).map((p) => path.relative(DIR, p)).sort();
  assert.deepEqual(listed, [path.relative(DIR, TXT), path.relative(DIR, SUB), path.relative(DIR, JSONL)].sort());
  const dir = path.join(tmpDir(t), 'agent-transcripts');
  fs.mkdirSync(path.join(dir, 'abc'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'abc.txt'), 'user:\n<user_query>x</user_query>\n');
  fs.copyFileSync(JSONL, path.join(dir, 'abc', 'abc.jsonl'));
  assert.deepEqual(cursorSessionsUnder(dir, nodeFs), [path.join(dir, 'abc', 'abc.jsonl')]);
  const roots = agentModule('cursor').roots({ home: '/home/u', vars: {}, platform: 'linux', join: (...p) => path.posix.join(...p), basename: path.posix.basename });
  assert.deepEqual(roots, ['/home/u/.cursor/projects']);
});

test('compaction writes a handoff (Cursor cannot load a written chat): every kept call and result, the latest request', async (t) => {
  const prepared = await compactTranscript(TXT, { cleanup: { keepRecentTurns: 2 } });
  const out = path.join(tmpDir(t), path.basename(prepared.defaultOut));
  assert.match(path.basename(out), /^cursor-handoff-.*\.md$/);
  await writeCompaction(prepared, out);
  const report = reportOf(prepared, out);
  assert.ok(report.handoff && report.pairsIntact, JSON.stringify(report));
  assert.equal(report.resumeCommand, '');
  const md = fs.readFileSync(out, 'utf8');
  assert.ok(md.includes('Also add a test for whitespace-only input.'));
  assert.ok(agentModule('cursor').handoff);
});

test('bad input: an empty or speakerless file is a one-line error', async (t) => {
  const dir = path.join(tmpDir(t), 'agent-transcripts');
  fs.mkdirSync(dir);
  for (const [name, text] of [['a.txt', ''], ['b.txt', 'just some notes\n'], ['c.jsonl', '{"role":"user","message":{"content":[]}}\n']] as const) {
    fs.writeFileSync(path.join(dir, name), text);
    await assert.rejects(readTranscriptFile(path.join(dir, name)), (e: Error) => e instanceof TranscriptError && !e.message.includes('\n'), name);
  }
});
