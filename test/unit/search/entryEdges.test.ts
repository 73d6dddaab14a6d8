// A regex is matched against each entry alone (`^` at its start, `$` at its end, nothing before or after it), also
// where the entry sits inside a block of the index with other entries around it: the same count as a search of
// every entry on its own.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { searchEntries } from '../../../src/core/search/extract';
import { findAll, makeQuery, type Query } from '../../../src/core/search/match';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { searchSessions } from '../../../src/node/search/searchSessions';

const FIXTURE = resolve(__dirname, '../../fixtures/real/claude-code/tpos-2.0.57-4compactions.jsonl');

test('anchors and negative lookarounds count per entry, as the entries searched one by one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-search-edges-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions);
  copyFileSync(FIXTURE, join(sessions, 'session.jsonl'));
  const opts = { env: { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') }, extraDirs: [sessions], includeDefaults: false, limit: 0 };
  const texts = searchEntries((await readTranscriptFile(FIXTURE)).session).map((e) => e.text);
  for (const pattern of ['^the ', '^let me', '\\.$', '\\)$', '(?<!\\s)the', 'the(?!\\n)', '(?<![\\s\\S])let']) {
    const q = makeQuery(pattern, true) as Query;
    const expected = texts.reduce((n, text) => n + findAll(q, text, 100_000).length, 0);
    const got = await searchSessions({ ...opts, query: q });
    assert.equal(got.sessions[0]?.count ?? 0, expected, pattern);
    assert.ok(expected > 0, pattern);
  }
});
