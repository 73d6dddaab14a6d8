// What the usage scan (and so the Sessions view) reports for real sessions in their agents' stores: the legacy Codex
// rollout is listed, Gemini chats name their project, a Windows project groups whatever its drive letter's case, and
// Goose and OpenCode placeholder titles give way to the first prompt.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { projectOf } from '../../../src/core/usage/common';
import { sha256Hex } from '../../../src/core/usage/sha256';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real');
const LEGACY = path.join(REAL, 'codex', 'ocodex-0.2x-legacy-format.jsonl');
const IDAHO_UPPER = path.join(REAL, 'codex', 'idaho-0.118.0-alpha.2-12images-websearch-windows.jsonl');
const IDAHO_LOWER = path.join(REAL, 'codex', 'idaho-0.117.0-alpha.10-compacted-websearch-image-windows.jsonl');
const GEMINI_JSON = path.join(REAL, 'gemini-cli', 'idaho-nover-session-summary-toolcalls.json');

const put = (from: string, to: string): string => {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  return to;
};

/** A home holding the real Codex and Gemini files where the agents keep them (names as SOURCES.tsv records). */
function realHome(home: string): NodeJS.ProcessEnv {
  const codex = path.join(home, '.codex');
  put(LEGACY, path.join(codex, 'sessions/2025/08/26/rollout-2025-08-26T20-06-08-e242c65b-c00b-46b3-bb89-80bbf0196c75.jsonl'));
  put(IDAHO_LOWER, path.join(codex, 'archived_sessions/rollout-2026-03-24T21-27-50-019d2308-c368-7ca0-8331-65a7d470352c.jsonl'));
  put(IDAHO_UPPER, path.join(codex, 'archived_sessions/rollout-2026-03-31T20-44-07-019d46ed-4410-7883-8e83-afd2f6be9fe2.jsonl'));
  put(GEMINI_JSON, path.join(home, '.gemini/tmp/idaho-vault/chats/session-2026-03-31T01-22-8bb72f01.json'));
  return { HOME: home };
}

test('the legacy Codex 0.2x rollout is listed with its title, project and the context inspect estimates', async (t) => {
  const home = tmpDir(t);
  const env = realHome(home);
  const cachePath = path.join(home, 'cache.json');
  const { report } = await scanUsage({ env, cachePath });
  const codex = report.sessions.filter((s) => s.agent === 'codex');
  assert.equal(codex.length, 3, 'every rollout of the store');
  const legacy = codex.find((s) => s.sessionId === 'e242c65b-c00b-46b3-bb89-80bbf0196c75');
  assert.ok(legacy, 'the legacy rollout is in the report');
  assert.equal(legacy.project, '/Users/kobra/Dev/Chatgpt-Apps/ocodex-labs');
  assert.match(legacy.title ?? '', /^can you fix target\/debug\/orchestrator/);
  assert.equal(legacy.firstTimestamp, '2025-08-26T20:06:08.329Z');
  assert.equal(legacy.estimated, true, 'it recorded no usage: the figures are labelled estimates');
  // One context figure per session: the scan's is the one the reader (inspect) estimates.
  const read = (await readTranscriptFile(LEGACY)).session;
  const context = read.messages.reduce((n, m) => n + m.blocks.reduce((k, b) => k + b.tokens, 0), 0);
  assert.equal(legacy.contextTokens, context);
  // Each request is sent the history before it; what the previous one was sent too counts as a cache read.
  assert.ok(legacy.inputTokens + legacy.cacheReadTokens > 10 * context && legacy.outputTokens > 0);
  assert.ok(legacy.cacheReadTokens > legacy.inputTokens && legacy.inputTokens >= context, `${legacy.inputTokens} / ${legacy.cacheReadTokens}`);
  assert.ok(legacy.cost! > 0);
  assert.ok(!report.warnings.some((w) => w.includes('e242c65b') && w.includes('skipped')), report.warnings.join('\n'));
  // From the cache: the same figures.
  const again = await scanUsage({ env, cachePath });
  assert.equal(again.stats.parsedFully, 0);
  assert.deepEqual(again.report.sessions.find((s) => s.sessionId === legacy.sessionId), legacy);
});

test('a legacy rollout scanned again after it grew continues its estimate from where it stopped', async (t) => {
  const home = tmpDir(t);
  const lines = fs.readFileSync(LEGACY, 'utf8').split('\n');
  const half = lines.slice(0, 200).join('\n') + '\n';
  const file = path.join(home, '.codex/sessions/2025/08/26/rollout-2025-08-26T20-06-08-e242c65b-c00b-46b3-bb89-80bbf0196c75.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, half);
  const cachePath = path.join(home, 'cache.json');
  await scanUsage({ env: { HOME: home }, cachePath });
  fs.writeFileSync(file, fs.readFileSync(LEGACY));
  const grown = await scanUsage({ env: { HOME: home }, cachePath });
  assert.equal(grown.stats.tailed, 1);
  const session = grown.report.sessions.find((s) => s.sessionId === 'e242c65b-c00b-46b3-bb89-80bbf0196c75');
  assert.ok(session?.estimated && session.contextTokens! > 0, 'listed, with an estimated context');
  const whole = await scanUsage({ env: { HOME: home }, useCache: false });
  assert.deepEqual(grown.report.sessions, whole.report.sessions);
});

test('a Gemini CLI chat that names no workspace gets the project its projectHash proves', async (t) => {
  const home = tmpDir(t);
  const { report } = await scanUsage({ env: realHome(home), useCache: false });
  const gemini = report.sessions.filter((s) => s.agent === 'gemini-cli');
  assert.equal(gemini.length, 1);
  assert.equal(gemini[0]!.project, 'C:\\Users\\loganf\\Documents\\IDAHO-VAULT');
  const hash = JSON.parse(fs.readFileSync(GEMINI_JSON, 'utf8')).projectHash;
  assert.equal(createHash('sha256').update(gemini[0]!.project!).digest('hex'), hash);
});

test('a chat whose paths never hash to its projectHash names no project (never a guess)', async (t) => {
  const home = tmpDir(t);
  const doc = JSON.parse(fs.readFileSync(GEMINI_JSON, 'utf8'));
  doc.projectHash = createHash('sha256').update('C:\\Users\\someone-else').digest('hex');
  const file = path.join(home, '.gemini/tmp/idaho-vault/chats/session-2026-03-31T01-22-8bb72f01.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(doc));
  const { report } = await scanUsage({ env: { HOME: home }, useCache: false });
  assert.equal(report.sessions.length, 1);
  assert.equal(report.sessions[0]!.project, undefined);
});

test('sha256Hex is SHA-256 of the UTF-8 bytes (block edges, non-ASCII)', () => {
  for (const s of ['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'C:\\Users\\Zoë\\项目 😀', 'a'.repeat(1000)]) {
    assert.equal(sha256Hex(s), createHash('sha256').update(s, 'utf8').digest('hex'), `length ${s.length}`);
  }
});

test('one Windows project, whatever case its drive letter was recorded in, is one project', async (t) => {
  const home = tmpDir(t);
  const { report } = await scanUsage({ env: realHome(home), useCache: false });
  const idaho = report.sessions.filter((s) => s.project?.toLowerCase() === 'c:\\users\\loganf\\documents\\idaho-vault');
  assert.equal(idaho.length, 3, 'two Codex rollouts (C: and c:) and the Gemini chat');
  assert.deepEqual(new Set(idaho.map((s) => s.project)), new Set(['C:\\Users\\loganf\\Documents\\IDAHO-VAULT']));
  assert.equal(projectOf('c:/work/x'), 'C:/work/x');
  assert.equal(projectOf('/home/c:/x'), '/home/c:/x');
  assert.equal(projectOf('\\\\server\\share'), '\\\\server\\share');
  assert.equal(projectOf(undefined), undefined);
});

/** A copy of a real export with some fields changed, read as the scan reads it. */
async function titleOfChanged(t: Parameters<typeof tmpDir>[0], fixture: string, change: (doc: any) => void): Promise<string | undefined> {
  const doc = JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture), 'utf8'));
  change(doc);
  const file = path.join(tmpDir(t), path.basename(fixture));
  fs.writeFileSync(file, JSON.stringify(doc));
  return (await readTranscriptFile(file)).session.title;
}

test('Goose: the name Goose gives a session before it has one gives way to the first prompt; a name the user set stays', async (t) => {
  const prompt = /^"?\[task 0\] How does the cleanup engine decide/;
  // "CLI Session" is what the real Goose CLI 1.37.0 names a new session (a string in its binary) until the model names it.
  assert.match((await titleOfChanged(t, 'goose/export-1.37.0.json', (d) => { d.name = 'CLI Session'; })) ?? '', prompt);
  assert.match((await titleOfChanged(t, 'goose/export-1.37.0.json', (d) => { d.name = 'New Chat'; d.description = ''; })) ?? '', prompt);
  assert.equal(await titleOfChanged(t, 'goose/export-1.37.0.json', (d) => { d.name = 'CLI Session'; d.user_set_name = true; }), 'CLI Session');
  assert.equal(await titleOfChanged(t, 'goose/export-1.37.0.json', (d) => { d.name = 'Coupon work'; }), 'Coupon work');
});

test('OpenCode: "New session - <time>", "Child session - <time>" and "Untitled" give way to the first prompt', async (t) => {
  const prompt = /^"?\[task 0\] How does the cleanup engine decide/;
  // The placeholder the real OpenCode wrote for this session before its title came (older versions of its row, in the
  // fixture database's write-ahead log).
  for (const placeholder of ['New session - 2026-12-03T10:12:42.909Z', 'Child session - 2026-12-03T10:12:42.909Z', 'Untitled']) {
    assert.match((await titleOfChanged(t, 'opencode/export-1.18.33.json', (d) => { d.info.title = placeholder; })) ?? '', prompt, placeholder);
  }
  assert.equal(await titleOfChanged(t, 'opencode/export-1.18.33.json', (d) => { d.info.title = 'New session - notes'; }), 'New session - notes');
});
