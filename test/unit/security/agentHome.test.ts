// eval --resume-check puts a transcript where its agent looks: a transcript's own id never picks that place.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { prepareAgentHome } from '../../../src/node/resume/agentHome';
import { CODEX_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

test('a Codex rollout whose session id climbs out of the agent home (or reads as an option) is refused, nothing written outside', async (t) => {
  const dir = tmpDir(t);
  const lines = readFileSync(CODEX_SAMPLE, 'utf8').split('\n');
  const meta = JSON.parse(lines[0]!) as { payload: { id: string } };
  // Seven '..' climb from sessions/YYYY/MM/DD/rollout-…-x to the test folder itself: the check below can fail.
  for (const id of [`x${'/..'.repeat(7)}/victim/planted`, '--help', '../escape']) {
    meta.payload.id = id;
    const file = join(dir, 'rollout.jsonl');
    writeFileSync(file, [JSON.stringify(meta), ...lines.slice(1)].join('\n'));
    const root = join(dir, `root-${readdirSync(dir).length}`);
    await assert.rejects(prepareAgentHome('codex', file, root, 'http://127.0.0.1:9', 'k'), /not a session id/);
    assert.equal(existsSync(join(dir, 'victim')), false, id);
  }
  // The real rollout's own id still works: the file is stored under the agent home, named by that id.
  const file = join(dir, 'good.jsonl');
  writeFileSync(file, readFileSync(CODEX_SAMPLE));
  const home = await prepareAgentHome('codex', file, join(dir, 'good-root'), 'http://127.0.0.1:9', 'k');
  assert.ok(home.stored.startsWith(join(dir, 'good-root')), home.stored);
  assert.ok(existsSync(home.stored));
});
