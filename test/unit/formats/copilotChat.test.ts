// GitHub Copilot Chat: the flat JSON session, the ≥ 1.109 operation log of the same chat and an export read alike;
// the log's replay rules; Copilot's own summary; detection by place and content; roots per platform; the handoff.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { HostEnv } from '../../../src/core/agents/agent';
import { copilotSessionsUnder, isCopilotSession } from '../../../src/core/formats/copilot-chat/detect';
import { loadChat, replayLog } from '../../../src/core/formats/copilot-chat/load';
import { copilotRoots } from '../../../src/core/formats/copilot-chat/paths';
import { folderFromUri } from '../../../src/core/formats/copilot-chat/read';
import { agentModule } from '../../../src/core/formats/registry';
import type { Session } from '../../../src/core/model/transcript';
import { compactTranscript, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

// Hand-made (no public repository commits these files): see test/fixtures/copilot-chat/README.md.
const DIR = path.join(FIXTURES, 'copilot-chat');
const SESSIONS = path.join(DIR, 'workspaceStorage', '5f1c0a7e9b2d4c3a8e6f1b0d2c4a6e8f', 'chatSessions');
const FLAT = path.join(SESSIONS, '8a1d6c3e-5b7f-4e2a-9d0c-3f5e7a9b1c2d.json');
const LOG = path.join(SESSIONS, '4b2e9f1a-7c3d-4e5f-8a6b-9c0d1e2f3a4b.jsonl');
const EXPORT = path.join(DIR, 'exported-chat.json');

/** What the model is sent, block by block, without the places the blocks came from. */
const shape = (s: Session): string[] => s.messages.map((m) => `${m.role}${m.toolResultsOnly ? '(results)' : ''}: ${m.blocks.map((b) => {
  switch (b.type) {
    case 'tool_call': return `call ${b.name} ${b.id}`;
    case 'tool_result': return `result ${b.id} ${b.text.length}`;
    case 'meta': return `${b.subtype} ${b.text.length}`;
    case 'media': return 'media';
    default: return `${b.type} ${b.text.slice(0, 30)}`;
  }
}).join(' | ')}`);

test('the flat session and the operation log of the same chat read into the same history', async () => {
  const { session: flat } = await readTranscriptFile(FLAT);
  const { session: log } = await readTranscriptFile(LOG);
  assert.equal(flat.format, 'copilot-chat');
  assert.deepEqual(shape(log), shape(flat));
  assert.equal(flat.id, '8a1d6c3e-5b7f-4e2a-9d0c-3f5e7a9b1c2d');
  assert.equal(log.id, '4b2e9f1a-7c3d-4e5f-8a6b-9c0d1e2f3a4b');
  for (const s of [flat, log]) {
    assert.equal(s.title, 'Fix VAT rounding on invoice 1042', 'the custom title, set late in the log');
    assert.equal(s.cwd, '/home/dev/projects/invoice-api', 'from the workspace folder');
    assert.deepEqual(s.models, ['claude-sonnet-4', 'gpt-4.1-2025-04-14']);
    assert.deepEqual(s.warnings, []);
  }
});

test('agent rounds become replies answered by their results; thinking costs nothing; ask mode comes from the response parts', async () => {
  const { session } = await readTranscriptFile(FLAT);
  const lines = shape(session);
  assert.match(lines[0]!, /^user: workspace-context \d+ \| request-context \d+ \| text The VAT total is off by a cent/);
  assert.equal(lines[1], 'assistant: reasoning The user reports an off-by-one | text I\'ll look at the invoice calcu | call read_file toolu_01ReadInvoice__vscode-1772531000001');
  assert.match(lines[3]!, /^assistant: call read_file toolu_01ReadService\S+ \| call run_in_terminal toolu_01RunTests__vscode-1772531000003$/);
  assert.match(lines[4]!, /^user\(results\): result toolu_01ReadService\S+ \d{4} \| result toolu_01RunTests__vscode-1772531000003 \d+$/);
  const first = session.messages[1]!.blocks[0]!;
  assert.equal(first.type === 'reasoning' && first.tokens, 0);
  // The prompt-tsx tree of a tool result is read as its text.
  const read = session.messages[2]!.blocks[0]!;
  assert.ok(read.type === 'tool_result' && read.text.startsWith('File: `/home/dev/projects/invoice-api/src/invoice.ts`. Lines 1 to 60') && read.text.includes('rounding rule 59'));
  // Ask mode: the inline reference reads as the file, the search shows what it found.
  const ask = session.messages.find((m) => m.role === 'assistant' && m.model === 'gpt-4.1-2025-04-14')!;
  assert.ok(ask.blocks[0]!.type === 'text' && ask.blocks[0]!.text.includes('(see `invoice.ts`)'));
  const found = session.messages[session.messages.indexOf(ask) + 1]!.blocks[0]!;
  assert.ok(found.type === 'tool_result' && found.text.includes('fixtures/invoices.json:90'));
});

test('usage recorded where the extension kept it (promptTokens), nowhere else', async () => {
  const { session } = await readTranscriptFile(FLAT);
  const withUsage = session.messages.filter((m) => m.usage);
  assert.equal(withUsage.length, 1);
  assert.deepEqual(withUsage[0]!.usage, { inputTokens: 6120, outputTokens: 164, cacheReadTokens: 0, cacheCreationTokens: 0 });
  assert.equal(agentModule('copilot-chat').usage.kind, 'from-session');
});

test('an export (Chat: Export Chat…) is recognised by its content and read like a session', async () => {
  assert.equal(isCopilotSession(EXPORT, nodeFs), true);
  assert.equal(isCopilotSession(EXPORT, nodeFsByName), false, 'outside a session folder only the content tells');
  const { session } = await readTranscriptFile(EXPORT);
  assert.equal(session.id, 'exported-chat');
  assert.equal(session.extra.exported, true);
  assert.equal(session.messages.filter((m) => m.role === 'user' && !m.toolResultsOnly).length, 2);
});

test("another agent's transcript outside a session folder is ruled out by its first kilobyte: its folder is never listed", () => {
  const claude = path.join(FIXTURES, 'real', 'claude-code', 'cival-1.0.17-sidechains.jsonl');
  const listed: string[] = [];
  const spy = { ...nodeFs, list: (dir: string) => { listed.push(dir); return nodeFs.list(dir); } };
  assert.equal(isCopilotSession(claude, spy), false);
  assert.deepEqual(listed, [], 'a project folder may hold thousands of sessions: listing it for every file opened is slow');
  // The export is still recognised by content, and that check lists its folder.
  assert.equal(isCopilotSession(EXPORT, spy), true);
  assert.deepEqual(listed, [path.dirname(EXPORT)]);
});

test('log replay: set, push after a cut, delete; hostile keys, incomplete last lines and a missing initial state', () => {
  const warnings: string[] = [];
  const state = replayLog([
    JSON.stringify({ kind: 0, v: { requests: [], a: { b: 1 } } }),
    JSON.stringify({ kind: 2, k: ['requests'], v: [{ n: 1 }, { n: 2 }, { n: 3 }] }),
    JSON.stringify({ kind: 2, k: ['requests'], v: [{ n: 4 }], i: 1 }),
    JSON.stringify({ kind: 1, k: ['a', 'b'], v: 2 }),
    JSON.stringify({ kind: 3, k: ['a'] }),
    JSON.stringify({ kind: 1, k: ['__proto__', 'polluted'], v: true }),
    JSON.stringify({ kind: 1, k: ['x', 'y', 'z'], v: 1 }),
    '{"kind":1,"k":["requests",0,"n"],"v":9', // still being written
  ].join('\n'), warnings);
  assert.deepEqual(state, { requests: [{ n: 1 }, { n: 4 }] });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(warnings, ['the last line (8) is incomplete — VS Code may still be writing; it was ignored', '2 operation(s) of the session log could not be applied and were skipped']);
  assert.throws(() => replayLog('{"kind":1,"k":["a"],"v":1}\n', []), /no initial state/);
  assert.throws(() => loadChat('{"version":3}', false), /no requests list/);
});

test('bad files are one-line errors', async (t) => {
  const dir = path.join(tmpDir(t), 'chatSessions');
  fs.mkdirSync(dir);
  const broken = path.join(dir, '0b1c2d3e-0000-4000-8000-000000000000.json');
  fs.writeFileSync(broken, '{"version":3,"requests":[');
  await assert.rejects(readTranscriptFile(broken), (e: Error) => e instanceof TranscriptError && /not valid JSON/.test(e.message) && !e.message.includes('\n'));
  const noState = path.join(dir, '0b1c2d3e-0000-4000-8000-000000000001.jsonl');
  fs.writeFileSync(noState, '{"kind":0,"v":{"requests":"none"}}\n');
  await assert.rejects(readTranscriptFile(noState), /no requests list/);
});

test("Copilot's own summary replaces the history up to the round it covers", async (t) => {
  const data = JSON.parse(fs.readFileSync(FLAT, 'utf8')) as { requests: { result: { metadata: Record<string, unknown> } }[] };
  data.requests[2]!.result.metadata.summaries = [{ toolCallRoundId: 'round-1c', text: '<summary>Rounding fixed in line12; tests were failing at 119 vs 119.01.</summary>', source: 'background' }];
  const file = path.join(tmpDir(t), 'chatSessions');
  fs.mkdirSync(file);
  fs.writeFileSync(path.join(file, 's.json'), JSON.stringify(data));
  const { session } = await readTranscriptFile(path.join(file, 's.json'));
  const head = session.messages[0]!.blocks[0]!;
  assert.ok(head.type === 'summary' && head.origin === 'agent' && head.text.includes('119.01'));
  assert.match(shape(session)[1]!, /^assistant: call run_in_terminal toolu_01RunTests2/);
  assert.ok(session.warnings.some((w) => /summarized the conversation \(up to round round-1c\); the 7 message\(s\) before its summary/.test(w)), session.warnings.join('\n'));
});

test('sessions under a root: each workspace\'s chatSessions, the log preferred where both forms exist', (t) => {
  const root = path.join(tmpDir(t), 'workspaceStorage');
  const a = path.join(root, 'aaa', 'chatSessions');
  fs.mkdirSync(a, { recursive: true });
  fs.mkdirSync(path.join(root, 'bbb'));
  for (const n of ['s1.json', 's1.jsonl', 's2.json', 'notes.txt']) fs.writeFileSync(path.join(a, n), '{}');
  assert.deepEqual(copilotSessionsUnder(root, nodeFs).map((f) => path.relative(root, f)).sort(), [path.join('aaa', 'chatSessions', 's1.jsonl'), path.join('aaa', 'chatSessions', 's2.json')]);
  assert.deepEqual(copilotSessionsUnder(a, nodeFs).length, 2);
  // A Claude Code transcript is never taken for a Copilot log.
  const claude = path.join(tmpDir(t), 'projects', 'x.jsonl');
  fs.mkdirSync(path.dirname(claude), { recursive: true });
  fs.writeFileSync(claude, '{"type":"user"}\n');
  assert.equal(isCopilotSession(claude, nodeFs), false);
});

test('roots on Linux, macOS, Windows, portable installs and Insiders / VSCodium / Cursor', () => {
  const host = (platform: string, vars: Record<string, string> = {}): HostEnv => ({ home: '/home/u', vars, platform, join: (...p: string[]) => p.join('/'), basename: path.basename });
  const linux = copilotRoots(host('linux'));
  assert.ok(linux.includes('/home/u/.config/Code/User/workspaceStorage'));
  assert.ok(linux.includes('/home/u/.config/Code - Insiders/User/globalStorage/emptyWindowChatSessions'));
  assert.ok(linux.includes('/home/u/.config/VSCodium/User/workspaceStorage'));
  assert.ok(linux.includes('/home/u/.config/Cursor/User/workspaceStorage'));
  assert.ok(copilotRoots(host('linux', { XDG_CONFIG_HOME: '/x' })).includes('/x/Code/User/workspaceStorage'));
  assert.ok(copilotRoots(host('darwin')).includes('/home/u/Library/Application Support/Code/User/workspaceStorage'));
  assert.ok(copilotRoots(host('win32', { APPDATA: 'C:/Users/u/AppData/Roaming' })).includes('C:/Users/u/AppData/Roaming/Code/User/workspaceStorage'));
  assert.equal(copilotRoots(host('linux', { VSCODE_PORTABLE: '/opt/vsc/data' }))[0], '/opt/vsc/data/user-data/User/workspaceStorage');
});

test('folder URIs as VS Code records them', () => {
  assert.equal(folderFromUri('file:///home/dev/my%20app'), '/home/dev/my app');
  assert.equal(folderFromUri('file:///c%3A/Users/x/app'), 'c:\\Users\\x\\app');
  assert.equal(folderFromUri('file://server/share/app'), '\\\\server\\share\\app');
  assert.equal(folderFromUri('vscode-remote://wsl%2Bubuntu/home/x'), undefined);
});

test('compaction writes a handoff without the old request context; pairs intact, identifiers kept', async (t) => {
  const prepared = await compactTranscript(LOG, { cleanup: { keepRecentTurns: 2 } });
  const out = path.join(tmpDir(t), path.basename(prepared.defaultOut));
  assert.match(path.basename(out), /^copilot-chat-handoff-.*\.md$/);
  await writeCompaction(prepared, out);
  const report = reportOf(prepared, out);
  assert.ok(report.handoff && report.pairsIntact && report.identifierRecall >= 0.9, JSON.stringify(report.identifiers));
  assert.ok(report.after.historyTokens < report.before.historyTokens * 0.6, `${report.before.historyTokens} → ${report.after.historyTokens}`);
  const md = fs.readFileSync(out, 'utf8');
  assert.ok(md.includes('Add a regression test for invoice 1042 so this cannot come back.'));
  assert.ok(md.includes('Called `run_in_terminal` with:'));
  assert.ok(!md.includes('<reminderInstructions>') && !md.includes('<environment_info>'), 'the new chat renders its own context');
});

test('round trip: the handoff of an unchanged session holds every prompt, reply and result verbatim', async () => {
  const { session } = await readTranscriptFile(FLAT, { keepRaw: true });
  const written = agentModule('copilot-chat').write(session, session, { newId: () => '00000000-0000-4000-8000-000000000000', now: () => new Date(0) });
  assert.ok(written.kind === 'handoff');
  for (const m of session.messages) for (const b of m.blocks) if (b.type === 'text' || b.type === 'tool_result') assert.ok(written.markdown.includes(b.text), b.text.slice(0, 60));
});

test('a handoff for a session in VS Code\'s own storage defaults to the working folder; elsewhere it sits beside the input', async (t) => {
  const home = tmpDir(t);
  const store = path.join(home, '.config', 'Code', 'User', 'workspaceStorage', 'abc', 'chatSessions');
  fs.mkdirSync(store, { recursive: true });
  const inStore = path.join(store, path.basename(LOG));
  fs.copyFileSync(LOG, inStore);
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.HOME = home;
  delete process.env.XDG_CONFIG_HOME;
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  });
  const stored = await compactTranscript(inStore, { cleanup: { keepRecentTurns: 2 } });
  assert.equal(path.dirname(stored.defaultOut), process.cwd());
  const outside = await compactTranscript(LOG, { cleanup: { keepRecentTurns: 2 } });
  assert.equal(path.dirname(outside.defaultOut), SESSIONS);
});
