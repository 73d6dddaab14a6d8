// The usage scan (and so the Sessions view) over Factory Droid, Kilo CLI and Crush stores laid out as the agents keep
// them: each session listed once under its agent with its title, project and figures; a second scan from the cache.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const DROID = 'bf09a340-8bf8-4f81-84fb-4ea7a0f3d05c';

test('Droid, Kilo CLI and Crush sessions in their stores: listed with title, project and usage', async (t) => {
  const home = tmpDir(t);
  const droidDir = path.join(home, '.factory', 'sessions', '-w-shop');
  fs.mkdirSync(droidDir, { recursive: true });
  for (const ext of ['.jsonl', '.settings.json']) fs.copyFileSync(path.join(FIXTURES, 'droid', DROID + ext), path.join(droidDir, DROID + ext));
  const kiloDir = path.join(home, '.local', 'share', 'kilo');
  fs.mkdirSync(kiloDir, { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, 'kilo', 'kilo-7.7.7.db'), path.join(kiloDir, 'kilo.db'));
  // Crush: the project's own .crush/crush.db, named by projects.json in Crush's data folder.
  const project = path.join(home, 'code', 'timer');
  fs.mkdirSync(path.join(project, '.crush'), { recursive: true });
  for (const f of ['crush.db', 'crush.db-wal']) fs.copyFileSync(path.join(FIXTURES, 'crush', 'chex-mix-timer', '.crush', f), path.join(project, '.crush', f));
  fs.mkdirSync(path.join(home, '.local', 'share', 'crush'), { recursive: true });
  fs.writeFileSync(path.join(home, '.local', 'share', 'crush', 'projects.json'), JSON.stringify({ projects: [{ path: project, data_dir: path.join(project, '.crush') }] }));
  const cachePath = path.join(home, 'cache.json');
  const { report } = await scanUsage({ env: { HOME: home }, cachePath });
  const of = (agent: string) => report.sessions.filter((s) => s.agent === agent);
  assert.deepEqual([of('droid').length, of('kilo').length, of('crush').length], [1, 1, 1], report.warnings.join('\n'));
  const [droid] = of('droid'), [kilo] = of('kilo'), [crush] = of('crush');
  const sidecar = JSON.parse(fs.readFileSync(path.join(droidDir, `${DROID}.settings.json`), 'utf8')).tokenUsage;
  assert.equal(droid!.title?.slice(0, 8), '[task 0]');
  assert.deepEqual([droid!.inputTokens, droid!.outputTokens, droid!.cacheReadTokens], [sidecar.inputTokens, sidecar.outputTokens, sidecar.cacheReadTokens]);
  assert.match(kilo!.project ?? '', /shop$/);
  assert.ok(kilo!.outputTokens > 0 && kilo!.cost! > 0);
  assert.equal(crush!.title, 'Unsubscribe Push Notifications Button');
  assert.equal(crush!.project, project);
  assert.equal(crush!.estimated, true, 'Crush keeps no per-request usage: estimated');
  // Unchanged stores: the same answer from the cache.
  const again = (await scanUsage({ env: { HOME: home }, cachePath })).report;
  assert.deepEqual(again.sessions.filter((s) => ['droid', 'kilo', 'crush'].includes(s.agent)).map((s) => [s.agent, s.inputTokens, s.outputTokens]),
    report.sessions.filter((s) => ['droid', 'kilo', 'crush'].includes(s.agent)).map((s) => [s.agent, s.inputTokens, s.outputTokens]));
});
