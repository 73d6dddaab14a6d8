// `compact` tells the truth: a resume command only for a copy its agent finds, --into-store writes it there, the
// message count is the one `inspect` gives the written file, and recall says what it measures.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { intoStore } from '../../../src/cli/compactCommand';
import { main } from '../../../src/cli/main';
import { RECALL_NOTE, type CompactReport } from '../../../src/core/compact/report';
import { claudeProjectSlug, storePath } from '../../../src/node/agentStores';
import { OutputError } from '../../../src/node/atomicWrite';
import { compactFile, prepareCompaction } from '../../../src/node/compactFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(FIXTURES, 'real');
const CLAUDE = path.join(REAL, 'claude-code', 'tpos-2.0.57-4compactions.jsonl');
const CODEX = path.join(REAL, 'codex', 'golfiq-0.40.0-compacted-no-replacement-history.jsonl');
const CLAUDE_CWD = '/Users/pretor/Documents/PAI - TPOS';

async function run(env: NodeJS.ProcessEnv, ...args: string[]) {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env });
  return { code, stdout, stderr };
}

/** A home with no agent folders; the CLI and the store paths see only it. */
function home(dir: string): NodeJS.ProcessEnv {
  const h = path.join(dir, 'home');
  fs.mkdirSync(h);
  return { HOME: h };
}

test('a copy written with --out (demo-output/, any folder) gets no resume command: the report says where Claude Code looks', async (t) => {
  const dir = tmpDir(t);
  const env = home(dir);
  const out = path.join(dir, 'demo-output', 'claude-code-compacted.jsonl');
  fs.mkdirSync(path.dirname(out));
  const json = await run(env, 'compact', CLAUDE, '--out', out, '--json');
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as CompactReport;
  assert.equal(report.resumeCommand, '');
  const looks = path.join(env.HOME!, '.claude', 'projects', claudeProjectSlug(CLAUDE_CWD)) + path.sep;
  assert.equal(report.agentLooksIn, looks);
  const text = await run(env, 'compact', CLAUDE, '--out', out.replace('.jsonl', '-2.jsonl'));
  assert.doesNotMatch(text.stdout, /claude --resume/, 'never a command that cannot work');
  assert.match(text.stdout, /- resume: no command: Claude Code does not look where this copy is; it resumes sessions from `[^`]+-Users-pretor-Documents-PAI---TPOS\/` \(the CLI's `--into-store` writes the copy there\)/);
});

test('--into-store writes where Claude Code looks and gives the command, run in the session folder', async (t) => {
  const dir = tmpDir(t);
  const env = home(dir);
  const r = await run(env, 'compact', CLAUDE, '--into-store', '--json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as CompactReport;
  const expected = path.join(env.HOME!, '.claude', 'projects', claudeProjectSlug(CLAUDE_CWD), `${report.sessionId}.jsonl`);
  assert.equal(report.output, expected);
  assert.ok(fs.statSync(expected).isFile());
  assert.equal(report.resumeCommand, `claude --resume ${report.sessionId}`);
  assert.equal(report.agentLooksIn, undefined);
  assert.equal(report.cwd, CLAUDE_CWD);
  const text = await run(env, 'compact', CLAUDE, '--into-store');
  assert.match(text.stdout, /- resume: `claude --resume [0-9a-f-]{36}` \(run it in `\/Users\/pretor\/Documents\/PAI - TPOS`, the session's folder\)/);
  const both = await run(env, 'compact', CLAUDE, '--into-store', '--out', path.join(dir, 'x.jsonl'));
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--out and --into-store name two places/);
});

test('--into-store never writes over an existing file', async (t) => {
  const dir = tmpDir(t);
  const env = home(dir);
  const p = await prepareCompaction(CLAUDE, { keepRecentTurns: 6 });
  const target = storePath('claude-code', p.outcome.sessionId, p.original.cwd, p.ctx.now(), env, CLAUDE);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, 'mine\n');
  await assert.rejects(intoStore(p, env), (e: unknown) => e instanceof OutputError && /already exists; nothing was written/.test(e.message));
  assert.equal(fs.readFileSync(target, 'utf8'), 'mine\n');
  const handoff = await run(env, 'compact', path.join(REAL, 'copilot-chat', 'gitai-0.31.5-claude-sonnet-4-agent.json'), '--into-store');
  assert.equal(handoff.code, 2, 'a handoff agent has no store: a one-line error');
  assert.equal(handoff.stderr.trim().split('\n')[0]!.startsWith('context-compactor: --into-store: '), true, handoff.stderr);
});

test('Codex: a copy anywhere under its sessions folder resumes (it searches by id); elsewhere no command', async (t) => {
  const dir = tmpDir(t);
  const env = { ...home(dir), CODEX_HOME: path.join(dir, 'codex') };
  const stored = path.join(env.CODEX_HOME, 'sessions', '2025', '10', '01', path.basename(CODEX));
  fs.mkdirSync(path.dirname(stored), { recursive: true });
  fs.copyFileSync(CODEX, stored);
  const beside = JSON.parse((await run(env, 'compact', stored, '--json')).stdout) as CompactReport;
  assert.equal(path.dirname(beside.output!), path.dirname(stored));
  assert.equal(beside.resumeCommand, `codex resume ${beside.sessionId}`);
  const away = JSON.parse((await run(env, 'compact', stored, '--json', '--out', path.join(dir, 'c.jsonl'))).stdout) as CompactReport;
  assert.equal(away.resumeCommand, '');
  assert.equal(away.agentLooksIn, path.join(env.CODEX_HOME, 'sessions') + path.sep);
  const into = JSON.parse((await run(env, 'compact', CODEX, '--json', '--into-store')).stdout) as CompactReport;
  assert.ok(into.output!.startsWith(path.join(env.CODEX_HOME, 'sessions') + path.sep));
  assert.equal(into.resumeCommand, `codex resume ${into.sessionId}`);
});

test("compact's message count is the one inspect gives the written file (Codex folds runs of records into one message)", async (t) => {
  const dir = tmpDir(t);
  for (const file of [CLAUDE, CODEX, path.join(REAL, 'codex', 'ocodex-0.2x-legacy-format.jsonl'), path.join(REAL, 'codex', 'idaho-0.117.0-alpha.10-compacted-websearch-image-windows.jsonl')]) {
    const out = path.join(dir, `${path.basename(file)}.out.jsonl`);
    const report = await compactFile(file, { cleanup: { keepRecentTurns: 6 }, out });
    const inspected = JSON.parse((await run({}, 'inspect', out, '--json')).stdout) as { messages: number };
    const original = JSON.parse((await run({}, 'inspect', file, '--json')).stdout) as { messages: number };
    assert.equal(report.after.messages, inspected.messages, path.basename(file));
    assert.equal(report.before.messages, original.messages, path.basename(file));
  }
});

test('identifier recall is labelled with what it measures, apart from eval probes', async (t) => {
  const r = await run({}, 'compact', CLAUDE, '--out', path.join(tmpDir(t), 'o.jsonl'));
  assert.ok(r.stdout.includes(`identifier recall: 98.2 % of 54 (${RECALL_NOTE})`), r.stdout);
  assert.match(r.stdout, /messages 50 → 19 \(messages as inspect counts them\)/);
  assert.match(r.stdout, /- harness = system prompt \+ tool definitions \(and the initial context an agent re-sends\), re-sent every request; compaction cannot cut it; history = /);
});
