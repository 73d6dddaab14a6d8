// A stored search index whose parts contradict each other (its size still right): one warning, the session indexed
// again, and the same results as a search without any stored index — never matches hidden by the damaged part.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { makeQuery, type Query } from '../../../src/core/search/match';
import { defaultIndexDir, searchSessions } from '../../../src/node/search/searchSessions';

const FIXTURE = resolve(__dirname, '../../fixtures/real/claude-code/tpos-2.0.57-4compactions.jsonl');
const DIR_ROW = 12;
const TABLE_ROW = 16;

/** The offsets of an index file's parts, from its header line. */
function layout(data: Buffer): { dirAt: number; tableAt: number; blocks: number } {
  const nl = data.indexOf(10);
  const h = JSON.parse(data.toString('utf8', 0, nl)) as { summary: number; blocks: number; filters: number };
  const dirAt = nl + 1 + h.summary;
  return { dirAt, tableAt: dirAt + h.blocks * DIR_ROW + h.filters, blocks: h.blocks };
}

const DAMAGES: [string, (data: Buffer) => Buffer | void][] = [
  ['a block ending past the texts', (d) => { const l = layout(d); d.writeUInt32LE(0xffffffff, l.dirAt + 4); }],
  ['the last block one entry short', (d) => { const l = layout(d); const at = l.dirAt + (l.blocks - 1) * DIR_ROW; d.writeUInt32LE(d.readUInt32LE(at) - 1, at); }],
  ['a block filter of no bytes', (d) => { const l = layout(d); d.writeUInt32LE(0, l.dirAt + 8); }],
  ['an entry length moved to its neighbour', (d) => {
    const l = layout(d);
    d.writeInt32LE(d.readInt32LE(l.tableAt + 12) + 5, l.tableAt + 12);
    d.writeInt32LE(d.readInt32LE(l.tableAt + TABLE_ROW + 12) - 5, l.tableAt + TABLE_ROW + 12);
  }],
  ['a negative entry length', (d) => { const l = layout(d); d.writeInt32LE(-7, l.tableAt + 12); }],
  ['its end cut off', (d) => d.subarray(0, d.length - 100)],
  ['a filter claiming more bytes than the file', (d) => {
    const nl = d.indexOf(10);
    const h = JSON.parse(d.toString('utf8', 0, nl)) as Record<string, number>;
    return Buffer.concat([Buffer.from(`${JSON.stringify({ ...h, filters: 2 ** 40 })}\n`), d.subarray(nl + 1)]);
  }],
  ['a header that is not JSON', (d) => Buffer.concat([Buffer.from('{"v":6,'), d.subarray(d.indexOf(10))])],
];

for (const [what, damage] of DAMAGES) {
  test(`a stored index with ${what}: a warning, indexed again, the same results as without a stored index`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-search-damaged-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const sessions = join(dir, 'sessions');
    mkdirSync(sessions);
    copyFileSync(FIXTURE, join(sessions, 'session.jsonl'));
    const env = { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') };
    const opts = { env, extraDirs: [sessions], includeDefaults: false, limit: 1000 };
    const query = (text: string, regex = false): Query => makeQuery(text, regex) as Query;
    const truth = await searchSessions({ ...opts, query: query('the'), useCache: false });
    assert.ok(truth.sessions[0].count > 100);
    await searchSessions({ ...opts, query: query('the') }); // builds the stored index
    const indexDir = defaultIndexDir(env);
    const [name] = readdirSync(indexDir);
    const good = readFileSync(join(indexDir, name));
    for (const [text, regex] of [['the', false], ['th[ei]', true]] as const) {
      const copy = Buffer.from(good);
      const damaged = damage(copy) ?? copy;
      writeFileSync(join(indexDir, name), damaged, { mode: 0o600 });
      const r = await searchSessions({ ...opts, query: query(text, regex) });
      const plain = await searchSessions({ ...opts, query: query(text, regex), useCache: false });
      assert.deepEqual(JSON.parse(JSON.stringify(r.sessions)), JSON.parse(JSON.stringify(plain.sessions)), `${what}: ${text}`);
      assert.deepEqual(r.warnings.filter((w) => w.includes('damaged')).length, 1, r.warnings.join('\n'));
      // Stored whole again: the next search reuses it without a warning.
      const next = await searchSessions({ ...opts, query: query(text, regex) });
      assert.deepEqual([next.stats.reused, next.warnings.filter((w) => w.includes('damaged'))], [1, []]);
    }
  });
}
