// A Goose or OpenCode store reached through a symlink: its -wal is read beside the real file, where SQLite keeps it,
// so a store whose sessions are still in the log reads the same through the link as through its real path.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { agentModule } from '../../../src/core/formats/registry';
import { documentSession, nodeFs, nodeFsByName } from '../../../src/node/documentSessions';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

// Real stores as the agents left them, most of each session still in the write-ahead log (the fixtures' READMEs).
for (const [agent, fixture, linkName] of [
  ['goose', path.join(FIXTURES, 'goose', 'sessions-1.37.0', 'sessions.db'), 'sessions.db'],
  ['opencode', path.join(FIXTURES, 'opencode', 'opencode-1.18.33.db'), 'opencode.db'],
] as const) {
  test(`${agent}: a store symlinked from another folder reads the same sessions and messages as its real path`, async (t) => {
    const dir = tmpDir(t);
    const realDir = path.join(dir, 'real');
    const linkDir = path.join(dir, 'elsewhere');
    fs.mkdirSync(realDir);
    fs.mkdirSync(linkDir);
    const real = path.join(realDir, path.basename(fixture));
    fs.copyFileSync(fixture, real);
    fs.copyFileSync(`${fixture}-wal`, `${real}-wal`);
    const link = path.join(linkDir, linkName);
    fs.symlinkSync(real, link);
    assert.ok(!fs.existsSync(`${link}-wal`), 'no -wal beside the link: SQLite would not read one there');

    const direct = (await readTranscriptFile(real)).session;
    const through = (await readTranscriptFile(link)).session;
    assert.equal(direct.format, agent);
    assert.ok(direct.messages.length > 5, 'the fixture holds a real session');
    assert.equal(through.id, direct.id);
    assert.deepEqual(through.messages, direct.messages);
    assert.deepEqual(through.warnings, direct.warnings);
    const named = (await readTranscriptFile(`${link}#${direct.id}`)).session;
    assert.deepEqual(named.messages, direct.messages);

    // Discovery (Sessions view, usage): the store's sessions listed under the link's folder, by both views.
    const reading = agentModule(agent).reading;
    assert.equal(reading.kind, 'document');
    if (reading.kind !== 'document') return;
    const ids = (root: string, fsView: typeof nodeFs): string[] => reading.sessionsUnder!(root, fsView).map((p) => p.slice(p.lastIndexOf('#') + 1));
    assert.deepEqual(ids(linkDir, nodeFs), ids(realDir, nodeFs));
    assert.deepEqual(ids(linkDir, nodeFsByName), ids(realDir, nodeFs));
    assert.ok(ids(realDir, nodeFs).includes(direct.id!));
    // The files the read takes in (what the usage cache keys on and the refuse-list protects): the real -wal.
    assert.deepEqual(documentSession(link)?.files, [link, `${fs.realpathSync(real)}-wal`]);
  });
}
