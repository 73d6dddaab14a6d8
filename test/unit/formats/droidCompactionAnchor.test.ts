// Where Droid's own compaction puts its summary, on the real Droid 0.215 session that compacted four times
// (test/fixtures/droid/compacted-0.215.0/README: its last `compaction_state`, line 46, anchors on message #5 by id and
// index). Droid 0.215 rebuilds the history as the summary, then the messages after the anchor (`QoH`/`Y2I` in its
// binary: the anchor by id, else by index among the file's messages; no anchor is index -1: every message kept).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { documentSession, nodeFs } from '../../../src/node/documentSessions';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const ID = 'd9194f00-eb8f-44a0-a7e3-d98881f34176';
const REAL = path.join(FIXTURES, 'droid', 'compacted-0.215.0', `${ID}.jsonl`);
const EVENTS = fs.readFileSync(REAL, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const LAST = EVENTS.map((e) => e.type).lastIndexOf('compaction_state');

/** The session with its last compaction's anchor made `anchor` (undefined: none), and its messages' first words. */
function readWith(t: Parameters<typeof tmpDir>[0], anchor: unknown): string[] {
  const dir = tmpDir(t);
  fs.copyFileSync(REAL.replace(/\.jsonl$/, '.settings.json'), path.join(dir, `${ID}.settings.json`));
  const file = path.join(dir, `${ID}.jsonl`);
  const events = EVENTS.map((e, i) => { if (i !== LAST) return e; const { anchorMessage: _, ...rest } = e; return anchor === undefined ? rest : { ...rest, anchorMessage: anchor }; });
  fs.writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const session = documentSession(file, nodeFs)!.reading.parse([{ path: file, text: fs.readFileSync(file, 'utf8'), bytes: nodeFs.open(file)! }], { keepRaw: false });
  return session.messages.map((m) => `${m.role}:${m.blocks[0]!.type}`);
}

const messageCount = EVENTS.filter((e) => e.type === 'message').length;

test('the real anchor (id and index of message #5): the summary, then the messages after it', (t) => {
  assert.deepEqual(EVENTS[LAST]!.anchorMessage, { id: '46a2510b-99ac-408f-a313-435ceb1a28f0', index: 5 });
  const real = readWith(t, EVENTS[LAST]!.anchorMessage);
  assert.equal(real[0], 'user:summary');
  assert.equal(real.length, 1 + messageCount - 6, 'messages #6 … kept');
});

test('an anchor by index alone: the same messages as by id', (t) => {
  assert.deepEqual(readWith(t, { index: 5 }), readWith(t, EVENTS[LAST]!.anchorMessage));
});

test('no anchor: the summary first, then every message of the file, not the summary alone', (t) => {
  const none = readWith(t, undefined);
  assert.equal(none[0], 'user:summary');
  assert.equal(none.length, 1 + messageCount);
});
