// The real Codex CLI (0.169), offline against a loopback Responses API, compacts a resumed session on its own (a low
// auto-compact limit) with our SessionStart hook installed by `hook install codex`: the request after its compaction
// carries the facts the hook found. Codex runs a hook only once the user trusted it (/hooks); the run here says so
// with --dangerously-bypass-hook-trust instead.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../src/cli/main';
import { codexHome } from '../../src/node/agentStores';
import { prepareAgentHome } from '../../src/node/resume/agentHome';
import { startLoopbackResponses } from '../../src/node/resume/loopbackModels';
import { CODEX_SAMPLE } from '../support/fixtures';
import { agentBin, allStrings, describeRun, freshDir, jsonl, runAgent } from './harness';
import { KEY } from './resumeSuite';

const MARK = 'copied from its transcript by context-compactor';
/** Every answer of the loopback model, the compaction's summary included: long enough to leave the hook a budget. */
const ANSWER = `Summary of the work so far: the user asked for investigations of npm workspaces. ${'The session went on with reading and notes. '.repeat(40)}`;

test('codex exec with `hook install codex`: after its own compaction the next request holds the hook\'s facts', async () => {
  assert.ok(fs.existsSync(path.resolve(__dirname, '..', '..', 'dist', 'cli.js')), 'run npm run build first: the hook entry names dist/cli.js');
  const fake = await startLoopbackResponses(KEY, ANSWER);
  try {
    const home = await prepareAgentHome('codex', CODEX_SAMPLE, freshDir('codex-hook'), fake.url, KEY);
    const config = path.join(codexHome(home.env), 'config.toml');
    // Top-level keys go before the tables: a limit far below the resumed history makes Codex compact first.
    fs.writeFileSync(config, `model_auto_compact_token_limit = 2000\n${fs.readFileSync(config, 'utf8')}`);
    let out = '', err = '';
    assert.equal(await main(['hook', 'install', 'codex'], { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, env: home.env }), 0, err);
    assert.match(out, /installed the compaction guard in .*hooks\.json[\s\S]*trust it/);

    const run = await runAgent(agentBin('codex'), ['exec', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', 'resume', home.sessionId, '--', 'Go on with the next step.'], home.cwd, home.env);
    assert.equal(run.code, 0, describeRun(run));
    assert.ok(jsonl(home.stored).some((r) => r.type === 'compacted'), 'Codex compacted the session');
    const after = fake.requests.filter((r) => allStrings(r.body).some((s) => s.includes('Go on with the next step.'))).pop();
    assert.ok(after, 'the model was asked to go on');
    const sent = allStrings(after.body).join('\n');
    assert.ok(sent.includes(MARK), 'the request after compaction carries our context');
    for (const fact of ['NOTES-2.md', "Cannot find module './lib/workspace-missing.js'"]) {
      assert.ok(!ANSWER.includes(fact));
      assert.ok(sent.includes(fact), `the request after compaction carries: ${fact}`);
    }
  } finally {
    await fake.close();
  }
});
