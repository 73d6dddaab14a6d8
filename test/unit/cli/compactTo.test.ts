// `compact --to AGENT`: written into the target's store with its resume command and the folder to run it in, the
// report saying where it came from and what was not carried over; a wrong target or folder refused in one line.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import type { CompactReport } from '../../../src/core/compact/report';
import { claudeProjectSlug } from '../../../src/node/agentStores';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

async function run(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '', stderr = '';
  const code = await main(args, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; }, env });
  return { code, stdout, stderr };
}

test('--to claude writes a Codex session where Claude Code looks, with its command and the folder to run it in', async (t) => {
  const dir = tmpDir(t);
  const env = { HOME: dir };
  const r = await run(env, 'compact', CODEX_SAMPLE, '--to', 'claude', '--cwd', '/work/app', '--json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as CompactReport;
  assert.equal(report.output, path.join(dir, '.claude', 'projects', claudeProjectSlug('/work/app'), `${report.sessionId}.jsonl`));
  assert.ok(fs.statSync(report.output).isFile());
  assert.equal(report.resumeCommand, `claude --resume ${report.sessionId}`);
  assert.equal(report.cwd, '/work/app');
  assert.equal(report.format, 'claude-code');
  assert.equal(report.from, 'codex');
  assert.ok(report.notCarried && report.notCarried.some((l) => l.includes("Codex's own context")));
  const text = await run(env, 'compact', CODEX_SAMPLE, '--to', 'gemini', '--cwd', '/work/app');
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /\(gemini-cli, converted from Codex to Gemini CLI\)/);
  assert.match(text.stdout, /- not carried over: .*Codex's own context/);
  assert.match(text.stdout, /- resume: `gemini --resume [0-9a-f-]{36}` \(run it in `\/work\/app`/);
});

test('--to codex records the provider Codex is configured with (it resumes a thread under that one only)', async (t) => {
  const dir = tmpDir(t);
  fs.mkdirSync(path.join(dir, 'codex'));
  fs.writeFileSync(path.join(dir, 'codex', 'config.toml'), 'model = "m"\nmodel_provider = "loopback" # ours\n[model_providers.loopback]\nname = "x"\n');
  const r = await run({ HOME: dir, CODEX_HOME: path.join(dir, 'codex') }, 'compact', CLAUDE_SAMPLE, '--to', 'codex', '--json');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as CompactReport;
  assert.ok(report.output!.startsWith(path.join(dir, 'codex', 'sessions') + path.sep));
  const meta = JSON.parse(fs.readFileSync(report.output!, 'utf8').split('\n')[0]!) as { payload: { model_provider: string; id: string } };
  assert.equal(meta.payload.model_provider, 'loopback');
  assert.equal(meta.payload.id, report.sessionId);
  assert.equal(report.resumeCommand, `codex resume ${report.sessionId}`);
});

test('a target that is not one, or a relative --cwd, is refused in one line before anything is written', async (t) => {
  const dir = tmpDir(t);
  for (const args of [['--to', 'vim'], ['--to', 'cline'], ['--to', 'claude', '--cwd', 'rel/dir'], ['--cwd', '/abs']]) {
    const r = await run({ HOME: dir }, 'compact', CLAUDE_SAMPLE, ...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr.split('\n')[0]!, /^context-compactor compact: (--to takes one of claude, codex, gemini, opencode, goose|--cwd takes an absolute folder, with --to)$/);
  }
  assert.deepEqual(fs.readdirSync(dir), []);
});
