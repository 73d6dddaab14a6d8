// grownReport(last, basis, …) against a rebuild from scratch over random worlds (fixed seed): dedupe across files,
// sidechain replays, rows without ids, duplicates, unknown models, long-context tiers, chained updates, JSON round trips.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildReportWithUsage, type ScannedFile } from '../../../src/core/usage/aggregate';
import { basisOf, type GrownFile, grownReport } from '../../../src/core/usage/grownReport';
import { applyClaudeRecord } from '../../../src/core/formats/claude-code/usage';
import { newFileState, type FileState } from '../../../src/core/usage/types';
import { decodeBasis, encodeBasis } from '../../../src/node/usage/cache';

const MODELS = ['claude-sonnet-4', 'claude-opus-5-5', 'claude-4-5-haiku', 'claude-3-5-haiku', 'mystery-model'];

const clone = (s: FileState): FileState => ({ ...s, models: [...s.models], rows: new Map(s.rows) });

test('random worlds: whenever grownReport answers, it equals a rebuild, basis included', () => {
  let seed = 987654321;
  const rand = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  let answered = 0;
  let refused = 0;
  for (let world = 0; world < 800; world++) {
    const ids: string[] = [];
    let n = 0;
    let clock = 0;
    const rec = (file: number, kind: number): Record<string, unknown> => {
      let id: string | undefined;
      if (kind === 1) id = undefined;
      else if (kind === 2 && ids.length > 0) id = ids[rand(ids.length)];
      else id = `msg_${world}_${++n}`;
      if (id && !ids.includes(id)) ids.push(id);
      const usage: Record<string, unknown> = {
        input_tokens: rand(rand(8) === 0 ? 400000 : 3000),
        output_tokens: rand(4000),
        cache_creation_input_tokens: rand(9000),
        cache_read_input_tokens: rand(rand(8) === 0 ? 300000 : 50000),
      };
      if (rand(3) === 0) usage.cache_creation = { ephemeral_5m_input_tokens: rand(3000), ephemeral_1h_input_tokens: rand(3000) };
      return {
        type: 'assistant', isSidechain: rand(5) === 0, sessionId: `s${file}`, cwd: '/w',
        timestamp: new Date(Date.UTC(2026, 0, 1) + (clock += rand(100000))).toISOString(),
        ...(rand(3) === 0 ? {} : { requestId: `r${rand(3)}` }),
        message: { ...(id ? { id } : {}), model: MODELS[rand(12) === 0 ? 4 : rand(4)], usage },
      };
    };
    const count = 2 + rand(5);
    let files: ScannedFile[] = Array.from({ length: count }, (_, i) => {
      const state = newFileState(rand(10) === 0 ? 'codex' : 'claude-code');
      if (state.agent === 'claude-code') {
        if (rand(8) !== 0) applyClaudeRecord(state, { type: 'user', sessionId: `s${i}`, timestamp: '2026-01-01T00:00:00Z', message: { content: `hi ${i}` } });
        for (let k = rand(8); k > 0; k--) applyClaudeRecord(state, rec(i, rand(6) === 0 ? 1 : rand(6) === 0 ? 2 : 0));
      }
      return { path: `/p/${String.fromCharCode(97 + rand(26))}${i}.jsonl`, state };
    });
    files.sort((a, b) => (a.path < b.path ? -1 : 1));
    const threshold = rand(2) === 0 ? 150000 : 20000;
    const built = buildReportWithUsage(files, { threshold });
    let last = JSON.parse(JSON.stringify(built.report));
    let basis = decodeBasis(JSON.parse(JSON.stringify(encodeBasis(basisOf(files, built.perFile)))))!;
    for (let step = 0; step < 6; step++) {
      const grownIdx = new Set<number>();
      for (let g = 1 + rand(2); g > 0; g--) grownIdx.add(rand(files.length));
      const next = files.map((f) => ({ ...f }));
      const grown: GrownFile[] = [];
      for (const i of grownIdx) {
        const before = next[i]!.state;
        const state = clone(before);
        if (state.agent === 'claude-code') {
          for (let k = 1 + rand(3); k > 0; k--) {
            const r = rand(20);
            if (r < 12) applyClaudeRecord(state, rec(i, 0));
            else if (r < 14) applyClaudeRecord(state, rec(i, 1));
            else if (r < 16) applyClaudeRecord(state, rec(i, 2));
            else if (r < 17) applyClaudeRecord(state, { type: 'user', sessionId: `s${i}`, timestamp: '2026-01-01T00:00:00Z', message: { content: `late ${i}` } });
            else applyClaudeRecord(state, rec(i, 0));
          }
        }
        next[i] = { path: next[i]!.path, state };
        grown.push({ path: next[i]!.path, state, before: new Map(before.rows), invalidBefore: before.invalidLines, absurdBefore: before.absurdUsage });
      }
      const fresh = buildReportWithUsage(next, { threshold });
      const up = grownReport(last, basis, next.map((f) => f.path), grown, threshold);
      if (up) {
        answered++;
        assert.equal(JSON.stringify(up.report), JSON.stringify(fresh.report), `world ${world} step ${step}`);
        const fb = basisOf(next, fresh.perFile);
        assert.equal(JSON.stringify(up.basis.byFile), JSON.stringify(fb.byFile), `basis byFile world ${world} step ${step}`);
        assert.deepEqual([...up.basis.ids], [...fb.ids], `basis ids world ${world} step ${step}`);
        last = JSON.parse(JSON.stringify(up.report));
        basis = decodeBasis(JSON.parse(JSON.stringify(encodeBasis(up.basis))))!;
      } else {
        refused++;
        last = JSON.parse(JSON.stringify(fresh.report));
        basis = decodeBasis(JSON.parse(JSON.stringify(encodeBasis(basisOf(next, fresh.perFile)))))!;
      }
      files = next;
    }
  }
  assert.ok(answered > 100 && refused > 100, `both answered (${answered}) and refused (${refused})`);
});
