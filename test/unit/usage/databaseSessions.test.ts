// `usage` and the Sessions view's scan find the sessions OpenCode and Goose keep inside SQLite databases in their
// default places (<db>#<id>, no file of their own), priced, and read again only when the database changes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const copy = (from: string, to: string): void => {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  fs.copyFileSync(`${from}-wal`, `${to}-wal`);
};

test('the default OpenCode and Goose stores: one priced session each, the context of the last request, no warnings', async (t) => {
  const home = tmpDir(t);
  copy(path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db'), path.join(home, '.local', 'share', 'opencode', 'opencode.db'));
  copy(path.join(FIXTURES, 'goose', 'sessions-1.37.0', 'sessions.db'), path.join(home, '.local', 'share', 'goose', 'sessions', 'sessions.db'));
  const cachePath = path.join(home, 'cache.json');
  const first = await scanUsage({ env: { HOME: home }, cachePath });
  assert.deepEqual(first.report.warnings, []);
  const by = (agent: string) => first.report.sessions.filter((s) => s.agent === agent);
  const [oc] = by('opencode');
  const [goose] = by('goose');
  assert.equal(by('opencode').length, 1);
  assert.equal(by('goose').length, 1);
  assert.equal(first.stats.documentsRead, 2, 'both sessions are documents read whole, none parsed by lines');
  assert.equal(first.stats.parsedFully, 2);
  const exported = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'opencode', 'export-1.18.33.json'), 'utf8'));
  assert.equal(oc!.sessionId, exported.info.id);
  assert.ok(oc!.file.endsWith(`opencode.db#${exported.info.id}`));
  assert.ok(oc!.cost! > 0 && oc!.contextTokens! > 0);
  const g = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'goose', 'export-1.37.0.json'), 'utf8'));
  assert.equal(goose!.sessionId, g.id);
  assert.equal(goose!.inputTokens, g.accumulated_input_tokens);
  assert.equal(goose!.contextTokens, g.input_tokens);
  assert.ok(Math.abs(goose!.cost! - g.accumulated_cost) < 0.01);
  // Unchanged databases: both sessions come from the cache.
  const second = await scanUsage({ env: { HOME: home }, cachePath });
  assert.equal(second.stats.parsedFully, 0);
  assert.equal(second.stats.documentsRead, 0);
  assert.deepEqual(second.report.sessions.map((s) => s.inputTokens), first.report.sessions.map((s) => s.inputTokens));
});
