// Writing Cline / Roo tasks: a round trip gives the same history as read; compaction writes a new task folder with
// a new id, no copied usage, a matching UI log, and the task index entry Cline or Roo lists tasks from.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import type { CompactReport } from '../../../src/core/compact/report';
import { agentModule } from '../../../src/core/formats/registry';
import type { Block, Session } from '../../../src/core/model/transcript';
import { compactFile } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLINE_4TURNS, CLINE_REAL, CLINE_TRUNCATED, ROO_CONDENSED } from '../../support/clineFixtures';
import { tmpDir } from '../../support/tmp';

const shape = (b: Block): unknown[] => [b.type, 'text' in b ? b.text : '', 'id' in b ? b.id : '', b.type === 'tool_call' ? b.inputText : ''];
const view = (s: Session): unknown[] => s.messages.map((m) => [m.role, m.blocks.map(shape)]);
const ctx = (id: string) => { let first = true; return { newId: () => (first ? ((first = false), id) : 'unused'), now: () => new Date(1_800_000_000_000) }; };

/** Writes a session's task files under <dir>/tasks/<id> and reads the folder back. */
async function writeAndRead(dir: string, original: Session, cleaned: Session, insert?: { beforeRecord: number; text: string }) {
  const written = agentModule('cline').write(original, cleaned, ctx('1800000000000'), insert);
  assert.equal(written.kind, 'files');
  if (written.kind !== 'files') throw new Error('files');
  const folder = path.join(dir, 'tasks', written.sessionId);
  fs.mkdirSync(folder, { recursive: true });
  for (const f of written.files) fs.writeFileSync(path.join(folder, f.path), f.text);
  return { written, folder, back: (await readTranscriptFile(folder)).session };
}

for (const task of [CLINE_4TURNS, CLINE_REAL, ROO_CONDENSED]) {
  test(`round trip: ${path.basename(path.dirname(path.dirname(task)))}/${path.basename(task)} written unchanged reads back the same`, async (t) => {
    const { session } = await readTranscriptFile(task, { keepRaw: true });
    const { back, folder } = await writeAndRead(tmpDir(t), session, session);
    assert.deepEqual(view(back), view(session));
    // The copy carries no usage: the original was billed once.
    assert.equal(back.messages.filter((m) => m.usage).length, 0);
    const api = JSON.parse(fs.readFileSync(path.join(folder, 'api_conversation_history.json'), 'utf8')) as Record<string, unknown>[];
    assert.ok(api.every((m) => !('metrics' in m)));
    const ui = JSON.parse(fs.readFileSync(path.join(folder, 'ui_messages.json'), 'utf8')) as Record<string, unknown>[];
    assert.match(String(ui[0]!.text), /\(compacted\)$/);
    assert.ok(ui.every((u) => u.say !== 'api_req_started' && !('lastCheckpointHash' in u)));
    for (const u of ui) if (typeof u.conversationHistoryIndex === 'number') assert.ok(u.conversationHistoryIndex >= -1 && u.conversationHistoryIndex < api.length);
  });
}

test("a truncated Cline task is written as the model saw it: Cline's cut and edits baked in, nothing left to cut", async (t) => {
  const { session } = await readTranscriptFile(CLINE_TRUNCATED, { keepRaw: true });
  const { back, folder } = await writeAndRead(tmpDir(t), session, session);
  assert.deepEqual(view(back), view(session));
  assert.equal(back.records.length, session.messages.length);
  assert.ok(!fs.existsSync(path.join(folder, 'context_history.json')));
  assert.ok(!back.warnings.some((w) => /truncated/.test(w)));
});

test('a summary goes in as user text before the kept part', async (t) => {
  const { session } = await readTranscriptFile(CLINE_4TURNS, { keepRaw: true });
  const anchor = session.messages[60]!.records[0]!;
  const kept = { ...session, messages: [...session.messages.slice(0, 2), ...session.messages.slice(60)] };
  const { back } = await writeAndRead(tmpDir(t), session, kept, { beforeRecord: anchor, text: 'SUMMARY-7f3a of turns 1-3' });
  const at = back.messages.findIndex((m) => m.blocks.some((b) => 'text' in b && b.text === 'SUMMARY-7f3a of turns 1-3'));
  assert.equal(back.messages[at]!.role, 'user');
  // The kept part follows as it was (less the "result missing" Cline adds for the completion call that was dropped).
  const real = (s: Session): unknown[] => view({ ...s, messages: s.messages.map((m) => ({ ...m, blocks: m.blocks.filter((b) => !('text' in b && b.text === 'result missing')) })) });
  assert.deepEqual(real(back).slice(-20), real({ ...session, messages: session.messages.slice(60) }));
});

function store(t: import('node:test').TestContext, task: string): { dir: string; input: string } {
  const dir = path.join(tmpDir(t), 'saoudrizwan.claude-dev');
  fs.cpSync(path.dirname(path.dirname(task)), dir, { recursive: true });
  return { dir, input: path.join(dir, 'tasks', path.basename(task)) };
}

test('compact into Cline storage: a new task folder beside the original, listed in state/taskHistory.json', async (t) => {
  const { dir, input } = store(t, CLINE_4TURNS);
  const before = fs.readFileSync(path.join(dir, 'state', 'taskHistory.json'), 'utf8');
  const report = await compactFile(path.join(input, 'ui_messages.json'), { cleanup: { keepRecentTurns: 6 } });
  assert.match(report.sessionId, /^\d{13}$/);
  assert.equal(report.output, path.join(dir, 'tasks', report.sessionId));
  // VS Code's Cline lists it (below); `cline --taskId` looks only in the Cline CLI's own folder: no command, and where.
  assert.equal(report.resumeCommand, '');
  assert.equal(report.agentLooksIn, `${path.join(os.homedir(), '.cline', 'data', 'tasks')}${path.sep}`);
  assert.ok(report.warnings.some((w) => w.includes(`Cline lists the new task ${report.sessionId}`)));
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'state', 'taskHistory.json'), 'utf8')) as Record<string, unknown>[];
  assert.deepEqual(index[0], JSON.parse(before)[0], 'the original entry is kept as it was');
  assert.equal(index.length, 2);
  assert.equal(index[1]!.id, report.sessionId);
  assert.equal(index[1]!.tokensIn, 0);
  assert.match(String(index[1]!.task), /^Turn 1: .*\(compacted\)$/);
  assert.equal(index[1]!.size, ['api_conversation_history.json', 'ui_messages.json', 'task_metadata.json'].reduce((n, f) => n + fs.statSync(path.join(report.output!, f)).size, 0));
  const { session } = await readTranscriptFile(report.output!);
  assert.equal(session.messages.length, report.after.messages);
});

test('an index that is not a JSON array, or no index folder at the output, is left alone with a warning', async (t) => {
  const { dir, input } = store(t, CLINE_4TURNS);
  fs.writeFileSync(path.join(dir, 'state', 'taskHistory.json'), '{"broken": true}');
  const report = await compactFile(input, { cleanup: { keepRecentTurns: 6 } });
  assert.equal(fs.readFileSync(path.join(dir, 'state', 'taskHistory.json'), 'utf8'), '{"broken": true}');
  assert.ok(report.warnings.some((w) => /task index \(state\/taskHistory.json\) was not updated: .* is not in the shape/.test(w)));
  const elsewhere = path.join(tmpDir(t), 'out', 'mytask');
  const second = await compactFile(input, { cleanup: { keepRecentTurns: 6 }, out: elsewhere });
  assert.ok(second.warnings.some((w) => /was not updated: .* does not exist/.test(w)));
  assert.ok(fs.existsSync(path.join(elsewhere, 'api_conversation_history.json')));
});

test('Roo Code: the new folder carries its history_item.json, the list Roo rebuilds its history from', async (t) => {
  const root = path.join(tmpDir(t), 'rooveterinaryinc.roo-cline');
  fs.cpSync(path.dirname(path.dirname(ROO_CONDENSED)), root, { recursive: true });
  const report = await compactFile(path.join(root, 'tasks', path.basename(ROO_CONDENSED)), { cleanup: { keepRecentTurns: 6 } });
  const item = JSON.parse(fs.readFileSync(path.join(report.output!, 'history_item.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(item.id, report.sessionId);
  assert.equal(item.number, 3);
  assert.equal(item.workspace, '/home/dev/retry-demo');
  assert.equal(item.mode, 'code');
  assert.ok(report.warnings.some((w) => /Roo Code \(3.49 and later\) lists the new task/.test(w)));
  assert.ok(!fs.existsSync(path.join(root, 'state')), 'no Cline index is made for Roo');
  const { session } = await readTranscriptFile(report.output!);
  assert.equal(session.messages[0]!.blocks[0]!.type, 'summary');
});

/** Every file under dir, relative, sorted ([] when it is empty). */
const filesUnder = (dir: string): string[] => (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })).sort();

/** `context-compactor compact <input> --out <out> --no-summary --json` in process: the report. */
async function compactCli(input: string, out: string): Promise<CompactReport> {
  let stdout = '', stderr = '';
  const code = await main(['compact', input, '--out', out, '--no-summary', '--json'], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env: {} });
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout) as CompactReport;
}

const NOT_UPDATED = /^Cline's task index \(state\/taskHistory\.json\) was not updated: .*\(the output is not in the agent's own folder\)$/;

test("--out <workspace>/compacted/<id> beside the workspace's state/ folder: nothing is written under state/", async (t) => {
  const { input } = store(t, CLINE_4TURNS);
  const ws = path.join(tmpDir(t), 'ws');
  fs.mkdirSync(path.join(ws, 'state'), { recursive: true });
  const report = await compactCli(input, path.join(ws, 'compacted', '1800000000001'));
  assert.ok(fs.existsSync(path.join(ws, 'compacted', '1800000000001', 'api_conversation_history.json')), 'the task is written');
  assert.deepEqual(filesUnder(path.join(ws, 'state')), [], 'no task index is created in the workspace');
  assert.equal(report.warnings.filter((w) => NOT_UPDATED.test(w)).length, 1, report.warnings.join('\n'));

  // A taskHistory.json the repository holds is not a store either: the output folder is not in a tasks folder.
  const planted = path.join(ws, 'state', 'taskHistory.json');
  fs.writeFileSync(planted, '[]');
  const second = await compactCli(input, path.join(ws, 'compacted', '1800000000002'));
  assert.equal(fs.readFileSync(planted, 'utf8'), '[]');
  assert.ok(second.warnings.some((w) => NOT_UPDATED.test(w) && w.includes('is not in a tasks folder')), second.warnings.join('\n'));
});

test('a store whose state/ folder, index file or tasks/ folder is a symbolic link: the index is not written through it', async (t) => {
  const { dir, input } = store(t, CLINE_4TURNS);
  const elsewhere = path.join(tmpDir(t), 'elsewhere');
  fs.renameSync(path.join(dir, 'state'), elsewhere);
  const index = path.join(elsewhere, 'taskHistory.json');
  const before = fs.readFileSync(index, 'utf8');

  fs.symlinkSync(elsewhere, path.join(dir, 'state'));
  const viaFolder = await compactFile(input, { cleanup: { keepRecentTurns: 6 } });
  assert.ok(fs.existsSync(path.join(dir, 'tasks', viaFolder.sessionId, 'api_conversation_history.json')), 'the task is written');
  assert.equal(fs.readFileSync(index, 'utf8'), before, 'the linked index is untouched');
  assert.ok(viaFolder.warnings.some((w) => NOT_UPDATED.test(w) && w.includes('is a symbolic link')), viaFolder.warnings.join('\n'));

  // The index file itself a link: skipped the same way (the task is still written, the compaction succeeds).
  fs.unlinkSync(path.join(dir, 'state'));
  fs.mkdirSync(path.join(dir, 'state'));
  fs.symlinkSync(index, path.join(dir, 'state', 'taskHistory.json'));
  const viaFile = await compactFile(input, { cleanup: { keepRecentTurns: 6 } });
  assert.equal(fs.readFileSync(index, 'utf8'), before);
  assert.ok(viaFile.warnings.some((w) => NOT_UPDATED.test(w) && w.includes('is a symbolic link')), viaFile.warnings.join('\n'));

  // A tasks/ folder that is a link (the output folder reached through it) next to a real index: not its store.
  const ws = path.join(tmpDir(t), 'ws');
  fs.mkdirSync(path.join(ws, 'state'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'state', 'taskHistory.json'), '[]');
  fs.symlinkSync(path.join(tmpDir(t)), path.join(ws, 'tasks'));
  const viaTasks = await compactCli(input, path.join(ws, 'tasks', '1800000000003'));
  assert.equal(fs.readFileSync(path.join(ws, 'state', 'taskHistory.json'), 'utf8'), '[]');
  assert.ok(viaTasks.warnings.some((w) => NOT_UPDATED.test(w) && w.includes('is a symbolic link')), viaTasks.warnings.join('\n'));
});
