// OpenCode sessions from the real CLI: opencode.db, `opencode export` JSON and the 1.1 storage tree read alike, with
// the tokens and cost each step recorded; a written copy is new export JSON that reads back the same.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { agentModule } from '../../../src/core/formats/registry';
import { isOpencodeId, sessionIdFrom } from '../../../src/core/formats/opencode/ids';
import { lineText } from '../../../src/core/model/transcript';
import { stateFromSession } from '../../../src/core/usage/rows';
import { hostEnv } from '../../../src/node/agentStores';
import { nodeFs } from '../../../src/node/documentSessions';
import { readTranscriptFile, TranscriptError } from '../../../src/node/readTranscriptFile';
import { FIXTURES, linesOf } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';
import { cliInProcess } from '../../support/cliProcess';

const DIR = path.join(FIXTURES, 'opencode');
const DB = path.join(DIR, 'opencode-1.18.33.db');
const EXPORT = path.join(DIR, 'export-1.18.33.json');
const raw = JSON.parse(fs.readFileSync(EXPORT, 'utf8'));
const STORAGE = fs.readdirSync(path.join(DIR, 'storage-1.1.65', 'session')).map((p) => path.join(DIR, 'storage-1.1.65', 'session', p)).flatMap((d) => fs.readdirSync(d).map((f) => path.join(d, f)))[0]!;

const shape = (s: Awaited<ReturnType<typeof readTranscriptFile>>['session']) =>
  s.messages.map((m) => [m.role, m.blocks.map((b) => [b.type, 'text' in b ? b.text : '', 'id' in b ? b.id : ''])]);

test('the database, <db>#<id> and the export of one session read the same', async () => {
  const fromDb = (await readTranscriptFile(DB)).session;
  const named = (await readTranscriptFile(`${DB}#${raw.info.id}`)).session;
  const exported = (await readTranscriptFile(EXPORT)).session;
  for (const s of [fromDb, named, exported]) {
    assert.equal(s.format, 'opencode');
    assert.equal(s.id, raw.info.id);
    assert.equal(s.cwd, raw.info.directory);
  }
  assert.deepEqual(shape(fromDb), shape(exported));
  assert.deepEqual(shape(named), shape(exported));
  assert.deepEqual(fromDb.warnings, []);
});

test('each step is an assistant message with its recorded tokens; tool parts become a call and the next result', async () => {
  const { session } = await readTranscriptFile(EXPORT);
  const steps = raw.messages.filter((m: any) => m.info.role === 'assistant');
  const withUsage = session.messages.filter((m) => m.usage);
  assert.equal(withUsage.length, steps.length, 'one usage per request');
  const finish = steps[0].parts.find((p: any) => p.type === 'step-finish').tokens;
  assert.deepEqual(withUsage[0]!.usage, { inputTokens: finish.input, outputTokens: finish.output + finish.reasoning, cacheReadTokens: finish.cache.read, cacheCreationTokens: finish.cache.write });
  const tools = raw.messages.flatMap((m: any) => m.parts).filter((p: any) => p.type === 'tool');
  for (const p of tools) {
    const at = session.messages.findIndex((m) => m.blocks.some((b) => b.type === 'tool_call' && b.id === p.callID));
    const next = session.messages[at + 1]!;
    assert.ok(next.toolResultsOnly && next.blocks.some((b) => b.type === 'tool_result' && b.id === p.callID && b.text === p.state.output), p.callID);
  }
  // The attached file's text OpenCode injected is harness context; the typed prompt is the user's text.
  assert.ok(session.messages[0]!.blocks.some((b) => b.type === 'meta' && b.subtype === 'synthetic'));
  // Usage for the Sessions view and `usage`: every request's tokens, priced from the catalog.
  const state = stateFromSession(session);
  const sum = [...state.rows.values()].reduce((n, r) => n + r[1] + r[2] + r[3] + r[4], 0);
  const recorded = steps.reduce((n: number, m: any) => n + m.info.tokens.input + m.info.tokens.output + m.info.tokens.reasoning + m.info.tokens.cache.read + m.info.tokens.cache.write, 0);
  assert.equal(sum, recorded);
});

test('the 1.1 storage tree (session, message and part files) reads like its export', async () => {
  const tree = (await readTranscriptFile(STORAGE)).session;
  const exported = (await readTranscriptFile(path.join(DIR, 'export-1.1.65.json'))).session;
  assert.equal(tree.id, exported.id);
  assert.deepEqual(shape(tree), shape(exported));
  assert.ok(tree.messages.length > 20);
});

test('round trip: written unchanged, the copy is new export JSON with new ids that reads back the same', async () => {
  const { session } = await readTranscriptFile(DB, { keepRaw: true });
  let n = 0;
  const ctx = { newId: () => `0190aaaa-bbbb-7ccc-8ddd-${String(++n).padStart(12, '0')}`, now: () => new Date('2026-12-01T00:00:00Z') };
  const written = agentModule('opencode').write(session, session, ctx);
  const lines = linesOf(written);
  assert.equal(lines.length, 1);
  const out = JSON.parse('raw' in lines[0]! ? lines[0].raw : '');
  assert.ok(isOpencodeId(written.sessionId, 'ses') && written.sessionId !== raw.info.id);
  assert.equal(out.info.id, written.sessionId);
  const ids = out.messages.flatMap((m: any) => [m.info.id, ...m.parts.map((p: any) => p.id)]);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  assert.ok(ids.every((id: string) => isOpencodeId(id, id.startsWith('msg') ? 'msg' : 'prt')));
  // Ascending in the original order: OpenCode sorts parts by id.
  for (const m of out.messages) assert.deepEqual(m.parts.map((p: any) => p.id), [...m.parts.map((p: any) => p.id)].sort());
  assert.ok(out.messages.every((m: any) => m.info.role !== 'assistant' || (m.info.cost === 0 && m.info.tokens.input === 0)), 'copies carry no usage');
  const file = path.join(tmpDir(t0()), 'copy.json');
  fs.writeFileSync(file, lines.map((l) => ('raw' in l ? l.raw : '')).join('\n'));
  const back = (await readTranscriptFile(file)).session;
  assert.deepEqual(shape(back), shape(session));
  assert.equal(lineText(session, 0), undefined, 'no line texts: records are rebuilt from the parsed session');
});

let ctxT: import('node:test').TestContext | undefined;
const t0 = (): import('node:test').TestContext => ctxT!;
test.beforeEach((t) => { ctxT = t as import('node:test').TestContext; });

test('ids: sessions from a UUIDv7 keep its time and sort newest first; an OpenCode id stays as it is', () => {
  const older = sessionIdFrom('0190aaaa-0000-7000-8000-000000000001');
  const newer = sessionIdFrom('0190aaab-0000-7000-8000-000000000001');
  assert.ok(isOpencodeId(older, 'ses') && newer < older);
  assert.equal(sessionIdFrom(raw.info.id), raw.info.id);
});

test('locations: the data folder on every OS, DB sessions listed once, resume commands only for OpenCode ids', (t) => {
  const m = agentModule('opencode');
  assert.deepEqual(m.roots(hostEnv({ HOME: '/home/u' })), ['/home/u/.local/share/opencode']);
  assert.deepEqual(m.roots(hostEnv({ HOME: '/home/u', XDG_DATA_HOME: '/x' })), ['/x/opencode']);
  // OpenCode takes its data folder from xdg-basedir: ~/.local/share on macOS and Windows too.
  assert.deepEqual(m.roots({ home: '/Users/u', vars: {}, platform: 'darwin', join: path.posix.join, basename: path.posix.basename }), ['/Users/u/.local/share/opencode']);
  assert.deepEqual(m.roots({ home: 'C:\\Users\\u', vars: {}, platform: 'win32', join: path.win32.join, basename: path.win32.basename }), ['C:\\Users\\u\\.local\\share\\opencode']);
  assert.deepEqual(m.roots(hostEnv({ HOME: '/home/u', OPENCODE_DATA_DIR: '/d' })), ['/d']);
  const root = tmpDir(t);
  fs.copyFileSync(DB, path.join(root, 'opencode.db'));
  fs.copyFileSync(`${DB}-wal`, path.join(root, 'opencode.db-wal'));
  // A storage tree the database already imported is not listed twice.
  fs.cpSync(path.join(DIR, 'storage-1.1.65'), path.join(root, 'storage'), { recursive: true });
  const reading = m.reading;
  assert.equal(reading.kind, 'document');
  if (reading.kind !== 'document') return;
  const listed = reading.sessionsUnder(root, nodeFs);
  assert.deepEqual(listed.map((p) => path.basename(p)).sort(), [`opencode.db#${raw.info.id}`, path.basename(STORAGE)].sort());
  assert.equal(m.resumeCommand('ses_x; rm -rf ~'), undefined);
  assert.equal(m.resumeCommand(raw.info.id), `opencode --session ${raw.info.id}`);
  assert.equal(m.resumeCommand(raw.info.id, "/tmp/it's.json"), `opencode import '/tmp/it'\\''s.json' && opencode --session ${raw.info.id}`);
  // Quoted for the shell it is for (core/text/shellQuote): in sh `a&calc` is a name inside '…'; cmd cannot quote %PATH%.
  assert.equal(m.resumeCommand(raw.info.id, '/w/a&calc/s.json', 'sh'), `opencode import '/w/a&calc/s.json' && opencode --session ${raw.info.id}`);
  assert.equal(m.resumeCommand(raw.info.id, 'C:\\w\\it\'s;calc;\\s.json', 'powershell'), `opencode import 'C:\\w\\it''s;calc;\\s.json'; if ($?) { opencode --session ${raw.info.id} }`);
  for (const bad of ['/w/%PATH%/s.json', '/w/a!b/s.json']) assert.equal(m.resumeCommand(raw.info.id, bad, 'cmd'), undefined, bad);
  for (const shell of ['sh', 'fish', 'powershell', 'cmd', 'other'] as const) assert.equal(m.resumeCommand(raw.info.id, '/w/a\nb/s.json', shell), undefined, shell);
  const goose = agentModule('goose');
  assert.equal(goose.resumeCommand('--help'), undefined, 'a Goose id never reads as an option');
  assert.equal(goose.resumeCommand('20251201_1'), 'goose session --resume --session-id 20251201_1');
  assert.equal(goose.resumeCommand('20251201_1', 'C:\\w\\a&calc\\goose.json', 'cmd'), 'goose session import "C:\\w\\a&calc\\goose.json" && goose session --resume');
  assert.equal(goose.resumeCommand('20251201_1', 'C:\\w\\a"&calc\\goose.json', 'cmd'), undefined);
});

test('bad input: a JSON file that is no export, an unknown session id, a damaged database → one-line errors', async (t) => {
  const dir = tmpDir(t);
  const rejects = (p: Promise<unknown>, re: RegExp) => assert.rejects(p, (e: unknown) => e instanceof TranscriptError && re.test(e.message) && !e.message.includes('\n'));
  const half = path.join(dir, 'half.json');
  fs.writeFileSync(half, fs.readFileSync(EXPORT, 'utf8').slice(0, 5000));
  await rejects(readTranscriptFile(half), /not valid JSON/);
  await rejects(readTranscriptFile(`${DB}#ses_000000000000AAAAAAAAAAAAAA`), /no session/);
  const broken = path.join(dir, 'opencode.db');
  fs.writeFileSync(broken, fs.readFileSync(DB).subarray(0, 8192));
  await rejects(readTranscriptFile(broken), /cannot read/);
});

test('a copy written into a folder named R&D;calc;: quoted for the shell (sh here); a name with a newline: written, exit 0, no command offered', async (t) => {
  const dir = path.join(tmpDir(t), 'R&D;calc;');
  const nl = path.join(tmpDir(t), 'a\nb');
  fs.mkdirSync(dir);
  fs.mkdirSync(nl);
  for (const [fixture, name] of [['opencode/export-1.18.33.json', 'o.json'], ['goose/export-1.37.0.json', 'g.json']] as const) {
    const out = path.join(dir, name);
    const run = await cliInProcess({ SHELL: '/bin/bash' }, 'compact', path.join(FIXTURES, fixture), '--out', out, '--no-summary', '--json');
    assert.equal(run.code, 0, run.stderr);
    assert.ok(fs.existsSync(out), fixture);
    assert.ok((JSON.parse(run.stdout) as { resumeCommand: string }).resumeCommand.includes(` '${out}' && `), fixture);
    const bad = await cliInProcess({}, 'compact', path.join(FIXTURES, fixture), '--out', path.join(nl, name), '--no-summary', '--json');
    assert.equal(bad.code, 0, bad.stderr);
    assert.ok(fs.existsSync(path.join(nl, name)), fixture);
    assert.equal((JSON.parse(bad.stdout) as { resumeCommand: string }).resumeCommand, '', fixture);
    const text = await cliInProcess({}, 'compact', path.join(FIXTURES, fixture), '--out', path.join(nl, `t-${name}`), '--no-summary');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /resume: no command offered/);
  }
});
