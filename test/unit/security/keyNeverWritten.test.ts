// A known fake key through every CLI command and the VS Code-free services, including failures that echo it:
// then every artifact of the run (outputs, reports, stdout/stderr, caches, models) is searched for it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { compactFile } from '../../../src/node/compactFile';
import { loadCompositionModel } from '../../../src/node/compositionView';
import { buildSessionTree } from '../../../src/node/sessions/treeModel';
import { scanUsage } from '../../../src/node/usage/scanner';
import { cliArgv, REPO } from '../../support/cliProcess';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { startFakeOpenAI } from '../../support/fakeOpenAI';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const KEY = 'sk-ant-api03-FAKE-Key-For-Leak-Test-7f3a9c1e5b';
const FORMS = [KEY, Buffer.from(KEY).toString('base64'), encodeURIComponent(KEY), KEY.slice(8, 32)];
const SNAPSHOT = '## Goal\nx\n## Decisions\n- y\n## Constraints\n- none\n## Evidence\n- e\n## Open errors\n- none\n## Completed work\n- w\n## Next actions\n- n';

/** Runs the CLI as its own process (async: the loopback fakes live in this one) and keeps what it printed. */
function run(env: NodeJS.ProcessEnv, args: string[], printed: string[]): Promise<number | null> {
  const [cmd, ...rest] = cliArgv(args);
  return new Promise((resolve) => {
    const child = spawn(cmd!, rest, { cwd: REPO, env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('close', (code) => { printed.push(out); resolve(code); });
  });
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isFile());
}

test('the API key appears in no artifact of a run, failures included', async (t) => {
  const root = tmpDir(t);
  const project = path.join(root, 'claude', 'projects', '-tmp-repo');
  fs.mkdirSync(project, { recursive: true });
  const input = path.join(project, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  fs.copyFileSync(CLAUDE_SAMPLE, input);
  const env = {
    PATH: process.env.PATH, HOME: path.join(root, 'home'), XDG_CACHE_HOME: path.join(root, 'cache'), TZ: 'UTC',
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'), CODEX_HOME: path.join(root, 'codex'),
    ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY, OPENAI_COMPATIBLE_API_KEY: KEY,
  };
  const good = await startFakeAnthropic(KEY);
  const wrongKey = await startFakeOpenAI('sk-the-server-wants-another-key'); // its 401 echoes the key it got
  const flaky = await startFakeAnthropic(KEY);
  t.after(async () => { await good.close(); await wrongKey.close(); await flaky.close(); });
  good.fallback = { kind: 'ok', text: SNAPSHOT };
  flaky.script({ kind: 'status', status: 500 }, { kind: 'cut' }, { kind: 'stream-error' });
  flaky.fallback = { kind: 'status', status: 529 };

  const out = path.join(root, 'out');
  fs.mkdirSync(out);
  const printed: string[] = [];
  const anth = ['--provider', 'anthropic', '--model', 'claude-test', '--timeout', '20'];
  const codes = [
    await run(env, ['compact', input, '--out', `${out}/a.jsonl`, ...anth, '--base-url', good.url], printed),
    await run(env, ['compact', input, '--out', `${out}/b.jsonl`, '--json', '--exact', ...anth, '--base-url', good.url], printed),
    await run(env, ['compact', input, '--out', `${out}/c.jsonl`, '--json', ...anth, '--base-url', flaky.url], printed),
    await run(env, ['compact', CODEX_SAMPLE, '--out', `${out}/d.jsonl`, '--json', '--exact', '--provider', 'openai-compatible', '--model', 'llama', '--base-url', `${wrongKey.url}/v1`], printed),
    await run(env, ['compact', input, '--out', `${out}/e.jsonl`, '--provider', 'openai', '--base-url', `${wrongKey.url}/v1`], printed),
    await run(env, ['compact', input, '--out', `${out}/f.jsonl`, ...anth, '--base-url', `http://u:${KEY}@127.0.0.1:9`], printed),
    await run(env, ['inspect', input], printed),
    await run(env, ['inspect', input, '--json'], printed),
    await run(env, ['simulate', input, '--json'], printed),
    await run(env, ['usage'], printed),
    await run(env, ['usage', '--json'], printed),
  ];
  // c (529 every time), d (a wrong key), e (the OpenAI key to another host) and f (credentials in the URL): the summary
  // asked for is not made, the cleaned copy is written, exit 1.
  assert.deepEqual(codes, [0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0], printed.join('\n'));

  // The VS Code-free services the extension uses, with the key in their configuration.
  const summary = { provider: 'anthropic' as const, model: 'claude-test', baseUrl: good.url, apiKey: KEY, timeoutSeconds: 20, maxOutputTokens: 1000, maxInputTokens: 150_000 };
  const report = await compactFile(input, { cleanup: { keepRecentTurns: 6, keepRecentTokens: 0 }, out: `${out}/g.jsonl`, summary });
  const scan = await scanUsage({ env, includeDefaults: true, extraDirs: [] });
  const tree = buildSessionTree(scan.report.sessions, { threshold: 150_000 });
  const model = await loadCompositionModel(input, (id) => id);
  const services = JSON.stringify({ report, scan: scan.report, tree: tree.agents.map((a) => a.children.map((p) => p.children.map((s) => [s.label, s.tooltip, s.resumeCommand]))), model });

  // The key was in play: the providers received it, and the failures above had it echoed back to us.
  assert.ok(good.requests.some((r) => r.auth?.endsWith(KEY)), JSON.stringify(good.requests.map((r) => r.auth)));
  assert.ok(flaky.requests.length >= 3, String(flaky.requests.length));
  assert.ok(wrongKey.requests.some((r) => r.auth === `Bearer ${KEY}`));
  const artifacts = filesUnder(root);
  assert.ok(artifacts.some((f) => f.endsWith('usage-v1.json')), 'the usage cache was written');
  assert.ok(['a', 'b', 'c', 'd', 'e', 'f', 'g'].every((n) => fs.existsSync(`${out}/${n}.jsonl`)));
  for (const [name, text] of [...artifacts.map((f) => [f, fs.readFileSync(f, 'latin1')]), ['stdout/stderr', printed.join('\n')], ['service results', services]]) {
    for (const form of FORMS) assert.equal(text!.includes(form), false, `the key (${form.slice(0, 12)}…) is in ${name}`);
  }
});
