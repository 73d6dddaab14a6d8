// The Sessions view's scan runs on the extension host's thread: a session read from a SQLite store (or any document
// session) is bounded by its files' size, and the event loop gets a turn after each one, so the host never waits for
// a whole store of them. Counted in event-loop turns (setImmediate callbacks run during the scan), not in time.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

test('five OpenCode stores: the event loop turns at least once per session read', async (t) => {
  const home = tmpDir(t);
  const data = path.join(home, 'opencode');
  fs.mkdirSync(data, { recursive: true });
  const db = path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db');
  const stores = 5;
  for (let i = 0; i < stores; i++) {
    fs.copyFileSync(db, path.join(data, `opencode-${i}.db`));
    fs.copyFileSync(`${db}-wal`, path.join(data, `opencode-${i}.db-wal`));
  }
  let turns = 0;
  let running = true;
  const spin = (): void => { if (running) { turns++; setImmediate(spin); } };
  setImmediate(spin);
  const { stats } = await scanUsage({ env: { HOME: home, OPENCODE_DATA_DIR: data }, useCache: false, worker: 'never' });
  running = false;
  assert.equal(stats.documentsRead, stores);
  assert.ok(turns >= stores, `${turns} event-loop turns while ${stores} sessions were read`);
});
