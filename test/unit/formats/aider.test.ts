// Aider: the history grammar on hand-made lines and real files, runs (the last is live, FILE#N names one), the usage
// aider reports, detection by name, place and content, and the handoff compaction writes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { renderCompactMarkdown } from '../../../src/core/compact/report';
import { aiderHistoryFile, historiesUnder } from '../../../src/core/formats/aider/detect';
import { entriesOf } from '../../../src/core/formats/aider/grammar';
import { tokenFigure, usageOf } from '../../../src/core/formats/aider/usage';
import { keptOutput } from '../../../src/core/formats/aider/write';
import { agentModule } from '../../../src/core/formats/registry';
import { stateFromSession } from '../../../src/core/usage/rows';
import { compactTranscript, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real', 'aider');
const COST = path.join(REAL, 'metadata-aider-0.86.1-diff-cost.aider.chat.history.md');
const RUNS4 = path.join(REAL, 'zen-mcp-0.86.1-4sessions-commands.aider.chat.history.md');
const RENAMED = path.join(REAL, 'aiderexperiments-0.14.1-windows-2sessions.md');

// Hand-made in aider's exact line format (io.py), for the cases the real files do not hold.
const HAND = [
  '', '# aider chat started at 2026-03-01 10:00:00', '',
  '> Aider v0.86.1  ', '> Main model: anthropic/claude-sonnet-4-5 with diff edit format, prompt cache  ', '',
  '#### fix the parser  ', '####   ', '#### it drops the last line  ', '',
  '<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>', 'Look at split().', '</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>', '',
  '#### Plan', '', '> a quoted remark in the reply', 'src/parse.py', '', '',
  '> Tokens: 12k sent, 3.4k cache write, 8.0k cache hit, 512 received.', 'Cost: $0.05 message, $0.05 session.  ',
  '> Applied edit to src/parse.py  ', '> Commit abc1234 fix: keep the last line  ', '',
  '#### /clear  ', '> All chat history cleared.  ', '',
  '#### /ask is the fix complete?  ', '', 'Yes: the last line is kept.', '', '',
].join('\n');

test('grammar: inputs, tool output (multi-line usage report), replies with Markdown headings and quotes', () => {
  const kinds = entriesOf(HAND.split('\n')).map((e) => `${e.kind}:${e.text.split('\n')[0]}`);
  assert.deepEqual(kinds, [
    'header:2026-03-01 10:00:00', 'tool:Aider v0.86.1', 'user:fix the parser',
    'assistant:<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>',
    'tool:Tokens: 12k sent, 3.4k cache write, 8.0k cache hit, 512 received.', 'user:/clear', 'tool:All chat history cleared.',
    'user:/ask is the fix complete?', 'assistant:Yes: the last line is kept.',
  ]);
  const input = entriesOf(HAND.split('\n'))[2]!;
  assert.equal(input.text, 'fix the parser\n\nit drops the last line');
  const reply = entriesOf(HAND.split('\n'))[3]!;
  assert.match(reply.text, /#### Plan\n\n> a quoted remark in the reply\nsrc\/parse\.py$/, 'a heading and a quote without the hard break stay in the reply');
});

test('hand-made history: reasoning costs nothing on resume, /clear ends the live context, /ask is a prompt, usage from the report', async (t) => {
  const file = path.join(tmpDir(t), '.aider.chat.history.md');
  fs.writeFileSync(file, HAND);
  const { session } = await readTranscriptFile(file);
  assert.equal(session.format, 'aider');
  // After /clear only the command, its output and the next exchange are sent.
  assert.deepEqual(session.messages.map((m) => `${m.role}:${m.blocks.map((b) => (b.type === 'meta' ? b.subtype : b.type)).join(',')}`), [
    'user:aider-command', 'user:aider-output', 'user:text', 'assistant:text',
  ]);
  assert.ok(session.warnings.some((w) => /\/clear on line 26 cleared aider's chat/.test(w)), session.warnings.join('\n'));
  assert.equal(session.messages[2]!.blocks[0]!.type === 'text' && session.messages[2]!.blocks[0]!.text, '/ask is the fix complete?');
  const before = fs.readFileSync(file, 'utf8').replace('#### /clear  \n> All chat history cleared.  \n', '');
  fs.writeFileSync(file, before);
  const { session: whole } = await readTranscriptFile(file);
  const reply = whole.messages.find((m) => m.role === 'assistant')!;
  assert.equal(reply.blocks[0]!.type, 'reasoning');
  assert.equal(reply.blocks[0]!.tokens, 0, 'aider removes reasoning from the chat after the reply');
  assert.deepEqual(reply.usage, { inputTokens: 600, outputTokens: 512, cacheReadTokens: 8000, cacheCreationTokens: 3400 });
  assert.equal(reply.model, 'anthropic/claude-sonnet-4-5');
});

test('usage figures as aider formats them, old and new', () => {
  assert.equal(tokenFigure('5,244'), 5244);
  assert.equal(tokenFigure('2.4k'), 2400);
  assert.equal(tokenFigure('12k'), 12000);
  assert.equal(tokenFigure('k'), undefined);
  assert.deepEqual(usageOf('Tokens: 5,244 sent, 604 received. Cost: $0.02 request, $0.02 session.'), { inputTokens: 5244, outputTokens: 604, cacheReadTokens: 0, cacheCreationTokens: 0 });
  assert.equal(usageOf('Tokens: lots sent'), undefined);
});

test('real history with usage: twelve replies, each with the usage aider reported, priced from the catalog', async () => {
  const { session } = await readTranscriptFile(COST);
  const replies = session.messages.filter((m) => m.role === 'assistant');
  assert.equal(replies.length, 12);
  assert.ok(replies.every((m) => m.usage && m.model === 'openrouter/openai/gpt-4o-mini'));
  assert.deepEqual(replies[0]!.usage, { inputTokens: 2400, outputTokens: 104, cacheReadTokens: 0, cacheCreationTokens: 0 });
  assert.equal(replies.at(-1)!.usage!.inputTokens, 10000);
  assert.equal(session.title, 'Please create an .aidar.json file in the root directory of the project to track…');
  assert.deepEqual(session.warnings, [], 'one run: nothing to say');
  const state = stateFromSession(session);
  assert.equal(state.rows.size, 12);
  assert.equal(state.contextTokens, 10000);
  const usage = agentModule('aider').usage;
  assert.equal(usage.kind, 'from-session');
});

test('many runs: the last is the live session and the reader says so; FILE#N names another; a missing run is one line', async () => {
  const { session } = await readTranscriptFile(RUNS4);
  assert.match(session.warnings[0]!, /holds 4 aider runs; read the last \(run 4, started 2025-10-23 17:04:56\) as the live session — name another as FILE#N/);
  assert.ok(session.warnings.includes('aider run 4 holds no reply yet'));
  assert.ok(session.messages.every((m) => m.blocks.every((b) => b.type === 'meta')), 'commands and output only');
  const { session: second } = await readTranscriptFile(`${RUNS4}#2`);
  assert.equal(second.id, 'aider-2025-10-20T21:49:22');
  assert.match(second.warnings[0]!, /read aider run 2 of 4, started 2025-10-20 21:49:22, as the path names it/);
  assert.ok(second.models.length === 0 && second.messages.some((m) => m.blocks.some((b) => b.type === 'meta' && b.text === '/add **')));
  await assert.rejects(readTranscriptFile(`${RUNS4}#9`), (e: Error) => e instanceof TranscriptError && /holds 4 aider run\(s\); there is no run 9/.test(e.message) && !e.message.includes('\n'));
});

test('a renamed history is recognised by its content; other Markdown is not', async (t) => {
  assert.equal(aiderHistoryFile(RENAMED, nodeFs), RENAMED);
  assert.equal(aiderHistoryFile(RENAMED, nodeFsByName), undefined, 'by name alone it is not aider\'s');
  const readme = path.join(tmpDir(t), 'README.md');
  fs.writeFileSync(readme, '# Project\n\n#### notes  \n');
  assert.equal(aiderHistoryFile(readme, nodeFs), undefined);
  const { session } = await readTranscriptFile(RENAMED);
  assert.equal(session.cwd, 'C:\\GitRepos\\AiderExperiments', 'the git working dir aider printed');
  assert.deepEqual(session.models, ['gpt-4']);
  // Without `Tokens:` reports (aider 0.14) nothing is recorded: figures are estimates.
  assert.ok(session.messages.every((m) => !m.usage));
});

test('histories are found in a folder and its immediate subfolders only', (t) => {
  const root = tmpDir(t);
  for (const p of ['.aider.chat.history.md', 'api/.aider.chat.history.md', 'node_modules/x/.aider.chat.history.md', 'web/deep/.aider.chat.history.md']) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), '\n# aider chat started at 2026-01-01 00:00:00\n');
  }
  assert.deepEqual(historiesUnder(root, nodeFs).map((f) => path.relative(root, f)).sort(), ['.aider.chat.history.md', path.join('api', '.aider.chat.history.md')]);
});

test('compaction writes a handoff to paste into a new chat; the report says so', async (t) => {
  const prepared = await compactTranscript(COST, { cleanup: { keepRecentTurns: 2 } });
  const out = path.join(tmpDir(t), path.basename(prepared.defaultOut));
  assert.match(path.basename(out), /^aider-handoff-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-f]{8}\.md$/);
  await writeCompaction(prepared, out);
  const report = reportOf(prepared, out);
  assert.equal(report.handoff, true);
  assert.equal(report.resumeCommand, '');
  assert.match(renderCompactMarkdown(report), /^- resume: handoff: paste into a new chat$/m);
  const md = fs.readFileSync(out, 'utf8');
  assert.match(md, /^# Handoff: continue this Aider session in a new chat/);
  assert.ok(md.includes('write a README file in the root project directory describing the summary of the project'), 'the latest prompt verbatim');
  assert.ok(md.includes('Commit 5eb50b4 docs: add README file'), 'what aider did stays');
  assert.ok(!/\(Y\)es\/\(N\)o|Tokens: \d/.test(md), 'questions answered and usage reports are left out');
  assert.ok(report.after.historyTokens < report.before.historyTokens && report.pairsIntact && report.identifierRecall >= 0.9);
  assert.throws(() => agentModule('aider').storePath({ home: '/h', vars: {}, platform: 'linux', join: path.join, basename: path.basename }, 'x', undefined, new Date()), /paste the handoff into a new chat/);
});

test('round trip: the handoff of an unchanged session holds every prompt and reply verbatim', async () => {
  const { session } = await readTranscriptFile(COST, { keepRaw: true });
  const written = agentModule('aider').write(session, session, { newId: () => '00000000-0000-4000-8000-000000000000', now: () => new Date(0) });
  assert.equal(written.kind, 'handoff');
  const md = written.kind === 'handoff' ? written.markdown : '';
  for (const m of session.messages) for (const b of m.blocks) if (b.type === 'text') assert.ok(md.includes(b.text), b.text.slice(0, 60));
});

test('the output lines a handoff keeps', () => {
  assert.deepEqual(keptOutput('Aider v0.86.1\nAdd file to the chat? (Y)es/(N)o [Yes]: y\nApplied edit to a.py\nTokens: 1k sent, 2 received.\nCommit 1234567 x'), ['Applied edit to a.py', 'Commit 1234567 x']);
});

test('a history given by a relative path names its project by the absolute folder it is in', async () => {
  const { session } = await readTranscriptFile(path.relative(process.cwd(), COST));
  assert.equal(session.cwd, path.dirname(COST));
});
