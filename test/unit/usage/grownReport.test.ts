// A scan where sessions only grew updates the last report instead of rebuilding it (core/usage/grownReport.ts):
// every such report must be byte-for-byte the one a scan from scratch makes, and anything the update cannot prove
// (a duplicate id, a replaced row, an unknown model, a new warning, a damaged basis) must rebuild instead.
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { realTranscripts } from '../../support/corpus';
import { CLAUDE_FILE, CODEX_FILE, scanDirs, tempDir } from './helpers';
import type { ScanResult } from '../../../src/node/usage/scanner';

const json = (r: ScanResult): string => JSON.stringify(r.report);

/** Scans with the cache and checks the report against a scan without it; returns how the report was made. */
async function scanAndCompare(dir: string, cachePath: string, what: string): Promise<string> {
  const cached = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(json(cached), json(await scanDirs([dir])), `${what}: the cached scan's report equals a fresh one`);
  return cached.stats.report;
}

const lastUsageLine = (file: string): string => readFileSync(file, 'utf8').trimEnd().split('\n').filter((l) => l.includes('"usage"')).at(-1)!;

test('appended responses update the last report, exactly; what cannot be shown new rebuilds it', async (t) => {
  const dir = tempDir(t);
  const cachePath = join(dir, 'cache', 'usage-v1.json');
  const a = join(dir, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  const b = join(dir, 'ab9a2988-b392-46b5-a150-6191e63efe32.jsonl');
  copyFileSync(CLAUDE_FILE, a);
  writeFileSync(b, readFileSync(CLAUDE_FILE, 'utf8').replace(/"id":"msg_/g, '"id":"msg_b').replace(/"sessionId":"[^"]*"/g, '"sessionId":"other"'));
  copyFileSync(CODEX_FILE, join(dir, basename(CODEX_FILE)));
  assert.equal(await scanAndCompare(dir, cachePath, 'first'), 'built');
  assert.equal(await scanAndCompare(dir, cachePath, 'unchanged'), 'kept');

  const template = lastUsageLine(a);
  let n = 0;
  const line = (edit: (l: string) => string = (l) => l): string => `${edit(template.replace(/"id":"msg_[^"]*"/, `"id":"msg_new${++n}"`))}\n`;
  const grow = async (text: string, what: string): Promise<string> => {
    appendFileSync(a, text);
    return scanAndCompare(dir, cachePath, what);
  };
  assert.equal(await grow(line(), 'a new response'), 'updated');
  assert.equal(await grow(line() + line(), 'two more'), 'updated');
  assert.equal(await grow(line((l) => l.replace('"isSidechain":false', '"isSidechain":true')), 'a new sidechain response'), 'updated');

  // Each of these could change what another row counts, or the warnings: built anew, then updates resume.
  const bLine = lastUsageLine(b);
  const bId = /"id":"(msg_[^"]*)"/.exec(bLine)![1]!;
  assert.equal(await grow(`${template.replace(/"id":"msg_[^"]*"/, `"id":"${bId}"`).replace(/"requestRef":"[^"]*"/, `"requestRef":${JSON.stringify(/"requestRef":"([^"]*)"/.exec(bLine)?.[1] ?? '')}`)}\n`, 'a response another session has (a resumed session)'), 'built');
  assert.equal(await grow(line(), 'new again'), 'updated');
  assert.equal(await grow(`${template.replace(/"id":"msg_[^"]*"/, `"id":"${bId}"`).replace(/"requestRef":"[^"]*"/, '"requestRef":"another-request"').replace('"isSidechain":false', '"isSidechain":true')}\n`, 'a sidechain replay of a main response elsewhere'), 'built');
  assert.equal(await grow(line((l) => l.replace(/"model":"[^"]*"/, '"model":"mystery-model-9"')), 'a model without a price'), 'built');
  assert.equal(await grow('{"type":"assistant","usage":\n', 'a broken response line (a new warning)'), 'built');
  const again = lastUsageLine(a);
  assert.equal(await grow(`${again.replace(/"output_tokens":\d+/, '"output_tokens":999999')}\n`, 'the same response again, fuller (a streamed update)'), 'built');
  assert.equal(await grow(line(), 'new once more'), 'updated');

  // The Codex session grows: only Claude Code sessions are updated in place.
  appendFileSync(join(dir, basename(CODEX_FILE)), readFileSync(CODEX_FILE, 'utf8').trimEnd().split('\n').filter((l) => l.includes('token_count')).at(-1)! + '\n');
  assert.equal(await scanAndCompare(dir, cachePath, 'codex grew'), 'built');

  // A damaged basis is no basis.
  const cache = readFileSync(cachePath, 'utf8');
  writeFileSync(cachePath, cache.replace(/"ids":"[^"]*"/, '"ids":"AAAA!"'));
  assert.equal(await grow(line(), 'damaged ids'), 'built');
  assert.equal(await grow(line(), 'repaired'), 'updated');
  // A basis that disagrees with the report kept with it (a damaged digit) is not trusted either.
  const damaged = readFileSync(cachePath, 'utf8').replace(/("byFile":\{"[^"]*":\[\["[^"]*",)(\d+)/, (_, p: string, d: string) => `${p}${Number(d) + 1}`);
  assert.notEqual(damaged, readFileSync(cachePath, 'utf8'));
  writeFileSync(cachePath, damaged);
  assert.equal(await grow(line(), 'a damaged count in the basis'), 'built');
});

test('real Claude Code sessions growing chunk by chunk: every cached report equals a fresh one', async (t) => {
  const dir = tempDir(t);
  const cachePath = join(dir, 'cache', 'usage-v1.json');
  const real = realTranscripts().filter((f) => f.agent === 'claude-code');
  assert.ok(real.length >= 5, 'the real sessions are there');
  // Each session starts at 40 % of its lines and grows in three chunks, sessions taking turns.
  const sessions = real.map((f, i) => {
    const lines = readFileSync(f.file, 'utf8').split('\n').filter((l) => l.length > 0);
    const path = join(dir, `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000.jsonl`);
    const cut = (k: number): number => Math.floor((lines.length * (0.4 + 0.2 * k)) / 1);
    writeFileSync(path, `${lines.slice(0, cut(0)).join('\n')}\n`);
    return { path, lines, cut };
  });
  const how: string[] = [await scanAndCompare(dir, cachePath, 'start')];
  for (let step = 1; step <= 3; step++) {
    for (const s of sessions) {
      appendFileSync(s.path, `${s.lines.slice(s.cut(step - 1), step === 3 ? s.lines.length : s.cut(step)).join('\n')}\n`);
      how.push(await scanAndCompare(dir, cachePath, `${basename(s.path)} step ${step}`));
    }
  }
  assert.ok(how.includes('updated'), `some real growth is updated in place (${how.join(' ')})`);
});

test('random growth, duplicates, rewrites, new and removed sessions: the cached report always equals a fresh one', async (t) => {
  const dir = tempDir(t);
  const cachePath = join(dir, 'cache', 'usage-v1.json');
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const source = readFileSync(CLAUDE_FILE, 'utf8').trimEnd().split('\n');
  const usageLines = source.filter((l) => l.includes('"usage"'));
  const files = [0, 1, 2].map((i) => join(dir, `ab9a2988-b392-46b5-a150-6191e63efe3${i}.jsonl`));
  files.forEach((f, i) => writeFileSync(f, `${source.join('\n').replace(/"id":"msg_/g, `"id":"msg_f${i}_`)}\n`));
  copyFileSync(CODEX_FILE, join(dir, basename(CODEX_FILE)));
  const seen: string[] = []; // ids written so far, to make duplicates of
  let n = 0;
  const how = new Set<string>();
  for (let step = 0; step < 60; step++) {
    const file = files[rand(files.length)]!;
    const line = usageLines[rand(usageLines.length)]!;
    const op = rand(10);
    let text = '';
    if (op <= 3) text = line.replace(/"id":"msg_[^"]*"/, `"id":"msg_r${++n}"`); // a new response
    else if (op === 4 && seen.length > 0) text = line.replace(/"id":"msg_[^"]*"/, `"id":"${seen[rand(seen.length)]}"`); // a duplicate
    else if (op === 5) text = line.replace(/"id":"msg_[^"]*"/, `"id":"msg_r${++n}"`).replace('"isSidechain":false', '"isSidechain":true');
    else if (op === 6 && seen.length > 0) text = line.replace(/"id":"msg_[^"]*"/, `"id":"${seen[rand(seen.length)]}"`).replace('"isSidechain":false', '"isSidechain":true');
    else if (op === 7) text = line.replace(/"id":"msg_[^"]*"/, `"id":"msg_r${++n}"`).replace(/"output_tokens":\d+/, `"output_tokens":${rand(5000)}`);
    else if (op === 8) {
      writeFileSync(file, `${source.slice(0, 20 + rand(source.length - 20)).join('\n').replace(/"id":"msg_/g, `"id":"msg_w${step}_`)}\n`); // rewritten
    } else if (existsSync(file)) rmSync(file);
    else writeFileSync(file, `${source.join('\n').replace(/"id":"msg_/g, `"id":"msg_a${step}_`)}\n`); // removed, or back
    if (text) {
      seen.push(/"id":"(msg_[^"]*)"/.exec(text)![1]!);
      appendFileSync(file, `${text}\n`);
    }
    how.add(await scanAndCompare(dir, cachePath, `step ${step} (op ${op})`));
  }
  assert.deepEqual([...how].sort(), ['built', 'updated'], 'both paths taken');
});
