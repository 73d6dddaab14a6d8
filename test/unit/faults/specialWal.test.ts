// A SQLite store's -wal that is a FIFO or a link to /dev/zero: never opened (no hang, no endless read), and the
// session's warnings say it was skipped (the database alone is older than what the agent shows).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { documentSession, readDocumentSession } from '../../../src/node/documentSessions';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const GOOSE_DB = join(FIXTURES, 'goose', 'sessions.db');

for (const [kind, plant] of [
  ['a FIFO', (p: string) => assert.equal(spawnSync('mkfifo', [p]).status, 0, `mkfifo ${p}`)],
  ['a /dev/zero link', (p: string) => symlinkSync('/dev/zero', p)],
] as const) {
  test(`a Goose sessions.db whose -wal is ${kind}: read without it, with a warning naming it`, (t) => {
    const db = join(tmpDir(t), 'sessions.db');
    copyFileSync(GOOSE_DB, db);
    plant(`${db}-wal`);
    const match = documentSession(`${db}#20251202_1`);
    assert.ok(match, 'the store is recognised');
    const session = readDocumentSession(match, { keepRaw: false, path: `${db}#20251202_1` });
    assert.ok(session.messages.length > 0);
    assert.ok(session.warnings.some((w) => w.includes(`${db}-wal is`) && w.includes('not a regular file; skipped')), session.warnings.join('; '));
  });
}
